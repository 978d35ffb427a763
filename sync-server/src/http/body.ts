import { safeParse } from 'zod/mini';
import type { $ZodError, $ZodType, output } from 'zod/v4/core';
import { ApiError } from './api-error';

/**
 * The largest JSON body any endpoint accepts (docs/product/error-reporting.md caps /monitoring
 * envelopes at 1 MB too).
 */
export const API_BODY_LIMIT_BYTES = 1024 * 1024;

const tooLarge = (limit: number) =>
  limit === API_BODY_LIMIT_BYTES
    ? new ApiError('payload_too_large', 'That request is larger than 1 MB. Send less at once.')
    : new ApiError(
        'payload_too_large',
        `That is larger than ${Math.round(limit / 1024 / 1024)} MB. Send something smaller.`,
      );

/** Refuses at once a request that declares a body over the limit. */
export function assertDeclaredSize(
  contentLength: string | undefined,
  limit = API_BODY_LIMIT_BYTES,
) {
  if (contentLength !== undefined && Number(contentLength) > limit) throw tooLarge(limit);
}

/** Turns zod issues into `fields`: each path, dotted, to its first message. */
export function fieldsOf(error: Pick<$ZodError, 'issues'>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '(body)';
    fields[key] ??= issue.message;
  }
  return fields;
}

/**
 * Reads a request body with its size limit enforced while it streams: a chunked body declares no
 * length, and reading it all before checking would let one request fill the server's memory.
 */
export async function readBodyBytes(
  request: Request,
  limit = API_BODY_LIMIT_BYTES,
): Promise<Buffer> {
  assertDeclaredSize(request.headers.get('content-length') ?? undefined, limit);
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks);
}

/**
 * Reads a JSON request body (size-limited as it streams) and parses it with the endpoint's zod
 * schema, classic or zod/mini. Every failure is a product error: payload_too_large, or
 * validation_failed with the fields at fault.
 */
export async function readJsonBody<T extends $ZodType>(
  request: Request,
  schema: T,
  limit = API_BODY_LIMIT_BYTES,
): Promise<output<T>> {
  const bytes = await readBodyBytes(request, limit);
  if (bytes.byteLength === 0)
    throw new ApiError('validation_failed', 'This request needs a JSON body.');
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ApiError('validation_failed', 'The request body is not valid JSON.');
  }
  const parsed = safeParse(schema, json);
  if (!parsed.success) {
    throw new ApiError('validation_failed', 'Some fields need another look.', {
      fields: fieldsOf(parsed.error),
    });
  }
  return parsed.data;
}
