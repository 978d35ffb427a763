import { anyAnswer } from '@pipit/protocol';
import { apiSend, OfflineError } from '../../platform/api/request';

const OPENED_KEY = (appId: string) => `pipit:opened:${appId}`;
const PERSIST_ASKED_KEY = 'pipit:storage-persist-asked';

function sessionFlag(key: string): boolean {
  try {
    return sessionStorage.getItem(key) !== null;
  } catch {
    return false;
  }
}

function setSessionFlag(key: string) {
  try {
    sessionStorage.setItem(key, '1');
  } catch {
    // Storage unavailable: at worst the open is counted once more (the server counts a visitor
    // once).
  }
}

/**
 * Counts an open of the app for its popularity, once per browser session (the server counts each
 * visitor once anyway). Offline, it is tried again when the device comes back online; any other
 * failure is not worth bothering the visitor with.
 */
const sending = new Set<string>();

export function recordOpen(appId: string): void {
  if (sending.has(appId) || sessionFlag(OPENED_KEY(appId))) return;
  sending.add(appId);
  const send = () => {
    apiSend('POST', `/api/apps/${appId}/events`, { kind: 'open' }, anyAnswer).then(
      () => setSessionFlag(OPENED_KEY(appId)),
      (error: unknown) => {
        if (error instanceof OfflineError) window.addEventListener('online', send, { once: true });
      },
    );
  };
  send();
}

/**
 * Asks the browser, once per device, to keep this site's storage: Safari may evict the data of
 * sites that are not installed after seven days without a visit (docs/library-notes.md#pwa), and a
 * visitor's data may exist only here until they sign in.
 */
export function askPersistentStorage(): void {
  try {
    if (localStorage.getItem(PERSIST_ASKED_KEY)) return;
    localStorage.setItem(PERSIST_ASKED_KEY, String(Date.now()));
  } catch {
    return;
  }
  const storage = navigator.storage as StorageManager | undefined;
  if (!storage?.persist) return;
  storage.persisted().then(
    (persisted) => (persisted ? undefined : storage.persist()),
    () => undefined,
  );
}
