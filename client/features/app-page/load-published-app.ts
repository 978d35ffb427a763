import type { PublishedApp } from '@pipit/protocol';
import { loadSession } from '../../platform/session/session';
import { requestPublishedApp } from '../../platform/published-app';
import { ApiRequestError } from '../../platform/api/request';

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
 * reader all answer the same not-found page, so it reveals nothing (docs/product/roles.md). Rendered
 * by the server for a visitor without a session, that page comes with status 404
 * (docs/performance.md); for someone signed in, the shell comes first, with 200.
 */
export async function loadPublishedApp(
  appId: string,
  signal?: AbortSignal,
): Promise<LoadedPublishedApp> {
  try {
    // Who is signed in decides Remix and Edit: asked alongside, never after (it never fails).
    const [{ data, isCachedCopy, sentAt }] = await Promise.all([
      requestPublishedApp(appId, signal),
      loadSession(),
    ]);
    return {
      found: true,
      app: data,
      isLastSeenCopy: isCachedCopy,
      seenAt: isCachedCopy ? sentAt : null,
    };
  } catch (error) {
    // A deleted app's page is not found too: nothing of it is left to show.
    if (
      error instanceof ApiRequestError &&
      (error.code === 'not_found' || error.code === 'app_deleted')
    ) {
      return { found: false };
    }
    throw error;
  }
}
