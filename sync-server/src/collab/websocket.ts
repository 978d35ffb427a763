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
  closeAll(): void;
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
      },
      message(peer, message) {
        connections.get(peer)?.handleMessage(message.uint8Array());
      },
      close(peer, event) {
        connections
          .get(peer)
          ?.handleClose({ code: event.code ?? 1000, reason: event.reason ?? '' });
        connections.delete(peer);
      },
      error(peer, error) {
        options.logger.warn({ err: error, peer: peer.id }, 'sync socket error');
      },
    },
  });

  return {
    handleUpgrade(req, socket, head) {
      const pathname = new URL(req.url ?? '/', 'http://x').pathname;
      if (pathname !== SYNC_PATH) return false;
      ws.handleUpgrade(req, socket, head).catch((error: unknown) => {
        options.logger.warn({ err: error }, 'sync upgrade failed');
        socket.destroy();
      });
      return true;
    },
    closeAll() {
      ws.closeAll(1001, 'Server shutting down', false);
    },
  };
}
