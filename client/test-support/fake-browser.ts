import 'fake-indexeddb/auto';
import { vi } from 'vitest';

/*
 * For the sync layer's unit tests (environment node): IndexedDB from fake-indexeddb (in memory,
 * per test file), and the few browser globals the layer reads. No network: the websocket never
 * opens, so a connected document stays "connecting" (or "offline").
 */

/** A websocket that never opens and sends nothing. */
class UnopenedWebSocket extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readyState = UnopenedWebSocket.CONNECTING;
  binaryType = 'arraybuffer';
  constructor(readonly url: string) {
    super();
  }
  send(): void {}
  close(): void {
    this.readyState = UnopenedWebSocket.CLOSED;
  }
}

/** localStorage, in memory. */
function memoryStorage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'clear'> {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
  };
}

/** Installs the browser globals; `online` is what `navigator.onLine` says. */
export function fakeBrowser({ online }: { online: boolean }): { navigator: { onLine: boolean } } {
  const navigator = { onLine: online };
  vi.stubGlobal('window', new EventTarget());
  vi.stubGlobal('navigator', navigator);
  vi.stubGlobal('location', { protocol: 'http:', host: '127.0.0.1:9' });
  vi.stubGlobal('WebSocket', UnopenedWebSocket);
  vi.stubGlobal('localStorage', memoryStorage());
  return { navigator };
}
