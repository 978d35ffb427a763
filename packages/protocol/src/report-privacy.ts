/**
 * What an error report may carry ("never passwords, tokens, cookies or a visitor's app
 * data"). One function, used by the browser before a report leaves the device and by the server
 * before it stores or forwards one — so a report from an older or tampered client is held to the
 * same rule. Reports are plain JSON (Sentry's event format); this works on any JSON value.
 */

const FILTERED = '[Filtered]';
/** Keys whose values are secrets wherever they appear. */
const SECRET_KEY =
  /^pass$|passw(or)?d|secret|token|cookie|authori[sz]ation|^session$|session[-_]?id|api[-_]?key|csrf/i;
/** A request's headers worth keeping: which browser; nothing that identifies or authenticates. */
const KEPT_HEADERS = new Set(['user-agent']);

type Json = unknown;
type JsonObject = Record<string, Json>;

/** A JSON object (not an array, not null): every part of a report is read through this. */
export const isJsonObject = (value: Json): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isObject = isJsonObject;

/** A report's breadcrumbs, oldest first: Sentry sends a list, or an object with `values`. */
export function breadcrumbsOf(event: JsonObject): Json[] {
  const crumbs = event.breadcrumbs;
  if (Array.isArray(crumbs)) return crumbs;
  return isObject(crumbs) && Array.isArray(crumbs.values) ? crumbs.values : [];
}

/** The exception a report is about: the last of its chained exceptions (Sentry's order). */
export function mainExceptionOf(event: JsonObject): JsonObject | undefined {
  const values = isObject(event.exception) ? event.exception.values : undefined;
  return Array.isArray(values) ? values.findLast(isObject) : undefined;
}

/**
 * A URL without its query and fragment: email links carry tokens in the query (`?token=…`), and
 * search terms are the person's own.
 */
export function redactUrl(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}

/** Replaces the values of secret-looking keys, at any depth. */
function withoutSecrets(value: Json, depth = 0): Json {
  if (depth > 20) return FILTERED;
  if (Array.isArray(value)) return value.map((item) => withoutSecrets(item, depth + 1));
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) ? FILTERED : withoutSecrets(item, depth + 1);
  }
  return out;
}

/**
 * A click or input breadcrumb names the element by a CSS selector, which can include attribute
 * values (an aria-label such as "Delete Stretch" is a visitor's own data): only tags, ids and
 * classes stay.
 */
function redactSelector(message: string): string {
  return message.replace(/\[[^\]]*\]/g, '');
}

function redactBreadcrumb(crumb: Json): Json {
  if (!isObject(crumb)) return crumb;
  const out: JsonObject = { ...crumb };
  const category = typeof crumb.category === 'string' ? crumb.category : '';
  const data = isObject(crumb.data) ? { ...crumb.data } : undefined;
  if (category === 'console') {
    // The arguments of a console call can be anything, app data included; its message is kept.
    delete out.data;
  } else if (data) {
    for (const key of ['url', 'from', 'to']) {
      if (typeof data[key] === 'string') data[key] = redactUrl(data[key]);
    }
    out.data = withoutSecrets(data);
  }
  if (category.startsWith('ui.') && typeof crumb.message === 'string') {
    out.message = redactSelector(crumb.message);
  }
  return out;
}

function redactRequest(request: Json): Json {
  if (!isObject(request)) return request;
  const out: JsonObject = {};
  if (typeof request.url === 'string') out.url = redactUrl(request.url);
  if (typeof request.method === 'string') out.method = request.method;
  if (isObject(request.headers)) {
    const headers: JsonObject = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (KEPT_HEADERS.has(name.toLowerCase())) headers[name] = value;
    }
    out.headers = headers;
  }
  // Never: cookies, query_string, data (a form's body), env.
  return out;
}

/**
 * A report as it may be kept: the request reduced to method, path and browser; breadcrumbs with URLs
 * cut at the path, console arguments dropped and selectors without attribute values; no user
 * details but an id; every secret-looking key filtered.
 */
export function redactReport(event: Json): Json {
  if (!isObject(event)) return event;
  const out = withoutSecrets({
    ...event,
    request: undefined,
    breadcrumbs: undefined,
  }) as JsonObject;
  if (event.request !== undefined) out.request = redactRequest(event.request);
  else delete out.request;
  const crumbs = event.breadcrumbs;
  if (Array.isArray(crumbs)) out.breadcrumbs = crumbs.map(redactBreadcrumb);
  else if (isObject(crumbs) && Array.isArray(crumbs.values)) {
    out.breadcrumbs = { ...crumbs, values: crumbs.values.map(redactBreadcrumb) };
  } else delete out.breadcrumbs;
  if (isObject(event.user)) {
    out.user = typeof event.user.id === 'string' ? { id: event.user.id } : {};
  }
  return out;
}
