import { type RefObject, useEffect } from 'react';
import { firstScreenKeeping } from '../../sync/device/first-screen-shown';

/**
 * The installed app's host (app-host.tsx) keeps its first screen as drawn with the visitor's data
 * (sync/device/first-screen.ts), for the page's next start to show while the app's code loads:
 * a moment after the screen last changed, and when the page is hidden if it changed since (the
 * keeping's code loads once the app has drawn, not on a first visit's path). A screen of a
 * space's data is not kept (someone who leaves the space must not see it again). `data`,
 * `definition` and `colorMode` are what the screen is drawn from: kept again when one changes.
 */
export function useFirstScreenKeeper({
  appId,
  viewer,
  host,
  firstScreenId,
  ready,
  spaceId,
  data,
  definition,
  colorMode,
}: {
  appId: string;
  viewer: string;
  host: RefObject<HTMLElement | null>;
  firstScreenId: string | null;
  /** The app is drawn with the visitor's data (not "Opening your data…"). */
  ready: boolean;
  /** The space whose data is shown, if any. */
  spaceId: string | null;
  data: unknown;
  definition: { theme: { mode: 'light' | 'dark' | 'auto' } };
  colorMode: 'light' | 'dark';
}): void {
  // An app that follows the device's scheme is kept in the one it is drawn in.
  const dark = definition.theme.mode === 'auto' ? colorMode === 'dark' : null;
  useEffect(() => {
    if (!ready || !firstScreenId || spaceId) return;
    let stop: (() => void) | null = null;
    let ended = false;
    firstScreenKeeping().then(
      ({ keepWhenSettled }) => {
        if (!ended) stop = keepWhenSettled({ appId, viewer, host, firstScreenId, dark });
      },
      (error: unknown) => console.warn('Could not load the keeping of the first screen:', error),
    );
    return () => {
      ended = true;
      stop?.();
    };
  }, [appId, viewer, host, firstScreenId, ready, spaceId, data, definition, dark]);
}
