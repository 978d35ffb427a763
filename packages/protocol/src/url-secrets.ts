/**
 * Secrets a URL carries in its path, out of every string of an error report.
 *
 * `redactReport` (@pipit/protocol) cuts the query off the fields it knows hold a URL, which keeps
 * the emailed links' `?token=…` out; but an invitation to a shared space carries its token in the
 * path (`/join/{token}`), and whoever holds the link may join the space. A report made on that
 * page has it in its page URL, its transaction name and its breadcrumbs (navigations, the API
 * requests the page made), and could have it in any message or value. So every string of a report
 * — keys too, at any depth — has each secret path segment replaced, and each secret-looking query
 * value found in free text.
 *
 * The browser applies it before a report leaves the device (client/platform/monitoring/sdk.ts);
 * the server applies it again before storing or forwarding (sync-server/src/monitoring/ingest.ts),
 * so a report from an older or tampered client is held to it too, and to its own failures'
 * reports (server-error.ts).
 */

const FILTERED = '[Filtered]';

/**
 * Every route whose path carries a secret, as the prefix the secret segment follows: the page
 * routes of packages/protocol/src/routes.ts and the API routes of sync-server/src/http/ whose
 * parameter is a token. The emailed links (verify, reset, confirm a change) carry theirs in the
 * query instead.
 */
export const SECRET_PATH_PREFIXES = [
  // An invitation link to a shared space (docs/product/spaces.md): whoever holds it may join.
  '/join/',
  // The same token, as the join page asks what it is (GET) and accepts it (POST …/accept).
  '/api/space-invites/',
] as const;

/**
 * A slash as a report may carry it: as it is; percent-encoded once (a path inside a query,
 * `?redirect=%2Fjoin%2F…`) or more (a redirect inside a redirect, `%252F`: `%`, any number of
 * `25`, `2F`); or, after the prefix's first slash, JSON-escaped (`\/`, and `\\\/` for JSON inside
 * JSON: any number of backslashes before it). A leading slash's backslashes stay outside the match.
 *
 * Linear: `(?:25)*` follows the one `%` it starts from, and the backslashes follow the part of the
 * prefix just matched (`join`), so each run of them is read by one attempt, never once per
 * position in it.
 */
const ENCODED_SLASH = '%(?:25)*2F';
const LEADING_SLASH = `(?:/|${ENCODED_SLASH})`;
const SLASH = `(?:\\\\*/|${ENCODED_SLASH})`;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `/join/` as a pattern: each of its slashes in any form above. */
function prefixPattern(prefix: string): string {
  const [first, ...rest] = prefix.split('/').map((part) => escapeRegExp(part));
  return `${first}${LEADING_SLASH}${rest.join(SLASH)}`;
}

/**
 * `(/join/)(segment)`: the prefix kept, the segment replaced. A segment is what a path segment may
 * hold unescaped plus percent-escapes: a token of any length, even cut short, is replaced, while
 * a route's own notation (`/join/$token`) and what was replaced already (`[Filtered]`) are not.
 */
const SECRET_PATH = new RegExp(
  `(${SECRET_PATH_PREFIXES.map(prefixPattern).join('|')})([A-Za-z0-9._~%-]+)`,
  'gi',
);

/**
 * A query or fragment parameter (`?name=value`), found in free text: a message or a value that
 * quotes a URL, where the query was not cut off. Its name is bounded and checked apart
 * (SECRET_NAME), so a long string of a report costs linear time, whatever it holds.
 */
const PARAM = /([?&#;])([\w.-]{1,100})=([^&#\s"'<>]+)/g;
/** A parameter whose name says it is a secret (`token`, `reset_token`, `password`, `session_id`…). */
const SECRET_NAME = /token|secret|passw(?:or)?d|session|api[-_]?key|auth/i;

/** A string with each secret path segment and secret query value replaced. */
export function redactUrlSecretsInText(text: string): string {
  if (!text.includes('/') && !/%(?:25)*2F|=/i.test(text)) return text;
  return text
    .replace(SECRET_PATH, (_match, prefix: string) => `${prefix}${FILTERED}`)
    .replace(PARAM, (match, mark: string, name: string) =>
      SECRET_NAME.test(name) ? `${mark}${name}=${FILTERED}` : match,
    );
}

/**
 * Deeper than any report that went through `redactReport` (which filters what is deeper than 20);
 * past it a value is filtered whole rather than walked, so no input can exhaust the stack.
 */
const MAX_DEPTH = 40;

function walk(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactUrlSecretsInText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_DEPTH) return FILTERED;
  if (Array.isArray(value)) return value.map((item) => walk(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[redactUrlSecretsInText(key)] = walk(item, depth + 1);
  }
  return out;
}

/**
 * A copy of a report (or any JSON value: an envelope's header) with every string and key passed
 * through `redactUrlSecretsInText`: the page URL, breadcrumbs' url, from, to and message, the
 * transaction, tags, extra, contexts, the culprit, exception values, whatever field a client used.
 */
export function redactUrlSecrets<T>(value: T): T {
  return walk(value, 0) as T;
}
