/**
 * API answers that travel with a page's HTML (docs/performance.md): a page rendered on the server
 * carries the answers it was drawn from, and the installed app's first visit carries the app, so
 * the browser's first render needs no second round trip. They sit in a JSON data block — never
 * executed, so the pages' Content-Security-Policy allows it — which the client reads once
 * (client/platform/api/page-data.ts).
 */

/** The id of the data block. */
export const PAGE_DATA_ELEMENT_ID = 'pipit-page-data';

/** One API answer as the page carries it: enough to rebuild the Response the browser would get. */
export interface SentAnswer {
  status: number;
  /** The body as the API sent it (JSON text). */
  body: string;
  /** The answer's Date header, for "showing results from …". */
  date: string | null;
}

/** The answers a page carries, by the GET path (with its query) each answers. */
export type SentAnswers = Record<string, SentAnswer>;

/**
 * JSON that is safe inside a <script> element: no `<` at all (so no `</script>` or `<!--`), and
 * the two line separators JavaScript once refused, escaped.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * A Response of the server's own API as the page carries it. That API adds no Date header (the
 * HTTP layer does): the answer is from now.
 */
export async function sentAnswerOf(response: {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}): Promise<SentAnswer> {
  return {
    status: response.status,
    body: await response.text(),
    date: response.headers.get('Date') ?? new Date().toUTCString(),
  };
}

/**
 * A JSON data block with this id: the page's answers (below), or what an installed app's start
 * read from its device (client/sync/device/device-start.ts).
 */
export function jsonDataBlock(id: string, value: unknown): string {
  return `<script type="application/json" id="${id}">${jsonForScript(value)}</script>`;
}

/** The data block for `answers`. */
export function pageDataBlock(answers: SentAnswers): string {
  return jsonDataBlock(PAGE_DATA_ELEMENT_ID, answers);
}

/**
 * The page with a data block written in at the end of its body (a page without one: as it was).
 * Replaced by a function, not a string: an app's text may hold `$&` or `` $` ``, which a
 * replacement string expands.
 */
export function withDataBlock(html: string, block: string): string {
  return html.replace(/<\/body>/i, () => `${block}</body>`);
}
