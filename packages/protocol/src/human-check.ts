/**
 * The human check (docs/product/accounts.md#the-human-check). The page loads a challenge script and
 * a protection script from this origin; for the endpoints below, the protection script solves a
 * proof of work bound to the request's path and method and sends it in these headers. The server
 * refuses a protected request without a valid, unused solution with `human_check_failed`.
 */
export const HUMAN_CHECK_HEADER = 'X-Human-Check';
export const HUMAN_CHECK_PATH_HEADER = 'X-Human-Check-Path';
export const HUMAN_CHECK_METHOD_HEADER = 'X-Human-Check-Method';
/** A page asks for a check by sending this header (value "required"); the script replaces it. */
export const HUMAN_CHECK_REQUEST_HEADER = 'X-Human-Check-Request';

export const HUMAN_CHECK_CHALLENGE_PATH = '/api/human-check/challenge';

/**
 * Abuse-prone writes: each needs a solved challenge bound to its path and method. `weight`
 * multiplies the server's difficulty: creating an account or asking for a reset email, where the
 * person waits anyway, costs a bot more.
 */
export const PROTECTED_ENDPOINTS = [
  { method: 'POST', path: '/api/auth/signup', weight: 4 },
  { method: 'POST', path: '/api/auth/login', weight: 1 },
  { method: 'POST', path: '/api/auth/forgot-password', weight: 4 },
  { method: 'POST', path: '/api/auth/resend-verification', weight: 1 },
  { method: 'POST', path: '/api/messages', weight: 1 },
] as const;

export function protectedEndpoint(method: string, path: string) {
  return PROTECTED_ENDPOINTS.find((e) => e.method === method.toUpperCase() && e.path === path);
}

export function isProtectedEndpoint(method: string, path: string): boolean {
  return protectedEndpoint(method, path) !== undefined;
}
