import type { afterLoadDocumentPayload, Extension } from '@hocuspocus/server';
import type * as Y from 'yjs';
import { createId, parseDocumentName } from '@pipit/protocol';
import type { Clock } from '../accounts/clock';
import { authorOf } from '../transaction-author';
import type { Logger } from '../logger';
import { Lru } from '../lru';
import type { PushSender } from '../push/sender';
import type { Job, SharedScheduler } from '../scheduler';
import type { SpaceActivityItem, Storage } from '../storage/types';
import { type DetectedChange, detectChanges } from './detect';
import { createBatchDelivery } from './delivery';
import { createSpaceWatches, type SpaceWatch, type SpaceWatches } from './watchers';

/**
 * A batch is what others do in a space for this long from the first change a recipient is not
 * yet told of: a burst, however it falls on the clock, is one notification, sent this long (and
 * the grace) after its first change; a recipient gets at most one per space in that time.
 */
export const ACTIVITY_BATCH_MS = 2 * 60 * 1000;
/**
 * A batch's job runs this long after its window ends, so a change made in the window's last
 * moment is in the table before its batch is read.
 */
export const ACTIVITY_GRACE_MS = 5_000;
/** Batches enqueued by this instance, remembered so a burst asks the queue once per recipient. */
const ENQUEUED_KEPT = 10_000;

export interface SpaceActivity {
  /** The collaboration layer's hook: each loaded space's document is watched. */
  readonly extension: Extension;
  readonly watches: SpaceWatches;
  /** Sends one recipient's batch: the scheduler's handler for `activity` jobs. */
  deliver(job: Job<'activity'>): Promise<void>;
  /** The push sender, once the server built it. */
  useSender(sender: PushSender): void;
  /** Starts the queue if batches wait from before a restart. */
  resume(): Promise<void>;
  /** Resolves when the changes seen so far are in the table and their batches queued (tests). */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

export function createSpaceActivity(deps: {
  storage: Storage;
  /** The server's one scheduler; this module registers its `activity` handler on it. */
  scheduler: SharedScheduler;
  clock: Clock;
  logger: Logger;
  batchMs?: number;
}): SpaceActivity {
  const { storage, clock, logger } = deps;
  const batchMs = deps.batchMs ?? ACTIVITY_BATCH_MS;
  let sender: PushSender | undefined;
  let stopped = false;
  const watches = createSpaceWatches({
    storage,
    now: () => clock.now(),
    onRefreshFailed: (spaceId, err: unknown) =>
      logger.warn({ err, spaceId }, "reading who watches a space's activity failed"),
  });
  const deliver = createBatchDelivery({ storage, sender: () => sender });
  const enqueued = new Lru<string, true>(ENQUEUED_KEPT);
  const recording = new Set<Promise<void>>();

  deps.scheduler.work('activity', deliver);
  const started = () => deps.scheduler.started();

  /** Stores the changes for everyone watching but the author, and queues their batches. */
  async function record(
    spaceId: string,
    authorId: string,
    changes: DetectedChange[],
    watch: SpaceWatch,
  ) {
    const recipients = watch.watchers.filter((w) => w.userId !== authorId);
    if (recipients.length === 0) return;
    const now = clock.now();
    // A burst is one batch per recipient: its first change opens it for `batchMs`, and what
    // follows before it closes joins it. (Two instances opening one at the same moment give two.)
    const windows = new Map<string, number>();
    for (const recipient of recipients) {
      const open = await storage.spaceActivity.openWindow(spaceId, recipient.userId, now);
      windows.set(recipient.userId, open ?? now + batchMs);
    }
    const items: SpaceActivityItem[] = recipients.flatMap((recipient) =>
      changes.map((change) => ({
        id: createId(),
        spaceId,
        recipientId: recipient.userId,
        authorId,
        kind: change.kind,
        recordId: change.recordId,
        // Names are kept only for someone who sees them.
        name: recipient.showNames ? change.name : null,
        createdAt: now,
        windowEnd: windows.get(recipient.userId)!,
      })),
    );
    await storage.spaceActivity.addItems(items);
    const queue = await started();
    for (const recipient of recipients) {
      const windowEnd = windows.get(recipient.userId)!;
      const key = `activity:${spaceId}:${recipient.userId}:${windowEnd}`;
      if (enqueued.get(key)) continue;
      await queue.enqueue({
        kind: 'activity',
        key,
        runAt: windowEnd + ACTIVITY_GRACE_MS,
        payload: { spaceId, userId: recipient.userId, windowEnd },
      });
      enqueued.set(key, true);
    }
  }

  function onTransaction(spaceId: string, doc: Y.Doc, tr: Y.Transaction) {
    if (stopped) return;
    const authorId = authorOf(tr.origin);
    if (authorId === null) return;
    // The cheap check first: a space nobody but the author watches costs one map lookup.
    const watch = watches.peek(spaceId);
    if (!watch) {
      // Dropped from memory (many spaces loaded), or its first read failed: read again for the
      // next change; this one is not told.
      watches
        .load(spaceId)
        .catch((error: unknown) =>
          logger.warn({ err: error, spaceId }, "reading who watches a space's activity failed"),
        );
      return;
    }
    if (!watch.watchers.some((w) => w.userId !== authorId)) return;
    const changes = detectChanges(doc, tr, watch.shape);
    if (changes.length === 0) return;
    const pending = record(spaceId, authorId, changes, watch)
      .catch((error: unknown) =>
        logger.warn({ err: error, spaceId }, "recording a space's activity failed; not told"),
      )
      .finally(() => recording.delete(pending));
    recording.add(pending);
  }

  const extension: Extension = {
    extensionName: 'pipit-space-activity',
    async afterLoadDocument({ documentName, document }: afterLoadDocumentPayload) {
      const parsed = parseDocumentName(documentName);
      if (parsed?.kind !== 'space') return;
      const { spaceId } = parsed;
      try {
        await watches.load(spaceId);
      } catch (error) {
        // Read again at the next change (peek finds nothing kept, and nothing is told meanwhile).
        logger.warn({ err: error, spaceId }, "reading who watches a space's activity failed");
      }
      document.on('afterTransaction', (tr: Y.Transaction) => onTransaction(spaceId, document, tr));
    },
  };

  return {
    extension,
    watches,
    deliver,
    useSender(value) {
      sender = value;
    },
    async resume() {
      if (await storage.spaceActivity.anyWaiting()) await started();
    },
    async settled() {
      while (recording.size > 0) await Promise.allSettled([...recording]);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      // The scheduler is the server's, stopped after every module that queues on it.
      await Promise.allSettled([...recording]);
    },
  };
}
