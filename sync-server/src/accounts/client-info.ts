import { isIP } from 'node:net';
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

/** `::ffff:1.2.3.4`, an IPv4 address written as IPv6, is 1.2.3.4; anything else is unchanged. */
export function unmapIpv4(ip: string): string {
  return ip.replace(/^::ffff:(?=\d{1,3}(?:\.\d{1,3}){3}$)/i, '');
}

/**
 * An address as limits count it: a port some proxies append goes (`1.2.3.4:5678`, `[::1]:443`),
 * and an IPv4 address written as IPv6 (`::ffff:1.2.3.4`) is the IPv4 address. Null for anything
 * that is not an address, so a malformed header cannot make up a new one each time.
 */
export function normalizeIp(value: string): string | null {
  let ip = value.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(ip);
  if (bracketed?.[1]) ip = bracketed[1];
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(ip)) ip = ip.slice(0, ip.lastIndexOf(':'));
  ip = unmapIpv4(ip);
  return isIP(ip) ? ip.toLowerCase() : null;
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
    if (last) return normalizeIp(last);
  }
  return socketAddress ? normalizeIp(socketAddress) : null;
}
