import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Hocuspocus, WebSocketLike } from '@hocuspocus/server';
import type { Hooks } from 'crossws';
import crossws from 'crossws/adapters/node';
import { SYNC_CLOSE_REASONS, SYNC_PATH } from '@pipit/protocol';
import type { Logger } from '../logger';
import type { CollabTimings } from '../metrics';
import { isAllowedOrigin } from '../origin';
import type { DocumentAccess } from './access';
import type { SocketContext } from './authenticate';
import type { ResourceBounds } from './resource-bounds';
import { checkFraming } from './sync-message';

/** A websocket message bigger than this closes the connection (ws's default is 100 MiB). */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

interface ClientConnection {
  handleMessage(data: Uint8Array): void;
  handleClose(event?: { code: number; reason: string }): void;
}

/** What the socket layer keeps per open socket. */
interface OpenSocket {
  connection: ClientConnection;
  socketKey: string;
  /** Set while the socket is not read from, until what it sent is handled. */
  drain?: ReturnType<typeof setInterval>;
  /** Set once a message was refused: the socket is closing, nothing more of it is read. */
  refused?: boolean;
}

/**
 * The raw socket under a crossws peer (`ws`): it can stop reading (TCP backpressure), says how
 * much it holds that the other side has not taken, and can be ended at once.
 */
interface RawSocket {
  pause(): void;
  resume(): void;
  readonly bufferedAmount: number;
  send(data: unknown, ...rest: unknown[]): void;
  terminate(): void;
}

/** How often a paused socket looks whether what it sent has been handled. */
const DRAIN_CHECK_MS = 20;

/**
 * Bytes a socket has sent that Hocuspocus holds and has not handled yet: the messages waiting for
 * their document's authentication, and each document connection's queue (it handles one message
 * at a time, and a message may wait for the durable log). Hocuspocus keeps these private; this
 * reads them, and `collab-resource-bounds.test.ts` fails if they move.
 */
export function queuedBytes(connection: ClientConnection): number {
  const internals = connection as unknown as {
    getQueuedBytes(): number;
    documentConnections: Record<string, { messageQueue: Uint8Array[] }>;
  };
  let total = internals.getQueuedBytes();
  for (const { messageQueue } of Object.values(internals.documentConnections)) {
    for (const message of messageQueue) total += message.byteLength;
  }
  return total;
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

/** The sync socket's settings (createSyncSocket). */
interface SyncSocketOptions {
  publicOrigin: string | undefined;
  logger: Logger;
  access: Pick<DocumentAccess, 'identify'>;
  bounds: ResourceBounds;
  /** Counts each refusal by reason (pipit_sync_protocol_errors_total). */
  timings?: Pick<CollabTimings, 'protocolError'> | undefined;
}

/** What the sync socket keeps about the sockets open now. */
interface OpenSockets {
  sockets: WeakMap<object, OpenSocket>;
  /** Each open socket's raw socket, by key: what a person's sockets hold unsent, in all. */
  raws: Map<string, RawSocket>;
  open: number;
}

/**
 * Mounts Hocuspocus on our own HTTP server through crossws, as Hocuspocus's own `Server` does, with
 * these additions: the browser's `Origin` must be this site (a cross-site page's handshake carries
 * its own); only a signed-in person opens a socket (every document needs one), and only as many
 * as the resource bounds allow them; a message size cap; and a socket whose messages pile up
 * unhandled is not read from until they are handled (TCP backpressure: memory stays bounded).
 */
export function createSyncSocket(hocuspocus: Hocuspocus, options: SyncSocketOptions): SyncSocket {
  const { logger } = options;
  const state: OpenSockets = { sockets: new WeakMap(), raws: new Map(), open: 0 };
  const ws = crossws({
    serverOptions: { maxPayload: MAX_MESSAGE_BYTES },
    hooks: socketHooks(hocuspocus, options, state),
  });

  let accepting = true;
  /** Sockets whose upgrade is being admitted (their session read): not Hocuspocus's yet. */
  const upgrading = new Set<Duplex>();
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
      upgrading.add(socket);
      ws.handleUpgrade(req, socket, head)
        .catch((error: unknown) => {
          logger.warn({ err: error }, 'sync upgrade failed');
          socket.destroy();
        })
        .finally(() => upgrading.delete(socket));
      return true;
    },
    stopAccepting() {
      accepting = false;
    },
    closeAll({ force }) {
      // An upgrade still being admitted is ended too (its client tries again elsewhere): nothing
      // else would close it, since neither the HTTP server nor Hocuspocus holds it.
      for (const socket of upgrading) socket.destroy();
      upgrading.clear();
      ws.closeAll(1001, 'Server shutting down', force);
    },
    openConnections: () => state.open,
  };
}

/** The socket's life: admitted (upgrade), handed to Hocuspocus, read from, closed. */
function socketHooks(
  hocuspocus: Hocuspocus,
  options: SyncSocketOptions,
  state: OpenSockets,
): Partial<Hooks> {
  const { bounds, logger, timings } = options;
  const { sockets, raws } = state;
  return {
    upgrade: (request) => admitSocket(request, options),
    open(peer) {
      const userId = (peer.context as { socketUserId?: string }).socketUserId ?? '';
      const socketKey = randomUUID();
      // Two upgrades of one person at once both passed the check above: the later one goes.
      if (!bounds.openSocket(socketKey, userId)) {
        peer.close(1013, 'too-many-sockets');
        return;
      }
      const context: SocketContext = { socketKey, socketUserId: userId };
      const raw = peer.websocket as unknown as RawSocket;
      raws.set(socketKey, raw);
      boundOutgoing(options, raws, raw, socketKey, userId);
      const connection = hocuspocus.handleConnection(
        peer.websocket as unknown as WebSocketLike,
        peer.request as Request,
        context,
      );
      sockets.set(peer, { connection, socketKey });
      state.open += 1;
    },
    message(peer, message) {
      const socket = sockets.get(peer);
      if (!socket || socket.refused) return;
      const data = message.uint8Array();
      try {
        checkFraming(data);
      } catch {
        // No document to close: Hocuspocus would print a stack and close the socket with a
        // reason of its own. One short line (none once the person is slowed down), counted,
        // and the socket closed with one of ours, like update-guard.ts's refusals.
        socket.refused = true;
        const reason = bounds.isSlowedDown(socket.socketKey) ? 'slow_down' : 'update_rejected';
        timings?.protocolError(reason);
        if (reason === 'update_rejected') {
          bounds.noteRefusal(socket.socketKey);
          const userId = (peer.context as { socketUserId?: string }).socketUserId;
          logger.warn({ userId, reason, why: 'malformed framing' }, 'refused a sync message');
        }
        peer.close(SYNC_CLOSE_REASONS[reason], reason);
        return;
      }
      socket.connection.handleMessage(data);
      applyBackpressure(bounds, peer, socket);
    },
    close(peer, event) {
      const socket = sockets.get(peer);
      if (!socket) return;
      socket.connection.handleClose({ code: event.code ?? 1000, reason: event.reason ?? '' });
      clearInterval(socket.drain);
      raws.delete(socket.socketKey);
      bounds.closeSocket(socket.socketKey);
      sockets.delete(peer);
      state.open -= 1;
    },
    error(peer, error) {
      logger.warn({ err: error, peer: peer.id }, 'sync socket error');
    },
  };
}

/**
 * Whether a socket may open: from this site, for a signed-in person whose session storage could
 * read, within the sockets they may hold. Answered with a status otherwise.
 */
async function admitSocket(
  request: Parameters<NonNullable<Hooks['upgrade']>>[0],
  options: SyncSocketOptions,
) {
  const { bounds, logger } = options;
  const origin = request.headers.get('origin');
  if (!isAllowedOrigin(origin, request.headers.get('host'), options.publicOrigin)) {
    logger.warn({ origin }, 'refused a sync connection from a foreign origin');
    return new Response('Forbidden: this connection did not come from Pipit itself.', {
      status: 403,
    });
  }
  // As many sockets and documents being opened as the server takes at once: this one tries
  // again a moment later (the provider's retries are spread), before any read.
  const endOpening = bounds.startOpening('socket');
  if (!endOpening) {
    return new Response('The server is busy right now. Try again in a few seconds.', {
      status: 503,
      headers: { 'Retry-After': '2' },
    });
  }
  let person: Awaited<ReturnType<DocumentAccess['identify']>>;
  try {
    person = await options.access.identify(request as unknown as Request);
  } catch (error) {
    // Sessions live in storage: during an outage the provider waits and tries again.
    logger.warn({ err: error }, 'checking a sync connection’s session failed');
    return new Response('The server cannot reach its storage right now. Try again soon.', {
      status: 503,
    });
  } finally {
    endOpening();
  }
  if (!person) {
    return new Response('Sign in to sync.', { status: 401 });
  }
  if (bounds.socketsOf(person.userId) >= bounds.limits.personSockets) {
    logger.warn({ userId: person.userId }, 'refused a sync socket: too many open');
    return new Response('Too many open connections: close a few tabs, then try again.', {
      status: 429,
    });
  }
  return { context: { socketUserId: person.userId } };
}

/**
 * Hocuspocus writes whatever it answers (a whole document for each sync step 1) and broadcasts,
 * whether or not the client reads: a client that stops reading would have the server hold it
 * all. Past the socket's or the person's bound, the socket is closed instead (memory outside the
 * heap, which the heap budget does not see).
 */
function boundOutgoing(
  { bounds, logger }: SyncSocketOptions,
  raws: Map<string, RawSocket>,
  raw: RawSocket,
  socketKey: string,
  userId: string,
) {
  const send = raw.send.bind(raw);
  raw.send = (data, ...rest) => {
    const personUnsent = bounds
      .socketsBeside(socketKey)
      .reduce((sum, key) => sum + (raws.get(key)?.bufferedAmount ?? 0), 0);
    if (
      raw.bufferedAmount > bounds.limits.socketUnsentBytes ||
      personUnsent > bounds.limits.personUnsentBytes
    ) {
      logger.warn(
        { userId, unsent: raw.bufferedAmount, personUnsent },
        'closed a sync socket that does not take what is sent to it',
      );
      raw.terminate();
      return;
    }
    send(data, ...rest);
  };
}

/** Stops reading a socket whose unhandled messages pass the bound, until they are handled. */
function applyBackpressure(
  bounds: ResourceBounds,
  peer: { websocket: unknown },
  socket: OpenSocket,
) {
  if (socket.drain || queuedBytes(socket.connection) <= bounds.limits.socketQueuedBytes) return;
  const raw = peer.websocket as RawSocket;
  raw.pause();
  socket.drain = setInterval(() => {
    if (queuedBytes(socket.connection) > bounds.limits.socketQueuedBytes / 2) return;
    clearInterval(socket.drain);
    socket.drain = undefined;
    raw.resume();
  }, DRAIN_CHECK_MS);
}
