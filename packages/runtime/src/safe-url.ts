/**
 * URLs from user content are http(s) or relative only (docs/product/validation.md). Browsers strip
 * tabs and newlines inside a URL and ignore leading control characters, so `java\tscript:` would
 * still run: anything with whitespace, control characters or backslashes is refused before the
 * scheme is looked at.
 */
const UNSAFE_CHARACTERS = /[\s\p{Cc}\\]/u;
/** http(s) with a host and no user info (`https://good@evil` is refused), as `safeUrlSchema`. */
const HTTP_URL = /^https?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/i;

/** The URL to use as an `href`/`src`, or null when it is not http(s) or relative. */
export function safeHref(raw: string): string | null {
  const url = raw.trim();
  if (!url || url.length > 2048 || UNSAFE_CHARACTERS.test(url)) return null;
  if (HTTP_URL.test(url)) return url;
  // `//host/x` is another site without saying so; the schema refuses it too.
  if (url.startsWith('//')) return null;
  // A colon before the first `/`, `?` or `#` is a scheme: `javascript:`, `data:`, `mailto:`…
  const end = url.search(/[:/?#]/);
  if (end !== -1 && url[end] === ':') return null;
  return url;
}

/** Whether a (safe) URL leaves this site, so it opens in a new tab. */
export function isAbsoluteUrl(url: string): boolean {
  return /^https?:/i.test(url);
}
