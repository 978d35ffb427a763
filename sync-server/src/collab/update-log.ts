import {
  type afterUnloadDocumentPayload,
  type beforeHandleMessagePayload,
  type Connection,
  type Extension,
  isTransactionOrigin,
  type onChangePayload,
} from '@hocuspocus/server';
import { SYNC_CLOSE_REASONS } from '@pipit/protocol';
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';
import { createDigest } from '../digest';
import type { Logger } from '../logger';
import { type CollabTimings, NO_COLLAB_TIMINGS } from '../metrics';
import type { DocumentStore } from '../storage/types';
import type { DocumentLedger } from './document-ledger';
import { SyncRefusal } from './refusal';
import { syncPayloadOf } from './sync-message';
import { sleep } from '../sleep';

/**
 * How long an update waits for the log while storage is unreachable before its connection is told
 * so (the provider then reconnects and sends it again). Meanwhile the sender's acknowledgement
 * waits: an update is never acknowledged before it is in the log.
 */
export const LOG_RETRY_DEADLINE_MS = 30_000;
/** How long the first update of a write waits for others to join it. */
export const LOG_BATCH_WINDOW_MS = 4;
export const LOG_RETRY_INITIAL_DELAY_MS = 50;
export const LOG_RETRY_MAX_DELAY_MS = 1_000;
/**
 * Other instances' edits a document holds in memory and this instance has not logged itself are
 * written to the log once they reach this many bytes, even if no acknowledgement waits for them.
 */
export const PEER_CHANGES_FLUSH_BYTES = 64 * 1024;
/** …and all of them, on every document, once they reach this many bytes together. */
export const PEER_CHANGES_BUDGET_BYTES = 8 * 1024 * 1024;

interface Waiting {
  name: string;
  update: Uint8Array;
  deadline: number;
  resolve: (seq: number) => void;
  reject: (error: unknown) => void;
}

/**
 * Appends updates to the durable log with group commit: updates that arrive while a write is in
 * flight go together in the next one, so many clients' edits cost one transaction (one fsync), not
 * one each (docs/decisions/0002-group-commit.md). A failed write is tried again with backoff —
 * with the updates that arrived meanwhile — until each update's deadline: a storage outage pauses
 * acknowledgements rather than losing or refusing edits.
 */
export class UpdateLog {
  private queue: Waiting[] = [];
  private writing = false;
  /** Bytes of the updates waiting to be written (or being written). */
  private waiting = 0;

  constructor(
    private readonly store: Pick<DocumentStore, 'append'>,
    private readonly options: {
      timings?: CollabTimings;
      logger?: Logger;
      retryDeadlineMs?: number;
      batchWindowMs?: number;
    } = {},
  ) {}

  /** Resolves with the update's sequence number once it is durable in storage. */
  append(name: string, update: Uint8Array): Promise<number> {
    const deadline = Date.now() + (this.options.retryDeadlineMs ?? LOG_RETRY_DEADLINE_MS);
    this.waiting += update.byteLength;
    const settled = () => (this.waiting -= update.byteLength);
    return new Promise<number>((resolve, reject) => {
      this.queue.push({
        name,
        update,
        deadline,
        resolve: (seq) => {
          settled();
          resolve(seq);
        },
        reject: (error) => {
          settled();
          reject(error);
        },
      });
      if (this.writing) return;
      this.writing = true;
      // A write waits a few milliseconds for others to join it: nothing waits for the log but the
      // sender's acknowledgement (the edit reaches the others at once), and far fewer transactions
      // leave the database's share of the CPU to the rest (docs/decisions/0002-group-commit.md).
      setTimeout(() => void this.drain(), this.options.batchWindowMs ?? LOG_BATCH_WINDOW_MS);
    });
  }

  /** Bytes of updates not in the log yet. */
  waitingBytes(): number {
    return this.waiting;
  }

  private async drain() {
    const timings = this.options.timings ?? NO_COLLAB_TIMINGS;
    let batch: Waiting[] = [];
    let failures = 0;
    while (this.queue.length > 0 || batch.length > 0) {
      batch = [...batch, ...this.queue];
      this.queue = [];
      const timed = timings.updateLogAppend();
      try {
        const seqs = await this.store.append(batch.map(({ name, update }) => ({ name, update })));
        batch.forEach((waiting, i) => waiting.resolve(seqs[i] ?? Number.NaN));
        batch = [];
        failures = 0;
      } catch (error) {
        failures += 1;
        const now = Date.now();
        const expired = batch.filter((waiting) => waiting.deadline <= now);
        batch = batch.filter((waiting) => waiting.deadline > now);
        expired.forEach((waiting) => waiting.reject(error));
        if (failures === 1 || expired.length > 0) {
          this.options.logger?.warn(
            { err: error, waiting: batch.length, refused: expired.length },
            'appending to the update log failed; retrying',
          );
        }
        if (batch.length > 0) {
          await sleep(
            Math.min(LOG_RETRY_MAX_DELAY_MS, LOG_RETRY_INITIAL_DELAY_MS * 2 ** (failures - 1)),
          );
        }
      } finally {
        timed();
      }
    }
    this.writing = false;
  }
}

/** Hocuspocus's message type of an acknowledgement (its MessageType enum: SyncStatus). */
const SYNC_STATUS = 8;

/** Whether a message a connection sends is an acknowledgement (`[name][8][applied]`). */
function isAcknowledgement(message: Uint8Array): boolean {
  try {
    const decoder = decoding.createDecoder(message);
    decoding.readVarString(decoder);
    return decoding.readVarUint(decoder) === SYNC_STATUS;
  } catch {
    return false;
  }
}

/** Per document connection: the log writes its acknowledgements wait for. */
interface HeldAcknowledgements {
  /** Resolves once every update this connection sent so far is in the log; rejects if one never got there. */
  durable: Promise<void>;
  outstanding: number;
  /** A write failed for good: the connection is being closed. */
  failed: boolean;
}

/**
 * Per document: edits that came from other instances (through Redis) and are in this instance's
 * copy, but that this instance has not logged itself. Their own instance logs them too, unless it
 * died (or lost its database) first: a client that then reconnects here is told its edit is
 * saved — this copy has it, so the client has nothing left to send — and a client here may build on
 * it. So before this instance acknowledges anything on the document, it logs them as well
 * (writing an update twice is harmless: Yjs applies it once).
 */
interface PeerChanges {
  pending: Uint8Array[];
  bytes: number;
  /** Writes of earlier ones under way. */
  writing: number;
  /** Settles once the writes under way are done; rejects if one of them failed for good. */
  durable: Promise<void>;
  /** A write failed for good; its changes are pending again. */
  failed: boolean;
}

/** The update log step's settings (createUpdateLogExtension). */
interface UpdateLogExtensionOptions {
  log: UpdateLog;
  ledger: DocumentLedger;
  logger: Logger;
  /**
   * Past this many bytes waiting for the log (storage slow or out of reach), an update waits for
   * its own write before it is applied: the socket's messages then wait in Hocuspocus's queue, and
   * the socket is not read from (websocket.ts), so memory stays bounded.
   */
  waitingBytesBudget: number;
}

/**
 * The update log as a Hocuspocus step (docs/decisions/0001-durable-log-before-ack.md): the update
 * the guard let through (update-guard.ts) is appended to the durable log, and its acknowledgement
 * to its sender is held until the write has committed — an acknowledged update survives
 * `kill -9`, so the sender's "saved" is true. Meanwhile Hocuspocus applies it and other clients
 * get it at once: a write in flight (or a store holding the database) never slows an edit on its way
 * to the others, only the sender's acknowledgement. If the write fails for good, the connection
 * is closed instead of acknowledged (`storage_unavailable`); the provider sends it again.
 *
 * An acknowledgement also waits for the other instances' edits this copy holds (PeerChanges):
 * whatever a client is told is saved, and whatever its edit builds on, is in the log.
 */
export function createUpdateLogExtension(options: UpdateLogExtensionOptions): Extension {
  const { log, ledger, logger, waitingBytesBudget } = options;
  const held = new WeakMap<Connection, HeldAcknowledgements>();
  const peers = createPeerChanges(options);

  return {
    extensionName: 'pipit-update-log',

    onChange({ documentName, update, transactionOrigin }: onChangePayload) {
      if (!isTransactionOrigin(transactionOrigin) || transactionOrigin.source !== 'redis') {
        return Promise.resolve();
      }
      peers.received(documentName, update);
      return Promise.resolve();
    },

    async beforeHandleMessage({
      documentName,
      connection,
      update: message,
    }: beforeHandleMessagePayload) {
      const checked = ledger.inFlight(connection);
      // A sync step 2 or an update, even one that adds nothing here: the provider counts it as
      // saved once acknowledged, so the other instances' edits this copy has must be logged first.
      let carriesUpdate = !!checked;
      if (!carriesUpdate && !connection.readOnly) {
        try {
          carriesUpdate = syncPayloadOf(message)?.kind === 'update';
        } catch {
          // Malformed framing is refused by the guard before this step.
        }
      }
      if (!carriesUpdate) return;
      const peerWrites = peers.logPending(documentName);
      if (!checked && !peerWrites) return;
      const entry = holdAcknowledgements(held, connection);
      const written = checked
        ? ledger.tracked(
            documentName,
            log.append(documentName, checked.update).then((seq) => {
              ledger.logged(checked, seq);
              return seq;
            }),
          )
        : null;
      waitForWrites(entry, written, peerWrites, { documentName, connection, logger });
      // Storage far behind: this update waits for its write before it is applied.
      if (written && log.waitingBytes() > waitingBytesBudget) {
        try {
          await written;
        } catch {
          ledger.refused(connection);
          throw new SyncRefusal('storage_unavailable');
        }
      }
    },

    afterUnloadDocument({ documentName }: afterUnloadDocumentPayload) {
      peers.unloaded(documentName);
      return Promise.resolve();
    },
  };
}

/** Acknowledgements of this connection go out once the log has what they acknowledge. */
function holdAcknowledgements(
  held: WeakMap<Connection, HeldAcknowledgements>,
  connection: Connection,
): HeldAcknowledgements {
  let entry = held.get(connection);
  if (entry) return entry;
  entry = { durable: Promise.resolve(), outstanding: 0, failed: false };
  held.set(connection, entry);
  const send = connection.send.bind(connection);
  const hold = entry;
  connection.send = (message: Uint8Array) => {
    if (hold.outstanding === 0 || !isAcknowledgement(message)) {
      send(message);
      return;
    }
    hold.durable.then(
      () => send(message),
      // The connection is closed instead (below): this acknowledgement never goes.
      () => undefined,
    );
  };
  return entry;
}

/**
 * The connection's acknowledgements wait, after those before them, for its update's write and for
 * the other instances' edits being logged; if either fails for good, the connection is closed
 * instead.
 */
function waitForWrites(
  entry: HeldAcknowledgements,
  written: Promise<number> | null,
  peerWrites: Promise<void> | null,
  {
    documentName,
    connection,
    logger,
  }: { documentName: string; connection: Connection; logger: Logger },
): void {
  // Handled below, through the chain (or not at all once the chain has failed).
  written?.catch(() => undefined);
  peerWrites?.catch(() => undefined);
  entry.outstanding += 1;
  entry.durable = entry.durable.then(() =>
    Promise.all([written, peerWrites]).then(() => undefined),
  );
  entry.durable.then(
    () => {
      entry.outstanding -= 1;
    },
    (error: unknown) => {
      entry.outstanding -= 1;
      if (entry.failed) return;
      entry.failed = true;
      logger.error(
        { err: error, documentName, digest: createDigest() },
        'appending an update to the log failed',
      );
      connection.close({
        code: SYNC_CLOSE_REASONS.storage_unavailable,
        reason: 'storage_unavailable',
      });
    },
  );
}

/** The other instances' edits each document holds (PeerChanges), and how many bytes they are. */
function createPeerChanges({ log, ledger, logger }: UpdateLogExtensionOptions) {
  const peers = new Map<string, PeerChanges>();
  let peerBytes = 0;

  /**
   * Logs the other instances' edits the document holds and this instance has not logged yet.
   * Resolves once all of them are in the log (null: there are none, nothing to wait for).
   */
  function logPeerChanges(name: string): Promise<void> | null {
    const changes = peers.get(name);
    if (!changes) return null;
    if (changes.pending.length > 0 && !ledger.isDiscarded(name)) {
      const taken = changes.pending;
      const update = taken.length === 1 ? taken[0]! : Y.mergeUpdates(taken);
      peerBytes -= changes.bytes;
      changes.pending = [];
      changes.bytes = 0;
      if (changes.failed && changes.writing === 0) {
        // What failed is in this write again.
        changes.failed = false;
        changes.durable = Promise.resolve();
      }
      changes.writing += 1;
      const written = ledger.tracked(
        name,
        log.append(name, update).then((seq) => {
          if (peers.get(name) === changes) ledger.hold(name, [seq]);
        }),
      );
      written.then(
        () => {
          changes.writing -= 1;
        },
        () => {
          changes.writing -= 1;
          changes.failed = true;
          // Tried again with the next acknowledgement; those waiting now are closed instead.
          changes.pending.unshift(update);
          changes.bytes += update.byteLength;
          if (peers.get(name) === changes) peerBytes += update.byteLength;
        },
      );
      changes.durable = Promise.all([changes.durable, written]).then(() => undefined);
    }
    return changes.writing > 0 || changes.failed ? changes.durable : null;
  }

  return {
    /** An edit from another instance this copy applied: logged before anything is acknowledged. */
    received(documentName: string, update: Uint8Array): void {
      let changes = peers.get(documentName);
      if (!changes) {
        changes = { pending: [], bytes: 0, writing: 0, durable: Promise.resolve(), failed: false };
        peers.set(documentName, changes);
      }
      changes.pending.push(update);
      changes.bytes += update.byteLength;
      peerBytes += update.byteLength;
      // Bounded memory: past the budget they are logged whether or not anything waits for them.
      if (changes.bytes > PEER_CHANGES_FLUSH_BYTES) {
        logPeerChanges(documentName)?.catch(() => undefined);
      }
      if (peerBytes > PEER_CHANGES_BUDGET_BYTES) {
        for (const name of peers.keys()) logPeerChanges(name)?.catch(() => undefined);
      }
    },

    logPending: logPeerChanges,

    /** The document is unloaded: what is still pending is logged, in the background. */
    unloaded(documentName: string): void {
      const changes = peers.get(documentName);
      peers.delete(documentName);
      if (!changes || changes.pending.length === 0) return;
      peerBytes -= changes.bytes;
      // Nothing here waits for them any more, but this copy may be the last one that has them.
      if (!ledger.isDiscarded(documentName)) {
        log.append(documentName, Y.mergeUpdates(changes.pending)).catch((error: unknown) => {
          logger.warn({ err: error, documentName }, 'logging other instances’ edits failed');
        });
      }
    },
  };
}
