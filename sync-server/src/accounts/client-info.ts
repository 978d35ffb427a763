import Bowser from 'bowser';

/** "Firefox on macOS" from a User-Agent header, for the active-sessions list. */
export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name || undefined;
  const os = parsed.os.name || undefined;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? 'Unknown device';
}

/**
 * The client's address. Behind a proxy (TRUST_PROXY set), the last address the proxy appended to
 * X-Forwarded-For; otherwise the socket's, which a client cannot forge.
 */
export function clientIp(
  headers: Headers,
  socketAddress: string | undefined,
  trustProxy: boolean,
): string | null {
  if (trustProxy) {
    const forwarded = headers.get('x-forwarded-for');
    const last = forwarded?.split(',').at(-1)?.trim();
    if (last) return last;
  }
  return socketAddress?.replace(/^::ffff:/, '') ?? null;
}
