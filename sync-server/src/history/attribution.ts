import type { afterLoadDocumentPayload, Extension } from '@hocuspocus/server';
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
import { Lru } from '../lru';
import type { NewAppChange, Storage } from '../storage/types';

/** How long what the connections of this instance changed is gathered before it is written. */
export const ATTRIBUTION_FLUSH_MS = 2_000;
/** Entries waiting to be written, at most: past it (storage down a long time) new ones are lost. */
const PENDING_MAX = 20_000;
/** One app's share of them: one app's burst never crowds out the others'. */
const PENDING_PER_APP = 2_000;
/** Paths one entry keeps (a larger change is said as its first ones), and an id's longest. */
const PATHS_MAX = 50;
const ID_MAX = 64;
/** An app's oldest entries are thinned this often per instance, or after this many written. */
const THIN_EVERY_MS = 10 * 60_000;
const THIN_AFTER_ENTRIES = 1_000;
/** Apps whose thinning this instance remembers. */
const THINNED_KEPT = 10_000;

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
  let pending = new Map<string, PendingEntry>();
  let pendingPerApp = new Map<string, number>();
  const thinned = new Lru<string, { at: number; written: number }>(THINNED_KEPT);
  let timer: ReturnType<typeof setTimeout> | null = null;
  let writing: Promise<void> = Promise.resolve();
  let stopped = false;
  let warnedFull = false;

  function note(appId: string, authorId: string, kind: ChangeAuthorKind, t: TouchedEntity) {
    if (t.id.length > ID_MAX) return;
    const key = entryKey({ appId, entity: t.entity, entityId: t.id, kind, authorId });
    const at = clock.now();
    const known = pending.get(key);
    if (known) {
      for (const path of t.paths) if (known.pathSet.size < PATHS_MAX) known.pathSet.add(path);
      known.at = at;
      return;
    }
    const ofApp = pendingPerApp.get(appId) ?? 0;
    if (pending.size >= PENDING_MAX || ofApp >= PENDING_PER_APP) {
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
      pathSet: new Set(t.paths.slice(0, PATHS_MAX)),
      kind,
      authorId,
      at,
    });
    pendingPerApp.set(appId, ofApp + 1);
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

  function onTouched(
    appId: string,
    doc: Y.Doc,
    touched: TouchedEntity[],
    tr: Y.Transaction,
    waited: boolean,
  ) {
    const authorId = authorOf(tr.origin);
    // Parts that waited for this transaction may be another writer's: nobody is credited with
    // what it brought in rather than someone with what they did not do.
    if (authorId === null || waited) return;
    const mark = markOfTransaction(doc, tr);
    for (const t of touched) {
      const kind = mark?.entities.has(`${t.entity}:${t.id}`) ? mark.kind : 'person';
      note(appId, authorId, kind, t);
    }
  }

  async function write(batch: PendingEntry[]) {
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
      putBack({ pending, pendingPerApp }, batch);
      schedule();
      return;
    }
    await thinWritten({ storage, logger, thinned }, rows, clock.now());
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
      pendingPerApp = new Map();
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
      const unwatch = watchTouched(document, (touched, tr, waited) =>
        onTouched(appId, document, touched, tr, waited),
      );
      const stop = () => {
        unwatch();
        document.off('destroy', stop);
        if (watching.get(documentName) === stop) watching.delete(documentName);
      };
      watching.set(documentName, stop);
      // Watched until this very document is unloaded (Hocuspocus destroys it then). Not by its
      // name: the same name may be loaded again while the old one unloads (a connection arriving
      // during the unload's store), and the old one's unload must not end the new one's watch.
      document.on('destroy', stop);
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

type PendingEntry = NewAppChange & { pathSet: Set<string> };

/** One waiting entry per app, thing, kind and author: what a batch writes one row for. */
const entryKey = (e: Pick<NewAppChange, 'appId' | 'entity' | 'entityId' | 'kind' | 'authorId'>) =>
  `${e.appId}\n${e.entity}\n${e.entityId}\n${e.kind}\n${e.authorId}`;

/** A batch that could not be written, back among what waits, merged with what came meanwhile. */
function putBack(
  into: { pending: Map<string, PendingEntry>; pendingPerApp: Map<string, number> },
  batch: readonly PendingEntry[],
) {
  const { pending, pendingPerApp } = into;
  for (const entry of batch) {
    const key = entryKey(entry);
    const newer = pending.get(key);
    const ofApp = pendingPerApp.get(entry.appId) ?? 0;
    if (newer) {
      for (const path of entry.pathSet) {
        if (newer.pathSet.size < PATHS_MAX) newer.pathSet.add(path);
      }
    } else if (pending.size < PENDING_MAX && ofApp < PENDING_PER_APP) {
      pending.set(key, entry);
      pendingPerApp.set(entry.appId, ofApp + 1);
    }
  }
}

/** Thins the apps just written to, each every THIN_EVERY_MS or THIN_AFTER_ENTRIES entries. */
async function thinWritten(
  {
    storage,
    logger,
    thinned,
  }: { storage: Storage; logger: Logger; thinned: Lru<string, { at: number; written: number }> },
  rows: readonly NewAppChange[],
  now: number,
) {
  const written = new Map<string, number>();
  for (const row of rows) written.set(row.appId, (written.get(row.appId) ?? 0) + 1);
  for (const [appId, count] of written) {
    const last = thinned.get(appId) ?? { at: 0, written: 0 };
    const since = last.written + count;
    if (now - last.at < THIN_EVERY_MS && since < THIN_AFTER_ENTRIES) {
      thinned.set(appId, { at: last.at, written: since });
      continue;
    }
    thinned.set(appId, { at: now, written: 0 });
    await storage.appChanges
      .thin(appId, ATTRIBUTION_LIMITS.entriesPerApp)
      .catch((error: unknown) =>
        logger.warn({ err: error, appId }, 'thinning who changed what failed'),
      );
  }
}
