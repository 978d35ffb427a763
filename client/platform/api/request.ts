import {
  type AnswerParser,
  type ApiErrorBody,
  type ErrorCode,
  HUMAN_CHECK_REQUEST_HEADER,
  type PublishProblem,
  readApiError,
} from '@pipit/protocol';
import { CACHED_COPY_HEADER } from './cached-copy';
import { fetchApi, missedAnswer, responseOf, sentAnswer } from './page-data';

/** A product error the server answered with (docs/product/errors.md). */
export class ApiRequestError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly digest: string | undefined;
  readonly fields: Record<string, string> | undefined;
  readonly retryAfter: number | undefined;
  /** publish_invalid: each problem with the entity it is in. */
  readonly problems: PublishProblem[] | undefined;
  /** already_imported: the app the same file made before. */
  readonly appId: string | undefined;

  constructor(status: number, body: ApiErrorBody['error']) {
    super(body.message);
    this.name = 'ApiRequestError';
    this.code = body.code;
    this.status = status;
    this.digest = body.digest;
    this.fields = body.fields;
    this.retryAfter = body.retryAfter;
    this.problems = body.problems;
    this.appId = body.appId;
  }
}

/** The request never reached the server: the device is offline or the server is unreachable. */
export class OfflineError extends Error {
  readonly code = 'offline';
  constructor() {
    super(
      'You’re offline, so this could not be loaded. It will work again once you’re back online.',
    );
    this.name = 'OfflineError';
  }
}

export interface Fetched<T> {
  data: T;
  /** The service worker answered from its cache: the server could not be reached. */
  isCachedCopy: boolean;
  /** When the server sent the answer (its Date header), for "showing results from …". */
  sentAt: number | null;
  /** The answer's headers (who it was for, when a copy may only show to that person). */
  headers: Headers;
}

/**
 * The one way the client calls /api: same-origin credentials, JSON accepted; a request that never
 * reaches the server is OfflineError (an abort stays an abort), an error answer is ApiRequestError.
 */
async function call(
  path: string,
  init: Omit<RequestInit, 'headers'> & { headers?: Record<string, string> } = {},
): Promise<Response> {
  let response: Response;
  try {
    response = await fetchApi(path, {
      ...init,
      credentials: 'same-origin',
      headers: { Accept: 'application/json', ...init.headers },
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new OfflineError();
  }
  if (!response.ok) {
    const body = readApiError(await response.json().catch(() => null));
    throw new ApiRequestError(
      response.status,
      body ? body.error : { code: 'internal', message: `The server answered ${response.status}.` },
    );
  }
  return response;
}

/**
 * The answer parsed with its protocol schema, or its hand-written reader on the installed app's
 * first screen (@pipit/protocol answer-readers.ts). An empty body is `{}`, e.g. 204.
 */
async function parse<T>(response: Response, schema: AnswerParser<T>): Promise<T> {
  const text = await response.text();
  return schema.parse(text ? JSON.parse(text) : {});
}

/**
 * GET a JSON resource under /api and parse it with its protocol schema. A response that does not
 * fit the schema throws: that is a client-side exception, shown as the generic error page.
 */
export async function apiGet<T>(
  path: string,
  schema: AnswerParser<T>,
  init?: { signal?: AbortSignal },
): Promise<T> {
  return (await apiFetch(path, schema, init)).data;
}

/** What a render needs of an answer: parsed data and when the server sent it. */
function fetchedOf<T>(data: T, headers: Headers): Fetched<T> {
  const sentAt = Date.parse(headers.get('Date') ?? '');
  return {
    data,
    isCachedCopy: headers.get(CACHED_COPY_HEADER) === '1',
    sentAt: Number.isNaN(sentAt) ? null : sentAt,
    headers,
  };
}

/**
 * The answer to a GET that came with a server-rendered page (page-data.ts), parsed, for a first
 * render that must show what the server drew. Undefined when there is none, it was not a success,
 * or it does not fit the schema: the component then loads as usual. On the server, a miss asks
 * the renderer to fetch it and render again.
 */
export function sentFetched<T>(path: string, schema: AnswerParser<T>): Fetched<T> | undefined {
  const answer = sentAnswer(path);
  if (!answer) {
    missedAnswer(path);
    return undefined;
  }
  if (answer.status !== 200) return undefined;
  try {
    return fetchedOf(schema.parse(JSON.parse(answer.body)), responseOf(answer).headers);
  } catch {
    return undefined;
  }
}

/** {@link apiGet}, also saying whether the answer is a cached copy. */
export async function apiFetch<T>(
  path: string,
  schema: AnswerParser<T>,
  init?: { signal?: AbortSignal },
): Promise<Fetched<T>> {
  const response = await call(path, init?.signal ? { signal: init.signal } : {});
  return fetchedOf(await parse(response, schema), response.headers);
}

/**
 * A state-changing request under /api with a JSON body. `humanCheck` asks the protection script
 * (public/human-check/protect.js) to attach a solved challenge for this exact request.
 */
export async function apiSend<T>(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body: unknown,
  schema: AnswerParser<T>,
  options: { humanCheck?: boolean } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.humanCheck) headers[HUMAN_CHECK_REQUEST_HEADER] = 'required';
  const response = await call(path, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return parse(response, schema);
}

/** A raw upload (the avatar image), same rules otherwise. */
export async function apiUpload<T>(path: string, file: Blob, schema: AnswerParser<T>): Promise<T> {
  const response = await call(path, {
    method: 'POST',
    headers: { 'Content-Type': file.type || 'application/octet-stream' },
    body: file,
  });
  return parse(response, schema);
}

/** What to tell a person about a failed request: the server's words, or the offline message. */
export function describeError(error: unknown): { message: string; fields: Record<string, string> } {
  if (error instanceof ApiRequestError)
    return { message: error.message, fields: error.fields ?? {} };
  if (error instanceof OfflineError) return { message: error.message, fields: {} };
  return { message: 'Something went wrong. Try again in a moment.', fields: {} };
}

/**
 * A POST whose answer is read as it arrives (`application/x-ndjson`): the same rules as apiSend
 * until the answer starts (offline, error answers), then the open response for the caller to read.
 */
export function apiSendStreaming(
  path: string,
  body: unknown,
  init: { signal?: AbortSignal } = {},
): Promise<Response> {
  return call(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/x-ndjson' },
    body: JSON.stringify(body),
    ...(init.signal ? { signal: init.signal } : {}),
  });
}
