import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HEAD_SCRIPTS } from '@pipit/protocol';
import { isSecureRequest } from '../accounts/session-cookie';

/**
 * The pages' own inline scripts, written into their <head> by the build
 * (packages/protocol/src/head-scripts.ts): allowed by their hashes, and no other.
 */
const HEAD_SCRIPT_SOURCES = Object.values(HEAD_SCRIPTS).map(
  (script) => `'${sha256Source(script)}'`,
);

/**
 * The Content-Security-Policy of Pipit's HTML (docs/library-notes.md#security): everything from
 * this origin only, no inline script but the pages' head scripts, no inline style but what a
 * page's hashes allow, no plugins, not framed by anyone. Hashes, not per-response nonces, because
 * the service worker serves a precached copy of the shell.
 */
export function contentSecurityPolicy(
  extraStyleHashes: string[] = [],
  styleAttributeHashes: string[] = [],
): string {
  const styles = [
    "'self'",
    ...extraStyleHashes.map((h) => `'${h}'`),
    // Hashes that also allow the style attributes with exactly these values (CSP 3).
    ...(styleAttributeHashes.length > 0 ? ["'unsafe-hashes'"] : []),
    ...styleAttributeHashes.map((h) => `'${h}'`),
  ].join(' ');
  return [
    "default-src 'self'",
    ["script-src 'self'", ...HEAD_SCRIPT_SOURCES].join(' '),
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

/** Everything that is not a page (JSON, images, manifests, metrics): nothing loads, nothing frames it. */
export const RESOURCE_CSP = "default-src 'none'; frame-ancestors 'none'";
/** Two years, subdomains included: the value hstspreload.org asks for. */
export const HSTS = 'max-age=63072000; includeSubDomains';

const LOCAL_HOSTNAME = /^(?:localhost|.*\.localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

function isLocalHost(host: string | undefined): boolean {
  if (!host) return false;
  try {
    return LOCAL_HOSTNAME.test(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}

/** Reads a request's header by name: the first value of a repeated one. */
export const headerOf =
  (req: IncomingMessage) =>
  (name: string): string | undefined => {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };

/**
 * HSTS only where the site really is https (its public origin, or a trusted proxy that says so) and
 * neither that origin nor the address asked for is this machine: a browser that learned HSTS for
 * localhost would refuse every plain-http development server on it afterwards.
 */
export function wantsHsts(
  req: IncomingMessage,
  publicOrigin: string | undefined,
  trustProxy: boolean,
): boolean {
  if (!isSecureRequest(headerOf(req), publicOrigin, trustProxy)) return false;
  return !isLocalHost(req.headers.host) && !isLocalHost(publicOrigin && new URL(publicOrigin).host);
}

/**
 * The headers every response carries (docs/library-notes.md#security), set before any handler runs;
 * a handler may still replace the CSP with its own (the shell's, the error page's, an upload's
 * sandbox). `csp: undefined` leaves it to the handler (Vite's dev server, whose pages need inline
 * script).
 */
export function setSecurityHeaders(
  res: ServerResponse,
  options: { csp: string | undefined; hsts: boolean },
): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('X-Frame-Options', 'DENY');
  if (options.csp) res.setHeader('Content-Security-Policy', options.csp);
  if (options.hsts) res.setHeader('Strict-Transport-Security', HSTS);
}

export function sha256Source(text: string): string {
  return `sha256-${createHash('sha256').update(text).digest('base64')}`;
}

/** What React's server renderer escapes in an attribute value, and back. */
const ATTRIBUTE_ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&quot;': '"',
  '&#x27;': "'",
  '&lt;': '<',
  '&gt;': '>',
};

/**
 * The hash sources of the style attributes in server-rendered HTML (`style="width:52px"`, React's
 * rendering of a `style` prop): the policy allows no inline style, so a page rendered on the
 * server allows exactly these values, each as the browser reads it.
 */
export function styleAttributeSources(html: string): string[] {
  const found = new Set<string>();
  for (const [, raw = ''] of html.matchAll(/\sstyle="([^"]*)"/g)) {
    found.add(
      sha256Source(raw.replace(/&(?:amp|quot|#x27|lt|gt);/g, (e) => ATTRIBUTE_ENTITIES[e] ?? e)),
    );
  }
  return [...found];
}

/**
 * The hash sources of a page's <style> elements, as written (the installed app's page carries its
 * style sheet so: vite.config.ts): the policy allows no inline style, so a built page allows
 * exactly its own elements' text. Only for the build's own HTML, never a page holding anyone's
 * content: this reads `<style>` wherever it is written (a comment, an attribute), as no parser
 * would.
 */
export function styleElementSources(html: string): string[] {
  const found = new Set<string>();
  for (const [, text = ''] of html.matchAll(/<style(?:\s[^>]*)?>([\s\S]*?)<\/style\s*>/gi)) {
    found.add(sha256Source(text));
  }
  return [...found];
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
