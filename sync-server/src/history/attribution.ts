import type {
  afterLoadDocumentPayload,
  afterUnloadDocumentPayload,
  Extension,
} from '@hocuspocus/server';
import type * as Y from 'yjs';
import { markOfTransaction, type TouchedEntity, watchTouched } from '@pipit/app-definition';
import {
  ATTRIBUTION_LIMITS,
  type ChangeAuthorKind,
  createId,
  parseDocumentName,
} from '@pipit/protocol';
import type { Clock } from '../accounts/clock';
import { authorOf } from '../transaction-author';
import type { Logger } from '../logger';
import type { NewAppChange, Storage } from '../storage/types';

/** How long what the connections of this instance changed is gathered before it is written. */
export const ATTRIBUTION_FLUSH_MS = 2_000;
/** Entries waiting to be written, at most: past it (storage down a long time) new ones are lost. */
const PENDING_MAX = 20_000;
/** An app's oldest entries are thinned at most this often per instance. */
const THIN_EVERY_MS = 10 * 60_000;

export interface Attribution {
  /** The collaboration layer's hook: each loaded app document is watched. */
  readonly extension: Extension;
  /** Writes what waits now; resolves once written (or put back after a failure). */
  flush(): Promise<void>;
  /** Writes what waits and stops watching. */
  stop(): Promise<void>;
}

/**
 * Who changed what in each app (docs/product/history.md#who-changed-what): every transaction a
 * person's connection makes on an app document is read for what Yjs integrated
 * (`touchedByTransaction`), each entity credited to the person — or to what they ran, when the
 * transaction carries a mark naming that entity (Ask AI, a restore, a pull) — and written in
 * batches to `app_changes`, one row per entity, author and batch. Changes made offline are
 * credited to their author when they sync (that is when this server receives them). Changes from
 * other instances (the fan-out) and from storage are theirs to credit, never this one's.
 */
export function createAttribution(deps: {
  storage: Storage;
  clock: Clock;
  logger: Logger;
  flushMs?: number;
}): Attribution {
  const { storage, clock, logger } = deps;
  const flushMs = deps.flushMs ?? ATTRIBUTION_FLUSH_MS;
  const watching = new Map<string, () => void>();
  let pending = new Map<string, NewAppChange & { pathSet: Set<string> }>();
  const thinnedAt = new Map<string, number>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let writing: Promise<void> = Promise.resolve();
  let stopped = false;
  let warnedFull = false;

  function note(appId: string, authorId: string, kind: ChangeAuthorKind, t: TouchedEntity) {
    const key = `${appId}\n${t.entity}\n${t.id}\n${kind}\n${authorId}`;
    const at = clock.now();
    const known = pending.get(key);
    if (known) {
      for (const path of t.paths) known.pathSet.add(path);
      known.at = at;
      return;
    }
    if (pending.size >= PENDING_MAX) {
      if (!warnedFull) logger.warn({ appId }, 'who changed what is not being written; losing some');
      warnedFull = true;
      return;
    }
    pending.set(key, {
      id: createId(),
      appId,
      entity: t.entity,
      entityId: t.id,
      paths: [],
      pathSet: new Set(t.paths),
      kind,
      authorId,
      at,
    });
    schedule();
  }

  function schedule() {
    if (timer !== null || stopped) return;
    timer = setTimeout(() => {
      timer = null;
      void flush();
    }, flushMs);
    timer.unref?.();
  }

  function onTouched(appId: string, doc: Y.Doc, touched: TouchedEntity[], tr: Y.Transaction) {
    const authorId = authorOf(tr.origin);
    if (authorId === null) return;
    const mark = markOfTransaction(doc, tr);
    for (const t of touched) {
      const kind = mark?.entities.has(`${t.entity}:${t.id}`) ? mark.kind : 'person';
      note(appId, authorId, kind, t);
    }
  }

  async function write(batch: Array<NewAppChange & { pathSet: Set<string> }>) {
    const rows = batch.map(({ pathSet, ...row }) => ({ ...row, paths: [...pathSet] }));
    try {
      await storage.appChanges.add(rows);
      warnedFull = false;
    } catch (error) {
      logger.warn(
        { err: error, entries: rows.length },
        'writing who changed what failed; retrying',
      );
      // Put back, merged with what came meanwhile, and tried again later.
      for (const entry of batch) {
        const key = `${entry.appId}\n${entry.entity}\n${entry.entityId}\n${entry.kind}\n${entry.authorId}`;
        const newer = pending.get(key);
        if (newer) for (const path of entry.pathSet) newer.pathSet.add(path);
        else if (pending.size < PENDING_MAX) pending.set(key, entry);
      }
      schedule();
      return;
    }
    const now = clock.now();
    for (const appId of new Set(rows.map((r) => r.appId))) {
      if (now - (thinnedAt.get(appId) ?? 0) < THIN_EVERY_MS) continue;
      thinnedAt.set(appId, now);
      await storage.appChanges
        .thin(appId, ATTRIBUTION_LIMITS.entriesPerApp)
        .catch((error: unknown) =>
          logger.warn({ err: error, appId }, 'thinning who changed what failed'),
        );
    }
  }

  function flush(): Promise<void> {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    // One write at a time: a batch put back after a failure is never raced by the next.
    writing = writing.then(() => {
      if (pending.size === 0) return;
      const batch = [...pending.values()];
      pending = new Map();
      return write(batch);
    });
    return writing;
  }

  const extension: Extension = {
    extensionName: 'pipit-attribution',
    afterLoadDocument({ documentName, document }: afterLoadDocumentPayload) {
      const parsed = parseDocumentName(documentName);
      if (parsed?.kind !== 'app' || stopped) return Promise.resolve();
      const { appId } = parsed;
      watching.get(documentName)?.();
      watching.set(
        documentName,
        watchTouched(document, (touched, tr) => onTouched(appId, document, touched, tr)),
      );
      return Promise.resolve();
    },
    afterUnloadDocument({ documentName }: afterUnloadDocumentPayload) {
      watching.get(documentName)?.();
      watching.delete(documentName);
      return Promise.resolve();
    },
  };

  return {
    extension,
    flush,
    async stop() {
      stopped = true;
      for (const unwatch of watching.values()) unwatch();
      watching.clear();
      await flush();
    },
  };
}
