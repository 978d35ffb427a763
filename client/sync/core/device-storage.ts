import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';

/**
 * How safe this device's copy is (docs/product/durability.md): whether the browser keeps Pipit's
 * storage until the person clears it (persistent) or may evict it when space runs low, how much
 * it holds, and when the server last confirmed it had everything.
 */
export interface DeviceStorage {
  /** The browser has the Storage API (every current one; not some embedded views). */
  supported: boolean;
  persisted: boolean;
  /** Bytes this origin uses and may use, as the browser estimates them; null when unknown. */
  usage: number | null;
  quota: number | null;
}

const LAST_SYNCED_KEY = 'pipit:last-synced-at';
const listeners = new Set<() => void>();

async function readDeviceStorage(): Promise<DeviceStorage> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  if (!storage?.persisted || !storage.estimate) {
    return { supported: false, persisted: false, usage: null, quota: null };
  }
  const [persisted, estimate] = await Promise.all([
    storage.persisted().catch(() => false),
    storage.estimate().catch(() => ({}) as StorageEstimate),
  ]);
  return {
    supported: true,
    persisted,
    usage: estimate.usage ?? null,
    quota: estimate.quota ?? null,
  };
}

/**
 * Asks the browser to keep this origin's storage (it decides: Chromium grants it to installed
 * apps and sites a person uses a lot, Firefox asks the person). Resolves whether it now is.
 */
export async function askToPersist(): Promise<boolean> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  if (!storage?.persist) return false;
  if (await storage.persisted().catch(() => false)) return true;
  return storage.persist().catch(() => false);
}

/** The device's storage, read when shown and again after `refresh` (null while reading). */
export function useDeviceStorage(): { storage: DeviceStorage | null; refresh: () => void } {
  const [storage, setStorage] = useState<DeviceStorage | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    void readDeviceStorage().then((read) => {
      if (live) setStorage(read);
    });
    return () => {
      live = false;
    };
  }, [version]);
  const refresh = useCallback(() => setVersion((v) => v + 1), []);
  return { storage, refresh };
}

/** Acknowledgements come after every burst of typing; the time is written at most this often. */
const NOTE_SYNCED_EVERY_MS = 5_000;
let lastNoted = 0;

/** The server acknowledged every change of a document this device had: noted as the last sync. */
export function noteSynced(at = Date.now()): void {
  if (at - lastNoted < NOTE_SYNCED_EVERY_MS) return;
  lastNoted = at;
  try {
    localStorage.setItem(LAST_SYNCED_KEY, String(at));
  } catch {
    // Storage full or blocked: the panel says it does not know.
  }
  listeners.forEach((listener) => listener());
}

function lastSyncedAt(): number | null {
  try {
    const value = Number(localStorage.getItem(LAST_SYNCED_KEY));
    return Number.isFinite(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

/** When the server last confirmed it had every change of a document this device had. */
export function useLastSynced(): number | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      const onStorage = (event: StorageEvent) => {
        if (event.key === LAST_SYNCED_KEY) listener();
      };
      window.addEventListener('storage', onStorage);
      return () => {
        listeners.delete(listener);
        window.removeEventListener('storage', onStorage);
      };
    },
    lastSyncedAt,
    () => null,
  );
}

/**
 * Safari (macOS and iOS, not an installed web app) deletes a site's storage after seven days of
 * use without a visit; apps on the Home Screen or Dock are exempt.
 */
export function isSafariBrowserTab(userAgent: string, standalone: boolean): boolean {
  const safari = /Safari\//.test(userAgent) && /Version\/\d/.test(userAgent);
  const other = /Chrome\/|Chromium\/|CriOS\/|FxiOS\/|EdgiOS\/|Android/.test(userAgent);
  return safari && !other && !standalone;
}

/** Whether this page runs as an installed app (its own window). */
export function isStandalone(): boolean {
  if (typeof window === 'undefined') return false;
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return iosStandalone || window.matchMedia?.('(display-mode: standalone)').matches === true;
}

/** Everything the durability panel shows and does (client/ui/durability-panel.tsx). */
export interface Durability {
  storage: DeviceStorage | null;
  lastSynced: number | null;
  /** The person asked the browser to keep the data: asking, or it said no. */
  asked: 'asking' | 'refused' | null;
  ask: () => void;
  /** A Safari tab (not an installed app): the seven-day rule applies. */
  safariTab: boolean;
}

export function useDurability(): Durability {
  const { storage, refresh } = useDeviceStorage();
  const lastSynced = useLastSynced();
  const [asked, setAsked] = useState<'asking' | 'refused' | null>(null);
  const ask = useCallback(() => {
    setAsked('asking');
    void askToPersist().then((granted) => {
      setAsked(granted ? null : 'refused');
      refresh();
    });
  }, [refresh]);
  // The right moment to ask without a click: running installed, where browsers grant it (the
  // person chose to keep this app). Anywhere else the panel's button asks.
  useEffect(() => {
    if (isStandalone()) void askToPersist().then(refresh);
  }, [refresh]);
  const safariTab =
    typeof navigator !== 'undefined' && isSafariBrowserTab(navigator.userAgent, isStandalone());
  return { storage, lastSynced, asked, ask, safariTab };
}
