import { mergeVisitorData } from '@pipit/app-definition';
import { documentName } from '@pipit/protocol';
import { clearDocument } from 'y-indexeddb';
import * as Y from 'yjs';
import { isDeviceDocumentOpen, openDeviceDocument } from './device-documents';
import { anonymousDataName, deviceDatabaseName, type DocumentScope } from './document-names';
import { writeLocalCopy } from './document-scope';
import { openDocument, type OpenDocument } from './documents';
import { localDb } from './local-db';

/**
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
  if (isDeviceDocumentOpen(anonymousName)) return false;
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
