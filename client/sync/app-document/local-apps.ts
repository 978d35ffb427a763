import { type AppDefinition, writeDefinition } from '@pipit/app-definition';
import { type AppSummary, createId, documentName } from '@pipit/protocol';
import { liveQuery } from 'dexie';
import { useEffect, useState } from 'react';
import { clearDocument } from 'y-indexeddb';
import * as Y from 'yjs';
import { type DocumentScope, localDatabaseName } from '../core/document-names';
import { writeLocalCopy } from '../core/document-scope';
import { openDocument, reconnectDocument } from '../core/documents';
import { type LocalApp, localAppKey, localDb } from '../core/local-db';

export type { LocalApp };

const DEMO = 'demo';
const scopeOf = (accountId: string): DocumentScope =>
  accountId === DEMO ? { kind: 'demo' } : { kind: 'account', accountId };

/**
 * Creates an app on this device, offline too (docs/product/records.md: the id is made here). This
 * is the one place an app document is seeded — once, by the device that creates it; nothing ever
 * seeds it again. `accountId` is `'demo'` for the local-only demo. A remix names the published
 * version it copies (`forkedFrom`); its registration tells the server, which keeps the lineage.
 */
export async function createLocalApp(
  accountId: string,
  definition: AppDefinition,
  options: { forkedFrom?: LocalApp['forkedFrom'] } = {},
): Promise<string> {
  const id = createId();
  const seed = new Y.Doc();
  writeDefinition(seed, definition);
  await writeLocalCopy(
    scopeOf(accountId),
    documentName({ kind: 'app', appId: id }),
    Y.encodeStateAsUpdate(seed),
  );
  seed.destroy();
  const now = Date.now();
  await localDb().apps.put({
    key: localAppKey(accountId, id),
    accountId,
    id,
    title: definition.meta.title,
    description: definition.meta.description,
    icon: definition.meta.icon,
    role: 'owner',
    archived: false,
    published: false,
    createdAt: now,
    updatedAt: now,
    registered: false,
    pending: accountId === DEMO ? 0 : 1,
    ...(options.forkedFrom ? { forkedFrom: options.forkedFrom } : {}),
  });
  return id;
}

/**
 * The demo's app becomes the new account's first app (docs/product/routes.md: signing up keeps the
 * draft).
 */
export async function adoptDemoApps(accountId: string): Promise<string[]> {
  const demoApps = await localApps(DEMO);
  const adopted: string[] = [];
  for (const app of demoApps) {
    const name = documentName({ kind: 'app', appId: app.id });
    const opened = openDocument(name, { kind: 'demo' }, { connect: false });
    await opened.whenLocal;
    const state = Y.encodeStateAsUpdate(opened.doc);
    opened.release();
    await writeLocalCopy(scopeOf(accountId), name, state);
    await localDb().apps.put({
      ...app,
      key: localAppKey(accountId, app.id),
      accountId,
      registered: false,
      pending: 1,
    });
    await localDb().apps.delete(app.key);
    await clearDocument(localDatabaseName({ kind: 'demo' }, name));
    adopted.push(app.id);
  }
  return adopted;
}

/**
 * A query on this device's list that follows every change to it (Dexie's live queries);
 * `undefined` while the first answer is on its way, `fallback` when the list cannot be read.
 */
function useLiveList<T>(query: (() => Promise<T>) | null, key: string, fallback: T): T | undefined {
  const [state, setState] = useState<{ key: string; value: T } | undefined>(undefined);
  useEffect(() => {
    if (!query) return;
    const subscription = liveQuery(query).subscribe({
      next: (value) => setState({ key, value }),
      error: (error: unknown) => {
        console.warn('Could not read the apps on this device:', error);
        setState({ key, value: fallback });
      },
    });
    return () => subscription.unsubscribe();
    // `key` names the query: a new key is a new query.
  }, [key]);
  return state?.key === key ? state.value : undefined;
}

/** This device's apps for an account (or the demo), newest first; `undefined` while loading. */
export function useLocalApps(accountId: string | null): LocalApp[] | undefined {
  const apps = useLiveList(
    accountId
      ? async () => (await localApps(accountId)).sort((a, b) => b.updatedAt - a.updatedAt)
      : null,
    `apps:${accountId}`,
    [],
  );
  return accountId ? apps : [];
}

/** One app's row on this device, following changes (registration); null when it has none. */
export function useLocalApp(accountId: string, appId: string): LocalApp | null | undefined {
  return useLiveList(
    async () => (await localApp(accountId, appId)) ?? null,
    `app:${accountId}:${appId}`,
    null,
  );
}

export function localApps(accountId: string): Promise<LocalApp[]> {
  return localDb().apps.where('accountId').equals(accountId).toArray();
}

export function localApp(accountId: string, appId: string): Promise<LocalApp | undefined> {
  return localDb().apps.get(localAppKey(accountId, appId));
}

/** The server now knows the app: its document can sync. */
export async function markRegistered(accountId: string, appId: string): Promise<void> {
  await localDb().apps.update(localAppKey(accountId, appId), {
    registered: true,
    registrationRefused: undefined,
  });
  reconnectDocument(scopeOf(accountId), documentName({ kind: 'app', appId }));
}

/**
 * Takes the server's list of my apps (owned and shared): listing fields follow the server, apps
 * made elsewhere appear, and registered apps the server no longer lists (deleted, or my access was
 * removed) leave this device.
 */
export async function mergeServerApps(accountId: string, apps: AppSummary[]): Promise<void> {
  const db = localDb();
  const serverIds = new Set(apps.map((app) => app.id));
  const gone: string[] = [];
  await db.transaction('rw', db.apps, async () => {
    const local = await db.apps.where('accountId').equals(accountId).toArray();
    const byId = new Map(local.map((row) => [row.id, row]));
    for (const app of apps) {
      const row = byId.get(app.id);
      if (row?.deleting) continue;
      await db.apps.put({
        key: localAppKey(accountId, app.id),
        accountId,
        id: app.id,
        // A change made here that the server has not stored yet is newer than its listing.
        title: row && row.pending > 0 ? row.title : app.title,
        description: row && row.pending > 0 ? row.description : app.description,
        icon: row && row.pending > 0 ? row.icon : app.icon,
        role: app.role,
        // Archived here and not sent yet: this device's choice is the newer one.
        archived: row?.archiveDue ? row.archived : app.archived,
        ...(row?.archiveDue ? { archiveDue: true } : {}),
        published: app.publishedVersion !== null,
        createdAt: app.createdAt,
        updatedAt: Math.max(app.updatedAt, row?.updatedAt ?? 0),
        registered: true,
        pending: row?.pending ?? 0,
      });
    }
    for (const row of local) {
      if (row.registered && !serverIds.has(row.id) && !row.deleting) {
        await db.apps.delete(row.key);
        gone.push(row.id);
      }
    }
  });
  for (const appId of gone) await forgetLocalCopy(accountId, appId);
}

/**
 * Archives or restores an app on this device, at once and offline too. Archiving is the owner's
 * alone, so it is not an edit of the shared document (an editor could make that): the server takes
 * it from the owner's request, which the next reconciliation sends (app-registry.ts).
 */
export async function setAppArchived(accountId: string, appId: string, archived: boolean) {
  await localDb().apps.update(localAppKey(accountId, appId), {
    archived,
    archiveDue: accountId !== DEMO,
    updatedAt: Date.now(),
  });
}

/** The server took this device's archive choice (unless it was changed again meanwhile). */
export async function markArchiveSent(accountId: string, appId: string, archived: boolean) {
  const key = localAppKey(accountId, appId);
  await localDb().transaction('rw', localDb().apps, async () => {
    const row = await localDb().apps.get(key);
    if (row?.archiveDue && row.archived === archived) {
      await localDb().apps.update(key, { archiveDue: false });
    }
  });
}

/**
 * The server refused this device's change for good (the app was restored, or is not mine to
 * delete or archive any more): this device lets it go, and the server's listing decides.
 */
export async function dropRefusedChange(
  accountId: string,
  appId: string,
  change: 'deleting' | 'archiveDue',
): Promise<void> {
  await localDb().apps.update(localAppKey(accountId, appId), { [change]: false });
}

/** Registration was refused (`markRegistered` clears it once it goes through). */
export async function markRegistrationRefused(
  accountId: string,
  appId: string,
  refusal: NonNullable<LocalApp['registrationRefused']>,
): Promise<void> {
  await localDb().apps.update(localAppKey(accountId, appId), { registrationRefused: refusal });
}

/** Marks an app for deletion on the server (when next online) and hides it here at once. */
export async function markDeleting(accountId: string, appId: string) {
  await localDb().apps.update(localAppKey(accountId, appId), { deleting: true });
}

/** Removes the app and its document from this device. */
export async function forgetLocalCopy(accountId: string, appId: string): Promise<void> {
  await localDb().apps.delete(localAppKey(accountId, appId));
  await clearDocument(localDatabaseName(scopeOf(accountId), documentName({ kind: 'app', appId })));
}

/**
 * Sends the changes of apps that are not open (docs/product/states.md#offline: sync resumes by
 * itself, also for apps that are not open): each is opened from this device, connected, and closes
 * once the server has stored everything.
 */
export function syncInBackground(accountId: string, appIds: string[]): void {
  for (const appId of appIds) {
    const opened = openDocument(documentName({ kind: 'app', appId }), scopeOf(accountId), {
      connect: true,
    });
    opened.release();
  }
}
