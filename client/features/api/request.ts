import { apiErrorSchema, type ApiErrorBody, type ErrorCode } from '@pipit/protocol';
import type { z } from 'zod';
import { CACHED_COPY_HEADER } from './cached-copy';

/** A product error the server answered with (SPEC §10). */
export class ApiRequestError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly digest: string | undefined;
  readonly fields: Record<string, string> | undefined;
  readonly retryAfter: number | undefined;

  constructor(status: number, body: ApiErrorBody['error']) {
    super(body.message);
    this.name = 'ApiRequestError';
    this.code = body.code;
    this.status = status;
    this.digest = body.digest;
    this.fields = body.fields;
    this.retryAfter = body.retryAfter;
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
}

/**
 * GET a JSON resource under /api and parse it with its protocol schema. A response that does not fit
 * the schema throws: that is a client-side exception, shown as the generic error page.
 */
export async function apiGet<T extends z.ZodType>(
  path: string,
  schema: T,
  init?: { signal?: AbortSignal },
): Promise<z.infer<T>> {
  return (await apiFetch(path, schema, init)).data;
}

/** {@link apiGet}, also saying whether the answer is a cached copy. */
export async function apiFetch<T extends z.ZodType>(
  path: string,
  schema: T,
  init?: { signal?: AbortSignal },
): Promise<Fetched<z.infer<T>>> {
  let response: Response;
  try {
    response = await fetch(path, {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
      ...(init?.signal ? { signal: init.signal } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new OfflineError();
  }
  if (!response.ok) {
    const body = apiErrorSchema.safeParse(await response.json().catch(() => null));
    throw new ApiRequestError(
      response.status,
      body.success
        ? body.data.error
        : { code: 'internal', message: `The server answered ${response.status}.` },
    );
  }
  return {
    data: schema.parse(await response.json()),
    isCachedCopy: response.headers.get(CACHED_COPY_HEADER) === '1',
  };
}
