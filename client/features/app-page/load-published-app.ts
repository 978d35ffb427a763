import { type PublishedApp, publishedAppSchema } from '@pipit/protocol';
import { copyIsFor } from '../../sync/published-cache';
import { currentViewer, loadSession } from '../account/session';
import { ApiRequestError, apiFetch, OfflineError } from '../api/request';

export type LoadedPublishedApp =
  | {
      found: true;
      app: PublishedApp;
      /** The server could not be reached; the service worker answered with the copy last seen. */
      isLastSeenCopy: boolean;
      /** When that copy was sent (null when the answer is fresh or has no date). */
      seenAt: number | null;
    }
  | { found: false };

/**
 * The app page's data (`GET /api/published/{id}`). Not found, private or unpublished for this
 * reader all answer the same not-found page, so it reveals nothing (SPEC §8). The page keeps its
 * 200 status: the server cannot know in advance what a client-rendered page will find.
 */
export async function loadPublishedApp(
  appId: string,
  signal?: AbortSignal,
): Promise<LoadedPublishedApp> {
  try {
    // Who is signed in decides Remix and Edit: asked alongside, never after (it never fails).
    const [{ data, isCachedCopy, sentAt, headers }] = await Promise.all([
      apiFetch(`/api/published/${appId}`, publishedAppSchema, signal ? { signal } : undefined),
      loadSession(),
    ]);
    // Offline, a private app kept on this device for someone else is no copy at all for this person.
    if (isCachedCopy && !copyIsFor(data, headers, currentViewer())) throw new OfflineError();
    return {
      found: true,
      app: data,
      isLastSeenCopy: isCachedCopy,
      seenAt: isCachedCopy ? sentAt : null,
    };
  } catch (error) {
    if (error instanceof ApiRequestError && error.code === 'not_found') return { found: false };
    throw error;
  }
}
