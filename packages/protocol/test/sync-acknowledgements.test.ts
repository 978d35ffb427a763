import * as encoding from 'lib0/encoding';
import { describe, expect, it } from 'vitest';
import {
  Acknowledgements,
  observedWebSocket,
  trackAcknowledgements,
} from '../src/sync-acknowledgements';

/*
 * "Saved" from what the server acknowledged on the wire: a fake socket plays the
 * messages the Hocuspocus provider writes and the sync statuses the server answers, in the orders
 * a reconnect produces them.
 */

const SYNC = 0;
const SYNC_STATUS = 8;
const STEP_1 = 0;
const STEP_2 = 1;
const UPDATE = 2;

function frame(address: string, write: (e: encoding.Encoder) => void): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarString(e, address);
  write(e);
  return encoding.toUint8Array(e);
}
const syncMessage = (address: string, step: number) =>
  frame(address, (e) => {
    encoding.writeVarUint(e, SYNC);
    encoding.writeVarUint(e, step);
    encoding.writeVarUint8Array(e, new Uint8Array([0, 0]));
  });
const status = (address: string, applied: boolean) =>
  frame(address, (e) => {
    encoding.writeVarUint(e, SYNC_STATUS);
    encoding.writeVarInt(e, applied ? 1 : 0);
  });

/** A socket that writes nothing anywhere and lets the test play the server's answers. */
class FakeSocket {
  readonly written: unknown[] = [];
  private readonly listeners: Array<(event: { data: unknown }) => void> = [];
  send(data: unknown) {
    this.written.push(data);
  }
  addEventListener(_type: 'message', listener: (event: { data: unknown }) => void) {
    this.listeners.push(listener);
  }
  /** The server's message arriving (as the provider's ArrayBuffer). */
  receive(bytes: Uint8Array) {
    const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    for (const listener of this.listeners) listener({ data });
  }
}
const Socket = observedWebSocket(FakeSocket as unknown as new () => FakeSocket);

function document(address = `app/x\u0000${Math.random()}`) {
  let changes = 0;
  const acks = new Acknowledgements(() => (changes += 1));
  const untrack = trackAcknowledgements(address, acks);
  return { address, acks, untrack, changes: () => changes };
}

describe('"Saved" from the server\'s acknowledgements', () => {
  it('is not saved when the sync step is acknowledged while later edits wait in a batch', () => {
    // The sequence: edits while the socket was down; it opens; the step 2 carries them;
    // more edits join the batch waiting to be flushed; the server acknowledges the step 2.
    const { address, acks, untrack } = document();
    acks.changed();
    acks.changed();
    const socket = new Socket();
    socket.send(syncMessage(address, STEP_1));
    socket.send(syncMessage(address, STEP_2));
    acks.changed();
    socket.receive(status(address, true));
    expect(acks.isSaved()).toBe(false);
    // The batch goes out and is acknowledged: now everything is stored.
    socket.send(syncMessage(address, UPDATE));
    expect(acks.isSaved()).toBe(false);
    socket.receive(status(address, true));
    expect(acks.isSaved()).toBe(true);
    acks.changed();
    expect(acks.isSaved()).toBe(false);
    untrack();
  });

  it("counts nothing sent before the connection's sync step 2 as carrying every edit", () => {
    const { address, acks, untrack } = document();
    acks.changed();
    const socket = new Socket();
    // A batch flushed as the socket opened, before the server's step 1 came: acknowledged first.
    socket.send(syncMessage(address, UPDATE));
    socket.receive(status(address, true));
    expect(acks.isSaved()).toBe(false);
    socket.send(syncMessage(address, STEP_2));
    socket.receive(status(address, true));
    expect(acks.isSaved()).toBe(true);
    untrack();
  });

  it('takes nothing from a connection that closed, another document, or a refusal', () => {
    const { address, acks, untrack, changes } = document();
    const other = document();
    acks.changed();
    const first = new Socket();
    first.send(syncMessage(address, STEP_2));
    // The socket closed before the answer; a new connection's answers pair with its own messages.
    const second = new Socket();
    second.receive(status(address, true));
    expect(acks.isSaved()).toBe(false);
    // Another document's step 2 acknowledged says nothing of this one.
    second.send(syncMessage(other.address, STEP_2));
    second.receive(status(other.address, true));
    expect(acks.isSaved()).toBe(false);
    expect(other.acks.isSaved()).toBe(true);
    // A read-only connection's "not applied": nothing after it on that connection counts either.
    second.send(syncMessage(address, STEP_2));
    second.send(syncMessage(address, UPDATE));
    second.receive(status(address, false));
    second.receive(status(address, true));
    expect(acks.isSaved()).toBe(false);
    // Only a change of "saved" is told.
    const told = changes();
    const third = new Socket();
    third.send(syncMessage(address, STEP_2));
    third.receive(status(address, true));
    expect(acks.isSaved()).toBe(true);
    expect(changes()).toBe(told + 1);
    untrack();
    other.untrack();
  });

  it('is never saved before a first acknowledgement, even with no change made here', () => {
    const { address, acks, untrack } = document();
    expect(acks.isSaved()).toBe(false);
    const socket = new Socket();
    socket.send(syncMessage(address, STEP_2));
    socket.receive(status(address, true));
    expect(acks.isSaved()).toBe(true);
    untrack();
  });
});
