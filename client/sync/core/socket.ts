import { HocuspocusProviderWebsocket, WebSocketStatus } from '@hocuspocus/provider';
import { observedWebSocket, reconnectDelay, SYNC_PATH, SYNC_SOCKET_RETRY } from '@pipit/protocol';

let socket: { accountId: string; websocket: HocuspocusProviderWebsocket } | undefined;

/**
 * One websocket per signed-in account carries every document this tab syncs (the open editor and
 * the background sync of other apps), multiplexed by the Hocuspocus protocol.
 */
export function syncSocket(accountId: string): HocuspocusProviderWebsocket {
  if (socket?.accountId === accountId) return socket.websocket;
  closeSyncSocket();
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${SYNC_PATH}`;
  const websocket: HocuspocusProviderWebsocket = new HocuspocusProviderWebsocket({
    url,
    // Each connection's messages are read for the server's acknowledgements: "Saved" (@pipit/protocol sync-acknowledgements.ts).
    WebSocketPolyfill: observedWebSocket(WebSocket),
    // Retry forever, backing off to 10 s, spread: offline is a normal state, not a failure.
    ...SYNC_SOCKET_RETRY,
    // Runs before the provider schedules its reconnect: every client of an instance that restarts
    // comes back at its own moment (250–1,000 ms later), not all after the same second.
    onClose: () => {
      websocket.configuration.delay = reconnectDelay();
    },
  });
  // Messages queued while the socket was down are stale once it opens again: every provider starts
  // over with a state-vector exchange that carries all its changes. Replaying them as well would
  // send one message per offline edit and can trip the server's pre-authentication queue limit
  // (docs/library-notes.md#hocuspocus-and-yjs).
  websocket.on('open', () => {
    (websocket as unknown as { messageQueue: unknown[] }).messageQueue = [];
  });
  // Coming back online is the moment to try at once, not after the back-off; going offline ends
  // the socket at once, rather than leaving a dead one that claims to be connected for minutes.
  window.addEventListener('online', reconnectNow);
  window.addEventListener('offline', disconnectNow);
  socket = { accountId, websocket };
  if (!navigator.onLine) websocket.disconnect();
  return websocket;
}

function reconnectNow() {
  const websocket = socket?.websocket;
  if (!websocket) return;
  if (websocket.status === WebSocketStatus.Connected) {
    // The close asked for when the network went away may not have landed yet (the provider still
    // says connected, and `connect` would do nothing): let the socket reconnect when it does.
    websocket.shouldConnect = true;
    return;
  }
  void websocket.connect();
}

function disconnectNow() {
  socket?.websocket.disconnect();
}

/** Signing out (or in as someone else): this account's documents stop syncing in this tab. */
export function closeSyncSocket(): void {
  if (!socket) return;
  window.removeEventListener('online', reconnectNow);
  window.removeEventListener('offline', disconnectNow);
  socket.websocket.destroy();
  socket = undefined;
}
