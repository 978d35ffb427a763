import { isLocalPath } from '@pipit/protocol';

/**
 * The page tapping a notification opens, from the data the service worker gave it: its path on
 * `origin`, or the home page when the data holds none that is local.
 */
export function notificationTarget(data: unknown, origin: string): string {
  const path = (data as { path?: unknown } | null)?.path;
  return new URL(typeof path === 'string' && isLocalPath(path) ? path : '/', origin).href;
}
