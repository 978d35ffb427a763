/**
 * The session cookie (docs/library-notes.md#security): `__Host-` prefixed, Secure, HttpOnly,
 * SameSite=Lax, Path=/ — except on plain-http localhost, where browsers refuse Secure cookies, so
 * the prefix and Secure are dropped. It holds `id.secret`; the database keeps only a hash of the
 * secret.
 */
export const SECURE_COOKIE_NAME = '__Host-pipit-session';
export const PLAIN_COOKIE_NAME = 'pipit-session';

export function sessionCookieName(secure: boolean): string {
  return secure ? SECURE_COOKIE_NAME : PLAIN_COOKIE_NAME;
}

export function serializeSessionCookie(
  value: string,
  maxAgeSeconds: number,
  secure: boolean,
): string {
  const parts = [
    `${sessionCookieName(secure)}=${value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

export function clearSessionCookie(secure: boolean): string {
  return serializeSessionCookie('', 0, secure);
}

/**
 * The session cookie's value from a Cookie header. Over https only the `__Host-` cookie counts:
 * accepting the plain name too would let anyone who can set a cookie for the domain (a sibling
 * subdomain, a network attacker on http) plant their own session (session fixation).
 */
export function readSessionCookie(
  cookieHeader: string | null | undefined,
  secure: boolean,
): string | null {
  if (!cookieHeader) return null;
  const wanted = sessionCookieName(secure);
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (name === wanted) {
      const value = part.slice(eq + 1).trim();
      return value || null;
    }
  }
  return null;
}

/**
 * Whether cookies may be Secure: the site is served over https (its public origin says so, or a
 * trusted proxy in front of it does).
 */
export function isSecureRequest(
  header: (name: string) => string | null | undefined,
  publicOrigin: string | undefined,
  trustProxy: boolean,
): boolean {
  return (
    Boolean(publicOrigin?.startsWith('https:')) ||
    (trustProxy && header('x-forwarded-proto') === 'https')
  );
}
