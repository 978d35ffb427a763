import type { beforeHandleMessagePayload, Extension } from '@hocuspocus/server';
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

  constructor(
    private readonly store: Pick<DocumentStore, 'append'>,
    private readonly options: {
      timings?: CollabTimings;
      logger?: Logger;
      retryDeadlineMs?: number;
    } = {},
  ) {}

  /** Resolves with the update's sequence number once it is durable in storage. */
  append(name: string, update: Uint8Array): Promise<number> {
    const deadline = Date.now() + (this.options.retryDeadlineMs ?? LOG_RETRY_DEADLINE_MS);
    return new Promise((resolve, reject) => {
      this.queue.push({ name, update, deadline, resolve, reject });
      if (this.writing) return;
      this.writing = true;
      // SQLite commits synchronously: started at once, every write would go alone. Waiting for the
      // check phase lets the updates read from other sockets in the same I/O phase join it.
      setImmediate(() => void this.drain());
    });
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

/**
 * The update log as a Hocuspocus step: the update the guard let through (update-guard.ts) is
 * appended to the durable log before Hocuspocus applies it and acknowledges it to its sender
 * (docs/decisions/0001-durable-log-before-ack.md). An acknowledged update survives `kill -9`.
 */
export function createUpdateLogExtension(options: {
  log: UpdateLog;
  ledger: DocumentLedger;
  logger: Logger;
}): Extension {
  const { log, ledger, logger } = options;
  return {
    extensionName: 'pipit-update-log',

    async beforeHandleMessage({ documentName, connection }: beforeHandleMessagePayload) {
      const checked = ledger.inFlight(connection);
      if (!checked) return;
      try {
        await ledger.tracked(documentName, log.append(documentName, checked.update));
      } catch (error) {
        ledger.refused(connection);
        logger.error(
          { err: error, documentName, digest: createDigest() },
          'appending an update to the log failed',
        );
        throw new SyncRefusal('storage_unavailable');
      }
    },
  };
}
