import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';

/**
 * What Pipit knows about the HTTP request being served, wherever in its handling code runs: the
 * client files, the PWA assets, the websocket upgrade and the API share no logger object, but they
 * all run inside the request's async context, so the logger reads the id from here (logger.ts) and
 * every line a request produces carries it.
 */
export interface RequestContext {
  /** Echoed as `X-Request-Id` and written on every log line of the request. */
  readonly requestId: string;
  /** The matched route pattern for the request metrics (bounded: never the raw path). */
  route: string;
}

const requests = new AsyncLocalStorage<RequestContext>();

/**
 * An id a proxy in front already gave the request is kept, so its logs and ours line up; anything
 * else (missing, too long, odd characters that would make log searches unreliable) gets a new one.
 */
const FORWARDED_ID = /^[A-Za-z0-9._:-]{8,64}$/;

export function requestIdFor(given: string | string[] | undefined): string {
  const id = Array.isArray(given) ? given[0] : given;
  return id !== undefined && FORWARDED_ID.test(id) ? id : randomBytes(8).toString('hex');
}

/** Runs `handle` (and everything it starts) as part of the request described by `context`. */
export function runInRequest<T>(context: RequestContext, handle: () => T): T {
  return requests.run(context, handle);
}

/** The request being served, or undefined outside of one (start-up, timers, sync messages). */
export function currentRequest(): RequestContext | undefined {
  return requests.getStore();
}
