import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import * as decoding from 'lib0/decoding';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { observedWebSocket, reconnectDelay, SYNC_SOCKET_RETRY } from '@pipit/protocol';
import { TEST_PERSON_HEADER } from './access';
import { MESSAGE } from './raw-sync';

export interface TestProvider {
  provider: HocuspocusProvider;
  doc: Y.Doc;
  /** Resolves true once the server authorized and synced the document, false if it refused. */
  ready: Promise<boolean>;
  socket: HocuspocusProviderWebsocket;
  /** The provider, and its socket unless it shares another's. */
  destroy(): void;
}

/**
 * A real Hocuspocus provider in Node, over `ws` (Node 20 has no WebSocket global), sending the
 * `Origin` a browser on `origin` would send (null: none at all).
 */
export function connectProvider(options: {
  url: string;
  name: string;
  origin?: string | null;
  doc?: Y.Doc;
  /** Appended to the socket URL, e.g. "as=viewer", for access policies in tests. */
  query?: string;
  /** The session cookie a signed-in browser would send (`ApiClient.cookie`). */
  cookie?: string | null;
  /**
   * Keep reconnecting, as a browser's provider does (quickly: at most 2 s apart), instead of
   * giving up when the socket closes.
   */
  reconnect?: boolean;
  /** Another provider's socket to share, as a browser tab's documents share one. */
  socket?: HocuspocusProviderWebsocket;
  /** How the provider addresses its document (the browser's: `SYNC_PROVIDER_ADDRESSING`). */
  addressing?: { sessionAwareness: boolean };
  /**
   * As the app's sync socket does (client/sync/core/socket.ts): each connection's messages observed for
   * the server's acknowledgements (@pipit/protocol `observedWebSocket`), edits batched for this
   * many ms, messages queued while the socket was down dropped when it opens again, and (with
   * `reconnect`) the app's spread retries.
   */
  likeTheApp?: { flushDelay: number };
}): TestProvider {
  // The same person over every reconnection, for servers whose test policy names people by it.
  const person = `provider-${Math.random().toString(36).slice(2)}`;
  const origin = options.origin === undefined ? options.url : options.origin;
  class BrowserLikeWebSocket extends WebSocket {
    constructor(address: string) {
      super(address, {
        headers: {
          ...(origin ? { Origin: origin } : {}),
          ...(options.cookie ? { Cookie: options.cookie } : {}),
          [TEST_PERSON_HEADER]: person,
        },
      });
    }
  }
  const ownSocket = !options.socket;
  const websocketProvider: HocuspocusProviderWebsocket =
    options.socket ??
    new HocuspocusProviderWebsocket({
      url: `${options.url.replace(/^http/, 'ws')}/api/sync${options.query ? `?${options.query}` : ''}`,
      WebSocketPolyfill: options.likeTheApp
        ? observedWebSocket(BrowserLikeWebSocket)
        : BrowserLikeWebSocket,
      ...(!options.reconnect
        ? { maxAttempts: 1 }
        : options.likeTheApp
          ? {
              ...SYNC_SOCKET_RETRY,
              onClose: () => {
                websocketProvider.configuration.delay = reconnectDelay();
              },
            }
          : { maxAttempts: 0, delay: 200, minDelay: 200, maxDelay: 2_000, factor: 2 }),
    });
  const doc = options.doc ?? new Y.Doc();
  const provider = new HocuspocusProvider({
    name: options.name,
    document: doc,
    websocketProvider,
    ...options.addressing,
    ...(options.likeTheApp ? { flushDelay: options.likeTheApp.flushDelay } : {}),
  });
  if (options.likeTheApp && ownSocket) {
    websocketProvider.on('open', () => {
      (websocketProvider as unknown as { messageQueue: unknown[] }).messageQueue = [];
    });
  }
  const ready = new Promise<boolean>((resolve) => {
    provider.on('synced', () => resolve(true));
    provider.on('authenticationFailed', () => resolve(false));
    if (!options.reconnect) websocketProvider.on('close', () => resolve(false));
  });
  provider.attach();
  return {
    provider,
    doc,
    socket: websocketProvider,
    ready,
    destroy() {
      provider.destroy();
      if (ownSocket) websocketProvider.destroy();
    },
  };
}

/** Resolves once the server has acknowledged every local update of this provider. */
export function acknowledged(provider: HocuspocusProvider): Promise<void> {
  if (!provider.hasUnsyncedChanges) return Promise.resolve();
  return new Promise((resolve) => {
    const check = () => {
      if (!provider.hasUnsyncedChanges) {
        provider.off('unsyncedChanges', check);
        resolve();
      }
    };
    provider.on('unsyncedChanges', check);
  });
}

interface ReceivedMessage {
  message: { decoder: decoding.Decoder; readVarString(): string; readVarUint(): number };
}

/**
 * Resolves when the server next answers one of this provider's updates with "not applied" (a
 * read-only connection's write): the server has handled it. Call before making the change.
 */
export function refused(provider: HocuspocusProvider): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = ({ message }: ReceivedMessage) => {
      message.readVarString();
      // The server's answer to an update: applied or not.
      if (message.readVarUint() !== MESSAGE.syncStatus) return;
      if (decoding.readVarInt(message.decoder) === 1) return;
      provider.off('message', onMessage);
      resolve();
    };
    provider.on('message', onMessage);
  });
}
