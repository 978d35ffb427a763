import { useCallback, useEffect, useRef, useState } from 'react';
import type { AnswerParser } from '@pipit/protocol';
import { usedSentAnswer } from './page-data';
import { apiFetch, describeError, type Fetched, sentFetched } from './request';

export type ApiResource<T> =
  | { status: 'loading'; previous: Fetched<T> | undefined }
  | ({ status: 'ready' } & Fetched<T>)
  | { status: 'error'; error: unknown; message: string };

type Settled<T> =
  ({ status: 'ready' } & Fetched<T>) | { status: 'error'; error: unknown; message: string };

/**
 * GETs a resource under /api for a component, again whenever `path` changes (null: nothing to
 * ask). While a new path loads, the last answer stays available as `previous`, so a list does not
 * blank out between pages. `retry` asks again. On a server-rendered page, the first render shows
 * the answer that came with the page (page-data.ts) and asks the network nothing.
 */
export function useApiGet<T>(
  path: string | null,
  schema: AnswerParser<T>,
): ApiResource<T> & {
  /** The answer to show: this request's once ready, the previous one while it loads. */
  shown: Fetched<T> | undefined;
  retry(): void;
} {
  const [attempt, setAttempt] = useState(0);
  const key = `${attempt}:${path}`;
  /** The last settled answer, and the request (path and attempt) it answers. */
  const [settled, setSettled] = useState<{ key: string; value: Settled<T> } | null>(() => {
    const sent = path === null ? undefined : sentFetched(path, schema);
    return sent ? { key, value: { status: 'ready', ...sent } } : null;
  });
  const [lastReady, setLastReady] = useState<Fetched<T> | undefined>(() =>
    settled?.value.status === 'ready' ? settled.value : undefined,
  );
  /** The first request, when the page's own data answered it: not asked again, that once. */
  const answeredBySent = useRef(settled ? key : null);

  useEffect(() => {
    if (path !== null && key === answeredBySent.current) {
      // On screen: asking again (another page and back, a retry) goes to the network.
      usedSentAnswer(path);
      return;
    }
    answeredBySent.current = null;
    if (path === null) return;
    const controller = new AbortController();
    apiFetch(path, schema, { signal: controller.signal }).then(
      (fetched) => {
        setSettled({ key, value: { status: 'ready', ...fetched } });
        setLastReady(fetched);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setSettled({
          key,
          value: { status: 'error', error, message: describeError(error).message },
        });
      },
    );
    return () => controller.abort();
    // The schema is a module constant at every call site; the key names the request.
  }, [key]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  const resource: ApiResource<T> =
    settled?.key === key ? settled.value : { status: 'loading', previous: lastReady };
  const shown =
    resource.status === 'ready'
      ? resource
      : resource.status === 'loading'
        ? resource.previous
        : undefined;
  return { ...resource, shown, retry };
}
