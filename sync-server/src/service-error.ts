import type { ApiErrorBody, ErrorCode } from '@pipit/protocol';

/**
 * A failure the server reports in the protocol's terms: an error code, a message for people, and
 * the extra fields of the error body (e.g. `retryAfter`, `fields`). Services throw it; http/ answers
 * it with the code's status and `{ error: { code, message, … } }`.
 */
export class ServiceError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Omit<ApiErrorBody['error'], 'code' | 'message'> = {},
  ) {
    super(message);
  }
}
