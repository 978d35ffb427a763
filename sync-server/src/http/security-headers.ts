import { createHash } from 'node:crypto';

/**
 * The Content-Security-Policy of Pipit's HTML (NOTES.md: Security): everything from this origin
 * only, no inline script or style, no plugins, not framed by anyone. Hashes, not per-response
 * nonces, because the service worker serves a precached copy of the shell.
 */
export function contentSecurityPolicy(extraStyleHashes: string[] = []): string {
  const styles = ["'self'", ...extraStyleHashes.map((h) => `'${h}'`)].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "worker-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data: blob:",
    `style-src ${styles}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    "manifest-src 'self'",
  ].join('; ');
}

export function sha256Source(text: string): string {
  return `sha256-${createHash('sha256').update(text).digest('base64')}`;
}

/**
 * The encoding to send for an `Accept-Encoding` header: brotli, then gzip, else none. An encoding
 * with `q=0` is refused by the browser and never chosen.
 */
export function preferredEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}
