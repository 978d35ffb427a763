import { isNewerVersion, type PublishedApp } from '@pipit/protocol';
import { useEffect, useRef, useState } from 'react';
import { OfflineError } from '../../platform/api/request';
import { type AppGone, fetchPublishedApp } from './load-pwa-app';

/** While an app is open, the server is asked this often whether it was republished. */
export const UPDATE_CHECK_INTERVAL_MS = 5 * 60 * 1000;
/** Never more often than this (coming online and becoming visible often happen together). */
const MIN_CHECK_GAP_MS = 2 * 1000;

export interface AppUpdates {
  /** A newer published version than the one showing, waiting for the person to switch. */
  newer: PublishedApp | null;
  /** The server no longer serves the app to this person (deleted, private or unpublished). */
  /** The server no longer has the app for this person, or it was deleted forever. */
  gone: AppGone['kind'] | null;
  /** Hides the offer until an even newer version appears. */
  dismiss(): void;
}

/**
 * Watches for a republished version of the app showing: on open (when it opened from this device's
 * copy), when the device comes online, when the app becomes visible again, and every few minutes.
 * A newer version is only offered; switching is the person's choice, so nothing changes under
 * their fingers while they type. The newer copy is already kept on the device when it is offered.
 */
export function useAppUpdates(
  appId: string,
  showing: PublishedApp,
  options: { checkNow: boolean },
): AppUpdates {
  const [newer, setNewer] = useState<PublishedApp | null>(null);
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [gone, setGone] = useState<AppGone['kind'] | null>(null);
  const showingVersion = useRef(showing.version);
  showingVersion.current = showing.version;

  useEffect(() => {
    let live = true;
    let lastCheck = 0;
    const controller = new AbortController();
    async function check() {
      const now = Date.now();
      if (!navigator.onLine || now - lastCheck < MIN_CHECK_GAP_MS) return;
      lastCheck = now;
      try {
        const fetched = await fetchPublishedApp(appId, controller.signal);
        if (!live) return;
        if (fetched.kind !== 'found') {
          setGone(fetched.kind);
          return;
        }
        if (fetched.isLastSeenCopy) return;
        const found = fetched.app;
        setGone(null);
        if (isNewerVersion(found.version, showingVersion.current)) {
          setNewer((current) =>
            current && (current.version ?? 0) >= (found.version ?? 0) ? current : found,
          );
        }
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return;
        // Offline or the server is down: the copy on this device keeps working; try again later.
        if (!(error instanceof OfflineError))
          console.warn('Could not check for a new version:', error);
      }
    }
    const onVisible = () => {
      if (document.visibilityState === 'visible') void check();
    };
    const onOnline = () => void check();
    if (options.checkNow) void check();
    else lastCheck = Date.now();
    const timer = setInterval(() => void check(), UPDATE_CHECK_INTERVAL_MS);
    window.addEventListener('online', onOnline);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      live = false;
      controller.abort();
      clearInterval(timer);
      window.removeEventListener('online', onOnline);
      document.removeEventListener('visibilitychange', onVisible);
    };
    // One watcher per app; the version showing is read through a ref.
  }, [appId]);

  const offered =
    newer && isNewerVersion(newer.version, showing.version) && newer.version !== dismissed
      ? newer
      : null;
  return { newer: offered, gone, dismiss: () => setDismissed(newer?.version ?? null) };
}
