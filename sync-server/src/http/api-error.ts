import { ERROR_STATUS, type ApiErrorBody, type ErrorCode } from '@pipit/protocol';

/**
 * A product error (docs/product/errors.md) an endpoint answers with; anything else becomes
 * `internal`.
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Omit<ApiErrorBody['error'], 'code' | 'message'> = {},
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): ApiErrorBody {
    return { error: { code: this.code, message: this.message, ...this.extra } };
  }
}
