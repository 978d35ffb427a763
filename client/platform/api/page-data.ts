import { PAGE_DATA_ELEMENT_ID, type SentAnswer } from '@pipit/protocol';

/**
 * Answers to the API's GET requests that came with a server-rendered page (docs/performance.md).
 *
 * A public page whose content lives in the database (explore, a profile, an app's page) is
 * rendered on the server for a visitor without a session, with the same components and the same
 * API calls as in the browser. The answers those calls got travel with the HTML, in a JSON data
 * block (`<script type="application/json" id="pipit-page-data">`, never executed), so the browser's
 * first render reads the very data the server drew, and hydrating it asks the network for nothing.
 * Each serves once: a loader's request takes its answer, a component's first render reads it and
 * lets it go once on screen (useApiGet). Whatever is left is dropped when the visitor moves to
 * another page. Later requests go to the network.
 *
 * The installed app's first visit (`/apps/{id}/pwa` without a session) carries its one answer
 * the same way: the published app, so its first render needs no second round trip.
 *
 * On the server the source is the request being rendered (client/prerender/entry.tsx); in the
 * browser it is the data block.
 */

export interface PageDataSource {
  /** The answer sent with the page for a GET of `path`, if the page is still being set up. */
  answer(path: string): SentAnswer | undefined;
  /**
   * A render looked for `path` synchronously and found no answer: a server render asks the API
   * and renders again (useApiGet); nothing to do in the browser.
   */
  missed(path: string): void;
  /**
   * How a request reaches the API: the network in the browser (a GET with an answer takes it), the
   * server's own API there.
   */
  fetch(path: string, init: RequestInit): Promise<Response>;
  /** A render's answer is on screen: the next request for the path goes to the network. */
  used(path: string): void;
  /** The visitor moved on: every answer left goes. */
  forget(): void;
  /** The page's origin (`https://pipit.example`): the browser's location, the request's there. */
  origin(): string;
}

function isSentAnswer(value: unknown): value is SentAnswer {
  if (typeof value !== 'object' || value === null) return false;
  const { status, body, date } = value as Record<string, unknown>;
  return (
    typeof status === 'number' &&
    typeof body === 'string' &&
    (date === null || typeof date === 'string')
  );
}

/** The data block of the page, read once; anything malformed is no data (the page fetches). */
function readDataBlock(): Map<string, SentAnswer> {
  const answers = new Map<string, SentAnswer>();
  if (typeof document === 'undefined') return answers;
  const element = document.getElementById(PAGE_DATA_ELEMENT_ID);
  if (!element || element.getAttribute('type') !== 'application/json') return answers;
  try {
    const parsed: unknown = JSON.parse(element.textContent ?? '');
    if (typeof parsed !== 'object' || parsed === null) return answers;
    for (const [path, answer] of Object.entries(parsed)) {
      if (path.startsWith('/api/') && isSentAnswer(answer)) answers.set(path, answer);
    }
  } catch {
    // Not JSON: the page asks the network as any page does.
  }
  return answers;
}

/** The browser's source: the page's data block until the page is set up, then the network. */
function browserSource(): PageDataSource {
  let answers: Map<string, SentAnswer> | null = null;
  const sent = () => (answers ??= readDataBlock());
  return {
    answer: (path) => sent().get(path),
    missed: () => {},
    fetch(path, init) {
      const method = (init.method ?? 'GET').toUpperCase();
      const answer = method === 'GET' ? sent().get(path) : undefined;
      if (!answer) return fetch(path, init);
      sent().delete(path);
      return Promise.resolve(responseOf(answer));
    },
    used: (path) => void sent().delete(path),
    forget: () => {
      answers = new Map();
    },
    origin: () => window.location.origin,
  };
}

/** The Response a sent answer stands for (what the network gave the server). */
export function responseOf(answer: SentAnswer): Response {
  const headers = new Headers({ 'Content-Type': 'application/json' });
  if (answer.date) headers.set('Date', answer.date);
  return new Response(answer.body || null, { status: answer.status, headers });
}

let source: PageDataSource = browserSource();

/** The server's renderer answers from the request it renders (client/prerender/entry.tsx). */
export function setPageDataSource(next: PageDataSource): void {
  source = next;
}

export const sentAnswer = (path: string): SentAnswer | undefined => source.answer(path);
export const missedAnswer = (path: string): void => source.missed(path);
export const fetchApi = (path: string, init: RequestInit): Promise<Response> =>
  source.fetch(path, init);
export const usedSentAnswer = (path: string): void => source.used(path);
/** The origin of the page being drawn, for links that must be absolute (a share link). */
export const pageOrigin = (): string => source.origin();
/** Called when the visitor moves to another page (main.tsx). */
export const forgetSentAnswers = (): void => source.forget();
