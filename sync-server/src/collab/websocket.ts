import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Hocuspocus, WebSocketLike } from '@hocuspocus/server';
import crossws from 'crossws/adapters/node';
import type { Logger } from '../logger';
import { isAllowedOrigin } from '../http/origin';

/** The websocket endpoint for Yjs sync (Hocuspocus protocol), on the same origin as the app. */
export const SYNC_PATH = '/api/sync';
/** A websocket message bigger than this closes the connection (ws's default is 100 MiB). */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

interface ClientConnection {
  handleMessage(data: Uint8Array): void;
  handleClose(event?: { code: number; reason: string }): void;
}

export interface SyncSocket {
  /** Handles an upgrade for the sync path; returns false for any other path. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** From now on, upgrades are answered 503 (the server is shutting down). */
  stopAccepting(): void;
  /** Closes every open sync socket: politely, or at once (`force`). */
  closeAll(options: { force: boolean }): void;
  /** Sync sockets open now (the `pipit_websocket_connections` gauge). */
  openConnections(): number;
}

/** Ends a socket that asked to upgrade with a plain HTTP answer. */
function refuseUpgrade(socket: Duplex, status: 400 | 503, text: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  );
}

/** The path of a request, or null when its target is not a parseable URL path. */
function pathOf(req: IncomingMessage): string | null {
  try {
    return new URL(req.url ?? '/', 'http://x').pathname;
  } catch {
    return null;
  }
}

/**
 * Mounts Hocuspocus on our own HTTP server through crossws, as Hocuspocus's own `Server` does, with
 * two additions: the browser's `Origin` must be this site (a cross-site page's handshake carries its
 * own), and a message size cap.
 */
export function createSyncSocket(
  hocuspocus: Hocuspocus,
  options: { publicOrigin: string | undefined; logger: Logger },
): SyncSocket {
  const connections = new WeakMap<object, ClientConnection>();
  let open = 0;
  const ws = crossws({
    serverOptions: { maxPayload: MAX_MESSAGE_BYTES },
    hooks: {
      upgrade(request) {
        const origin = request.headers.get('origin');
        if (!isAllowedOrigin(origin, request.headers.get('host'), options.publicOrigin)) {
          options.logger.warn({ origin }, 'refused a sync connection from a foreign origin');
          throw new Response('Forbidden: this connection did not come from Pipit itself.', {
            status: 403,
          });
        }
      },
      open(peer) {
        const connection = hocuspocus.handleConnection(
          peer.websocket as unknown as WebSocketLike,
          peer.request as Request,
        );
        connections.set(peer, connection);
        open += 1;
      },
      message(peer, message) {
        connections.get(peer)?.handleMessage(message.uint8Array());
      },
      close(peer, event) {
        connections
          .get(peer)
          ?.handleClose({ code: event.code ?? 1000, reason: event.reason ?? '' });
        if (connections.delete(peer)) open -= 1;
      },
      error(peer, error) {
        options.logger.warn({ err: error, peer: peer.id }, 'sync socket error');
      },
    },
  });

  let accepting = true;
  return {
    handleUpgrade(req, socket, head) {
      const pathname = pathOf(req);
      if (pathname === null) {
        refuseUpgrade(socket, 400, 'Bad Request');
        return true;
      }
      if (pathname !== SYNC_PATH) return false;
      if (!accepting) {
        refuseUpgrade(socket, 503, 'Service Unavailable');
        return true;
      }
      ws.handleUpgrade(req, socket, head).catch((error: unknown) => {
        options.logger.warn({ err: error }, 'sync upgrade failed');
        socket.destroy();
      });
      return true;
    },
    stopAccepting() {
      accepting = false;
    },
    closeAll({ force }) {
      ws.closeAll(1001, 'Server shutting down', force);
    },
    openConnections: () => open,
  };
}
