import type { beforeHandleMessagePayload, Connection, Extension } from '@hocuspocus/server';
import { SYNC_CLOSE_REASONS } from '@pipit/protocol';
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';
import { createDigest } from '../digest';
import type { Logger } from '../logger';
import { type CollabTimings, NO_COLLAB_TIMINGS } from '../metrics';
import type { DocumentStore, StoredDocument } from '../storage/types';
import type { DocumentLedger } from './document-ledger';
import { SyncRefusal } from './refusal';

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

interface Waiting {
  name: string;
  update: Uint8Array;
  deadline: number;
  resolve: (seq: number) => void;
  reject: (error: unknown) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

/**
 * Applies what storage holds for a document — its snapshot, then its logged updates in order —
 * to `doc`. One logged update that does not apply is skipped (and reported), not the rest: the
 * server checked each before logging it, so this is a defect, not an attack. Used to load a
 * document, to publish one, and to fold what other instances stored into a live one.
 */
export function replayInto(
  doc: Y.Doc,
  stored: StoredDocument,
  options: {
    origin?: unknown;
    skipSnapshot?: boolean;
    onSkipped?: (seq: number, error: unknown) => void;
  } = {},
): void {
  const { origin = null } = options;
  if (stored.snapshot && !options.skipSnapshot) Y.applyUpdate(doc, stored.snapshot, origin);
  for (const { seq, update } of stored.log) {
    try {
      Y.applyUpdate(doc, update, origin);
    } catch (error) {
      options.onSkipped?.(seq, error);
    }
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
 * The update log as a Hocuspocus step (docs/decisions/0001-durable-log-before-ack.md): the update
 * the guard let through (update-guard.ts) is appended to the durable log, and its acknowledgement
 * to its sender is held until the write has committed — an acknowledged update survives
 * `kill -9`, so the sender's "saved" is true. Meanwhile Hocuspocus applies it and other clients
 * get it at once: a write in flight (or a store holding the database) never slows an edit on its way
 * to the others, only the sender's acknowledgement. If the write fails for good, the connection
 * is closed instead of acknowledged (`storage_unavailable`); the provider sends it again.
 */
export function createUpdateLogExtension(options: {
  log: UpdateLog;
  ledger: DocumentLedger;
  logger: Logger;
  /**
   * Past this many bytes waiting for the log (storage slow or out of reach), an update waits for
   * its own write before it is applied: the socket's messages then wait in Hocuspocus's queue, and
   * the socket is not read from (websocket.ts), so memory stays bounded.
   */
  waitingBytesBudget: number;
}): Extension {
  const { log, ledger, logger, waitingBytesBudget } = options;
  const held = new WeakMap<Connection, HeldAcknowledgements>();

  /** Acknowledgements of this connection go out once the log has what they acknowledge. */
  function holdAcknowledgements(connection: Connection): HeldAcknowledgements {
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

  return {
    extensionName: 'pipit-update-log',

    async beforeHandleMessage({ documentName, connection }: beforeHandleMessagePayload) {
      const checked = ledger.inFlight(connection);
      if (!checked) return;
      const entry = holdAcknowledgements(connection);
      const written = ledger.tracked(
        documentName,
        log.append(documentName, checked.update).then((seq) => {
          ledger.logged(checked, seq);
          return seq;
        }),
      );
      // Handled below, through the chain (or not at all once the chain has failed).
      written.catch(() => undefined);
      entry.outstanding += 1;
      entry.durable = entry.durable.then(() => written.then(() => undefined));
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
      // Storage far behind: this update waits for its write before it is applied.
      if (log.waitingBytes() > waitingBytesBudget) {
        try {
          await written;
        } catch {
          ledger.refused(connection);
          throw new SyncRefusal('storage_unavailable');
        }
      }
    },
  };
}
