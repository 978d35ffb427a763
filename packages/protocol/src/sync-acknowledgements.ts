import * as decoding from 'lib0/decoding';

/*
 * "Saved" means the server has stored it (docs/decisions/0001-durable-log-before-ack.md), read from
 * what the server acknowledged on the wire — never from the provider's count of unsynced changes.
 * That count is reset to 1 whenever the socket opens (its sync start), wiping a batch of edits
 * already waiting (batches are counted at their first edit), so an acknowledgement of the sync step
 * showed "Saved" while later edits were still unsent (in a rolling restart, 14 times;
 * a device that dropped off its network at that moment lost 3 of 637 "Saved" edits).
 *
 * Every websocket the sync socket opens is observed (`ObservedWebSocket`). The server answers each
 * update and each sync step 2 of a document, on the connection it came on and in order, with a
 * sync status once it is in the durable log. So per connection and document address, the messages
 * it will answer are kept in order, each stamped with how many local changes the document had made
 * when the message went on the wire. A message written once the connection's sync step 2 has gone
 * carries, with the ones before it on that connection, every local change made until then (the
 * step 2 holds everything the server lacked; every later change goes in an update flushed after
 * it). Its acknowledgement, every one before it on that connection applied, means those changes
 * are stored. A connection that closes takes its unanswered messages with it; nothing else counts.
 */

/** Hocuspocus's message types and y-protocols' sync steps, as on the wire. */
const SYNC = 0;
const SYNC_STATUS = 8;
const SYNC_STEP_2 = 1;
const SYNC_UPDATE = 2;

/** What one document's sync knows of the server's acknowledgements. */
export class Acknowledgements {
  /** Local changes made so far (each transaction that inserted or deleted anything). */
  private made = 0;
  /** Every local change up to this count is stored on the server. */
  private stored = -1;

  constructor(private readonly onChange: () => void) {}

  /** A local change: unsaved until a message carrying it is acknowledged. */
  changed(): void {
    this.made += 1;
    this.onChange();
  }

  /** Everything made here is stored on the server (nothing unsaved, nothing unsent). */
  isSaved(): boolean {
    return this.stored >= this.made;
  }

  /** @internal How many local changes had been made (stamped on a message going out). */
  madeSoFar(): number {
    return this.made;
  }

  /** @internal Every change up to `made` is stored. */
  storedUpTo(made: number): void {
    if (made <= this.stored) return;
    const wasSaved = this.isSaved();
    this.stored = made;
    if (this.isSaved() !== wasSaved) this.onChange();
  }
}

/** The documents being synced, by the address their messages carry (the provider's routing key). */
const byAddress = new Map<string, Acknowledgements>();

/** Starts reading the server's acknowledgements of the document sent under `address`. */
export function trackAcknowledgements(address: string, acks: Acknowledgements): () => void {
  byAddress.set(address, acks);
  return () => {
    if (byAddress.get(address) === acks) byAddress.delete(address);
  };
}

/** One connection's messages of one document that the server will answer, oldest first. */
interface Awaiting {
  /** Local changes made when each went out; null before the connection's sync step 2. */
  stamps: Array<number | null>;
  stepTwoSent: boolean;
  /** Every answer so far said "applied" (a read-only connection's say "not applied"). */
  allApplied: boolean;
}

/** A sync message's address, type and (for sync) step; null for anything unreadable. */
function readHeader(bytes: Uint8Array): { address: string; type: number; step: number } | null {
  try {
    const decoder = decoding.createDecoder(bytes);
    const address = decoding.readVarString(decoder);
    const type = decoding.readVarUint(decoder);
    if (type === SYNC) return { address, type, step: decoding.readVarUint(decoder) };
    if (type === SYNC_STATUS) {
      return { address, type, step: decoding.readVarInt(decoder) === 1 ? 1 : 0 };
    }
    return { address, type, step: -1 };
  } catch {
    return null;
  }
}

const asBytes = (data: unknown): Uint8Array | null =>
  data instanceof Uint8Array
    ? data
    : data instanceof ArrayBuffer
      ? new Uint8Array(data)
      : ArrayBuffer.isView(data)
        ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
        : null;

/** What one websocket (one connection) has sent that the server will answer, per document. */
class Connection {
  private readonly awaiting = new Map<string, Awaiting>();

  private of(address: string): Awaiting {
    let awaiting = this.awaiting.get(address);
    if (!awaiting) {
      awaiting = { stamps: [], stepTwoSent: false, allApplied: true };
      this.awaiting.set(address, awaiting);
    }
    return awaiting;
  }

  sent(data: unknown): void {
    const bytes = asBytes(data);
    const header = bytes && readHeader(bytes);
    if (!header || header.type !== SYNC) return;
    if (header.step !== SYNC_STEP_2 && header.step !== SYNC_UPDATE) return;
    const acks = byAddress.get(header.address);
    const awaiting = this.of(header.address);
    if (header.step === SYNC_STEP_2) awaiting.stepTwoSent = true;
    awaiting.stamps.push(awaiting.stepTwoSent && acks ? acks.madeSoFar() : null);
  }

  received(data: unknown): void {
    const bytes = asBytes(data);
    const header = bytes && readHeader(bytes);
    if (!header || header.type !== SYNC_STATUS) return;
    const awaiting = this.awaiting.get(header.address);
    if (!awaiting || awaiting.stamps.length === 0) return;
    const stamp = awaiting.stamps.shift()!;
    if (header.step !== 1) awaiting.allApplied = false;
    if (stamp !== null && awaiting.allApplied) byAddress.get(header.address)?.storedUpTo(stamp);
  }
}

/** What this needs of a WebSocket class: the browser's, or `ws`'s in Node. */
interface WebSocketLike {
  send(data: never): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}
// A mixin's base must take `any[]` (TS2545): the constructor's arguments pass through untouched.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type WebSocketClass = abstract new (...args: any[]) => WebSocketLike;

/**
 * A WebSocket class whose messages are observed in both directions, for the sync socket's
 * `WebSocketPolyfill` (the browser's WebSocket in the app; `ws` in tests). Each instance is one
 * connection; what it sent dies with it.
 */
export function observedWebSocket<T extends WebSocketClass>(Base: T): T {
  abstract class ObservedWebSocket extends Base {
    private readonly connection = new Connection();

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    constructor(...args: any[]) {
      super(...args);
      this.addEventListener('message', (event) => this.connection.received(event.data));
    }

    override send(data: never): void {
      // Only what goes on the wire: a socket not open throws, and sent nothing.
      super.send(data);
      this.connection.sent(data);
    }
  }
  return ObservedWebSocket;
}
