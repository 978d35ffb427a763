/*
 * The product's error codes and what goes with them, without zod (its schema: errors.ts).
 * The installed app's first load is one chunk with every module its entry imports, and a zod
 * schema there that a lazily loaded part uses stays in it, with zod's core (docs/performance.md):
 * what the first screen needs of the protocol lives apart from the schemas.
 */

/**
 * The product error codes of docs/product/errors.md (and `internal` for the generic fallback with a
 * digest).
 */
export const ERROR_CODES = [
  'validation_failed',
  'username_taken',
  'email_taken',
  'invalid_credentials',
  'email_not_verified',
  'token_invalid',
  'token_expired',
  'token_used',
  'rate_limited',
  'human_check_failed',
  'not_found',
  'forbidden',
  'unauthenticated',
  'document_too_large',
  'publish_invalid',
  'ai_not_configured',
  'ai_quota_exceeded',
  'ai_output_invalid',
  'ai_provider_failed',
  'limit_reached',
  'app_deleted',
  'already_imported',
  'already_closed',
  'offline',
  'payload_too_large',
  'unsupported_media_type',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Codes the client makes up itself (a request that never reached the server): no answer of the
 * server carries them, so the API's reference leaves them out or marks them.
 */
export const CLIENT_ONLY_ERROR_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['offline']);

/** HTTP status for each code, so every endpoint answers the same way. */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  validation_failed: 400,
  username_taken: 409,
  email_taken: 409,
  invalid_credentials: 401,
  email_not_verified: 403,
  token_invalid: 400,
  token_expired: 410,
  token_used: 410,
  rate_limited: 429,
  human_check_failed: 403,
  not_found: 404,
  forbidden: 403,
  unauthenticated: 401,
  document_too_large: 413,
  publish_invalid: 422,
  ai_not_configured: 503,
  ai_quota_exceeded: 429,
  ai_output_invalid: 422,
  ai_provider_failed: 502,
  limit_reached: 403,
  app_deleted: 410,
  already_imported: 409,
  already_closed: 409,
  offline: 503,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal: 500,
};

/**
 * docs/product/errors.md's generic fallback, word for word, for the host the page was loaded from.
 * Used by the client's error screen and the server's error page alike.
 */
export function genericErrorMessage(host: string): string {
  return `Application error: a client-side (or server-side) exception has occurred while loading ${host} (see the browser console or server logs for more information).`;
}
