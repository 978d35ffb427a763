import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import WebSocket from 'ws';
import { SYNC_PATH } from '@pipit/protocol';

/** Hocuspocus message types (its MessageType enum) and the sub-types these tests use. */
export const MESSAGE = { sync: 0, awareness: 1, auth: 2, close: 7, syncStatus: 8 } as const;
const AUTH_TOKEN = 0;
const AUTH_PERMISSION_DENIED = 1;
const AUTH_AUTHENTICATED = 2;
const SYNC_UPDATE = 2;

/** A Hocuspocus message: the document's name, then `body`. */
export function frame(documentName: string, body: (encoder: encoding.Encoder) => void) {
  const encoder = encoding.createEncoder();
  encoding.writeVarString(encoder, documentName);
  body(encoder);
  return encoding.toUint8Array(encoder);
}

export function authMessage(documentName: string, token = 'token'): Uint8Array {
  return frame(documentName, (e) => {
    encoding.writeVarUint(e, MESSAGE.auth);
    encoding.writeVarUint(e, AUTH_TOKEN);
    encoding.writeVarString(e, token);
  });
}

/** A y-protocols update message, as a provider sends one for each local transaction. */
export function updateMessage(documentName: string, update: Uint8Array): Uint8Array {
  return frame(documentName, (e) => {
    encoding.writeVarUint(e, MESSAGE.sync);
    encoding.writeVarUint(e, SYNC_UPDATE);
    encoding.writeVarUint8Array(e, update);
  });
}

/** What the server answered; `document` names the document a message was about. */
export type ServerEvent =
  | { type: 'authenticated'; document?: string }
  | { type: 'permission-denied'; reason: string; document?: string }
  | { type: 'sync-status'; applied: boolean; document?: string }
  | { type: 'close-message'; reason: string; document?: string }
  | { type: 'socket-closed'; code: number; reason: string };

/** A y-protocols awareness message carrying `states` (client id → state) at `clock`. */
export function awarenessMessage(
  documentName: string,
  states: Array<[clientId: number, state: unknown]>,
  clock = 1,
): Uint8Array {
  const inner = encoding.createEncoder();
  encoding.writeVarUint(inner, states.length);
  for (const [clientId, state] of states) {
    encoding.writeVarUint(inner, clientId);
    encoding.writeVarUint(inner, clock);
    encoding.writeVarString(inner, JSON.stringify(state));
  }
  return frame(documentName, (e) => {
    encoding.writeVarUint(e, MESSAGE.awareness);
    encoding.writeVarUint8Array(e, encoding.toUint8Array(inner));
  });
}

/**
 * A hand-made sync client on a raw websocket, for sending what no provider would: it speaks just
 * enough of the Hocuspocus protocol to authenticate documents and send raw messages, and records
 * what the server answers (acknowledgements, a document's close message, the socket's close).
 * `open` authenticates one document; `authenticate` adds more on the same socket.
 */
export class RawSyncClient {
  readonly events: ServerEvent[] = [];
  private readonly socket: WebSocket;
  private readonly waiters = new Set<() => void>();

  private constructor(
    url: string,
    readonly documentName: string,
    cookie?: string | null,
  ) {
    this.socket = new WebSocket(`${url.replace(/^http/, 'ws')}${SYNC_PATH}`, {
      headers: { Origin: url, ...(cookie ? { Cookie: cookie } : {}) },
    });
    this.socket.binaryType = 'nodebuffer';
    this.socket.on('message', (data: Buffer) => this.record(this.parse(new Uint8Array(data))));
    this.socket.on('close', (code, reason) =>
      this.record({ type: 'socket-closed', code, reason: reason.toString() }),
    );
  }

  /** Opens the socket and authenticates `documentName`; throws if the server refuses it. */
  static async open(
    url: string,
    documentName: string,
    options: { cookie?: string | null } = {},
  ): Promise<RawSyncClient> {
    const client = new RawSyncClient(url, documentName, options.cookie);
    await new Promise<void>((resolve, reject) => {
      client.socket.once('open', () => resolve());
      client.socket.once('error', reject);
    });
    const answer = await client.authenticate(documentName);
    if (answer.type !== 'authenticated') {
      throw new Error(`not authenticated: ${JSON.stringify(answer)}`);
    }
    return client;
  }

  /** Authenticates one more document on this socket; resolves with the server's answer. */
  async authenticate(
    documentName: string,
  ): Promise<Extract<ServerEvent, { type: 'authenticated' | 'permission-denied' }>> {
    const since = this.events.length;
    this.send(authMessage(documentName));
    return this.next(
      (e): e is Extract<ServerEvent, { type: 'authenticated' | 'permission-denied' }> =>
        (e.type === 'authenticated' || e.type === 'permission-denied') &&
        e.document === documentName,
      10_000,
      since,
    );
  }

  /**
   * Sends `message` about `documentName`; resolves with the server's next answer about it (an
   * acknowledgement, or its close message), or the socket's close.
   */
  sendAndAnswer(documentName: string, message: Uint8Array): Promise<ServerEvent> {
    const since = this.events.length;
    this.send(message);
    return this.next(
      (e) =>
        e.type === 'socket-closed' ||
        (e.type !== 'authenticated' && 'document' in e && e.document === documentName),
      30_000,
      since,
    );
  }

  get isOpen(): boolean {
    return this.socket.readyState === WebSocket.OPEN;
  }

  send(message: Uint8Array): void {
    this.socket.send(message);
  }

  /**
   * Resolves with the first recorded event matching `match` (one already recorded counts, from
   * index `since` on).
   */
  next<T extends ServerEvent>(
    match: (event: ServerEvent) => event is T,
    timeoutMs?: number,
    since?: number,
  ): Promise<T>;
  next(
    match: (event: ServerEvent) => boolean,
    timeoutMs?: number,
    since?: number,
  ): Promise<ServerEvent>;
  next(
    match: (event: ServerEvent) => boolean,
    timeoutMs = 10_000,
    since = 0,
  ): Promise<ServerEvent> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no matching event; got ${JSON.stringify(this.events)}`));
      }, timeoutMs);
      const check = () => {
        const found = this.events.slice(since).find(match);
        if (!found) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(found);
      };
      this.waiters.add(check);
      check();
    });
  }

  /**
   * The server's first answer after authentication: an acknowledgement (sync status), or how it
   * ended this document's connection (its close message, or the socket's close).
   */
  answer(): Promise<ServerEvent> {
    return this.next((e) => e.type !== 'authenticated');
  }

  close(): void {
    this.socket.close();
  }

  private record(event: ServerEvent | null) {
    if (!event) return;
    this.events.push(event);
    for (const waiter of [...this.waiters]) waiter();
  }

  private parse(data: Uint8Array): ServerEvent | null {
    const decoder = decoding.createDecoder(data);
    const document = decoding.readVarString(decoder);
    const type = decoding.readVarUint(decoder);
    if (type === MESSAGE.auth) {
      const authType = decoding.readVarUint(decoder);
      if (authType === AUTH_AUTHENTICATED) return { type: 'authenticated', document };
      if (authType === AUTH_PERMISSION_DENIED)
        return { type: 'permission-denied', reason: decoding.readVarString(decoder), document };
      return null;
    }
    if (type === MESSAGE.syncStatus)
      return { type: 'sync-status', applied: decoding.readVarUint(decoder) === 1, document };
    if (type === MESSAGE.close)
      return { type: 'close-message', reason: decoding.readVarString(decoder), document };
    return null;
  }
}
