import { useEffect, useState, useSyncExternalStore } from 'react';
import {
  manifestAppId,
  onInstalledChange,
  rememberInstalled,
  wasInstalled,
} from './install-prompt';

/** Chromium's getInstalledRelatedApps (not in TypeScript's DOM library). */
type RelatedAppsNavigator = Navigator & {
  getInstalledRelatedApps?: () => Promise<Array<{ platform: string; url?: string; id?: string }>>;
};

/**
 * Whether this app is installed on this device, as far as the browser lets a page know: running
 * as an installed app (`display-mode: standalone`), the `appinstalled` event, the browser's
 * related-apps answer where it has one, or what this device remembered from those before.
 */
export function useInstalled(appId: string): boolean {
  const remembered = useSyncExternalStore(
    onInstalledChange,
    () => wasInstalled(appId),
    () => false,
  );
  const [standalone] = useState(
    () =>
      window.matchMedia('(display-mode: standalone)').matches ||
      // iOS Safari's own flag for a page opened from the home screen.
      (navigator as Navigator & { standalone?: boolean }).standalone === true,
  );
  useEffect(() => {
    const nav = navigator as RelatedAppsNavigator;
    // It answers about the related apps of this document's manifest: only ask with this app's.
    if (!nav.getInstalledRelatedApps || manifestAppId() !== appId) return;
    let live = true;
    nav.getInstalledRelatedApps().then(
      (apps) => {
        if (live && apps.some((app) => app.platform === 'webapp')) rememberInstalled(appId);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [appId]);
  return remembered || standalone;
}
