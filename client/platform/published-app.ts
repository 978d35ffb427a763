import { answerParser, type PublishedApp, readPublishedApp } from '@pipit/protocol';
import { copyIsFor, keptFor } from '../sync/device/published-cache';
import { currentViewer } from './session/session';
import { apiFetch, type Fetched, OfflineError } from './api/request';

/**
 * `GET /api/published/{id}`, for the app page and the installed app alike. Offline, the service
 * worker answers with the copy last fetched on this device; a private app's copy fetched for
 * someone else is no answer at all for this person (OfflineError, as if there were no copy).
 */
export async function requestPublishedApp(
  appId: string,
  signal?: AbortSignal,
): Promise<Fetched<PublishedApp>> {
  const fetched = await apiFetch(
    `/api/published/${appId}`,
    answerParser(readPublishedApp),
    signal ? { signal } : undefined,
  );
  if (fetched.isCachedCopy && !copyIsFor(fetched.data, keptFor(fetched), currentViewer())) {
    throw new OfflineError();
  }
  return fetched;
}
