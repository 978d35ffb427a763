import { mergeVisitorData } from '@pipit/app-definition';
import { documentName } from '@pipit/protocol';
import { clearDocument } from 'y-indexeddb';
import * as Y from 'yjs';
import { isDeviceDocumentInUse, openDeviceDocument } from '../device/device-documents';
import { anonymousDataName, deviceDatabaseName, type DocumentScope } from '../core/document-names';
import { writeLocalCopy } from '../core/document-scope';
import { openDocument, type OpenDocument } from '../core/documents';
import { localDb } from '../core/local-db';
import { dataCopyName } from './plain-copy';
import { forgetPlainCopy } from './plain-copy-store';
import type { DataRole, PresentPerson, VisitorDataSource } from './view';

/*
 * The two cases of a visitor's data that sync (visitor-data.ts): signed in, the account's
 * `data/{appId}/{userId}`; in a space, `space/{spaceId}` (docs/product/spaces.md), the person's name in
 * its awareness so the others see who is here now. Both are opened with the sync layer (documents.ts
 * and the websocket provider), so this module loads only when one of them is shown.
 *
 * Anonymous visitors keep their data for an app in `data/{appId}` on this device only
 * (docs/architecture.md); signing in merges it into their account's `data/{appId}/{userId}`. The
 * merge is a Yjs state merge (records are keyed by random ids, so nothing is lost or doubled), it
 * is written to the account's copy on this device before the anonymous copy is deleted, and it runs
 * again harmlessly if it was interrupted (merging the same state twice changes nothing). This
 * device's anonymous copies are noted by anonymous-data.ts.
 */

const running = new Map<string, Promise<boolean>>();

async function mergeOne(accountId: string, appId: string): Promise<boolean> {
  const db = localDb();
  if (!(await db.anonymousData.get(appId))) return false;
  const anonymousName = anonymousDataName(appId);
  // In use in this tab (the app is open anonymously): merged when it is let go, at the next open.
  // Only read ahead for an anonymous visitor who turned out signed in: merged now (opening it
  // here takes the hold over, so it closes when the merge lets go).
  if (isDeviceDocumentInUse(anonymousName)) return false;
  const scope: DocumentScope = { kind: 'account', accountId };
  const name = documentName({ kind: 'data', appId, userId: accountId });
  const anonymous = openDeviceDocument(anonymousName);
  // Connected: the merged records go to the server now, also when the app is not open.
  const account = openDocument(name, scope, { connect: true });
  try {
    await Promise.all([anonymous.whenLocal, account.whenLocal]);
    const state = Y.encodeStateAsUpdate(anonymous.doc);
    mergeVisitorData(account.doc, anonymous.doc);
    // The open document's own persistence stores the merge too, but without telling us when: this
    // write is the one waited for before the anonymous copy goes.
    await writeLocalCopy(scope, name, state);
  } finally {
    anonymous.release();
    account.release();
  }
  await clearDocument(deviceDatabaseName(anonymousName));
  await forgetPlainCopy(dataCopyName(appId, null));
  await db.anonymousData.delete(appId);
  return true;
}

/**
 * Merges this device's anonymous data for one app (or for every app, without `appId`) into the
 * signed-in account's. Resolves with the apps merged; concurrent calls share one run per app.
 */
export async function mergeAnonymousVisitorData(
  accountId: string,
  appId?: string,
): Promise<string[]> {
  const ids = appId ? [appId] : (await localDb().anonymousData.toArray()).map((row) => row.appId);
  const merged: string[] = [];
  for (const id of ids) {
    const key = `${accountId}|${id}`;
    let run = running.get(key);
    if (!run) {
      run = mergeOne(accountId, id).finally(() => running.delete(key));
      running.set(key, run);
    }
    try {
      if (await run) merged.push(id);
    } catch (error) {
      // The anonymous copy stays (and its mark), so the next sign-in or open tries again.
      console.warn('Could not merge the data kept on this device into your account:', error);
    }
  }
  return merged;
}

/**
 * A signed-in visitor's data for an app: the account's `data/{appId}/{userId}`, synced. Maybe
 * signed in for the first time since using the app anonymously on this device: the anonymous
 * records join the account's (a no-op when there are none).
 */
export function openAccountVisitorData(appId: string, accountId: string): OpenDocument {
  const opened = openDocument(
    documentName({ kind: 'data', appId, userId: accountId }),
    { kind: 'account', accountId },
    { connect: true },
  );
  void opened.whenLocal.then(() => mergeAnonymousVisitorData(accountId, appId));
  return opened;
}

/** The people in a space's awareness, one entry per account, the person themselves left out. */
function presenceOf(opened: OpenDocument, accountId: string): PresentPerson[] {
  const awareness = opened.awareness();
  if (!awareness) return [];
  const people = new Map<string, PresentPerson>();
  for (const state of awareness.getStates().values()) {
    const user = (state as { user?: { id?: unknown; name?: unknown } }).user;
    if (!user || typeof user.id !== 'string' || user.id === accountId) continue;
    const name = typeof user.name === 'string' && user.name.trim() ? user.name : 'Someone';
    people.set(user.id, { id: user.id, name: name.slice(0, 60) });
  }
  return [...people.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** A space's records: the document, who adds records there, and who else is here now. */
export function openSpaceData(source: Extract<VisitorDataSource, { kind: 'space' }>): {
  document: OpenDocument;
  role: DataRole;
} {
  const opened = openDocument(
    documentName({ kind: 'space', spaceId: source.spaceId }),
    { kind: 'account', accountId: source.accountId },
    { connect: true },
  );
  // Once per connection (each provider has its own awareness).
  let announced: unknown = null;
  const announce = () => {
    const awareness = opened.awareness();
    if (!awareness || awareness === announced) return;
    announced = awareness;
    awareness.setLocalStateField('user', { id: source.accountId, name: source.name });
  };
  const stop = opened.subscribe(announce);
  announce();
  return {
    document: opened,
    role: {
      authorId: source.accountId,
      presence: () => presenceOf(opened, source.accountId),
      onRelease: stop,
    },
  };
}
