/**
 * Whether a browser's `Origin` may change state here (REST writes, websocket upgrades): the
 * server's own origin, as the request addresses it, or the configured public origin (behind a
 * proxy).
 */
export function isAllowedOrigin(
  origin: string | null | undefined,
  host: string | null | undefined,
  publicOrigin: string | undefined,
): boolean {
  if (!origin || origin === 'null') return false;
  if (publicOrigin && origin === publicOrigin) return true;
  if (!host) return false;
  try {
    const url = new URL(origin);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host.toLowerCase()
    );
  } catch {
    return false;
  }
}

/**
 * CSRF defence for state-changing REST requests (docs/library-notes.md#security): a browser says
 * where the request comes from with `Sec-Fetch-Site`; older ones only with `Origin`, checked
 * exactly.
 */
export function isSameOriginRequest(headers: Headers, publicOrigin: string | undefined): boolean {
  const site = headers.get('sec-fetch-site');
  if (site) return site === 'same-origin';
  return isAllowedOrigin(headers.get('origin'), headers.get('host'), publicOrigin);
}
