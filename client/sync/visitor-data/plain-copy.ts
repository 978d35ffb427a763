import { documentName } from '@pipit/protocol';
import { anonymousDataName, deviceDatabaseName, localDatabaseName } from '../core/document-names';
import { COPY_FROM_RECORDS, copiedRecords, holdAhead, plainCopyAhead } from './plain-copy-notes';

/*
 * A plain copy of a person's data for an app, kept on this device beside its Yjs document, so an
 * installed app opening offline draws the person's records before the document is read
 * (docs/performance.md, "Records at scale"): reading and applying a document of 5,000 records took
 * ~550 ms of a phone's main thread, the copy is one IndexedDB read of plain objects. The document
 * stays the truth: the copy is drawn read-only, for the moment until the document is read (a
 * change meanwhile is refused with a message), and written from the document's store after its
 * changes (a few seconds after the last, and when the page is hidden). A copy older than the
 * document shows old records for that moment, never as saved.
 *
 * Its own small database, read without Dexie or Yjs (neither is loaded before the first render),
 * keyed by the document's database name (document-names.ts): per account, as the documents are.
 * This module is what the start needs: the names and the copies read ahead; plain-copy-notes.ts
 * notes which data has a copy, plain-copy-store.ts reads and writes the database.
 */

/**
 * The copy of a person's data for an app, named as its document's database: the account's
 * (`accountId`), or the anonymous visitor's on this device (null).
 */
export const dataCopyName = (appId: string, accountId: string | null) =>
  accountId
    ? localDatabaseName(
        { kind: 'account', accountId },
        documentName({ kind: 'data', appId, userId: accountId }),
      )
    : deviceDatabaseName(anonymousDataName(appId));

/** Copies being read ahead, by document. */
const reading = new Map<string, Promise<boolean>>();

/** Reads a document's copy before the page's first render; resolves with whether there is one. */
export function readPlainCopyAhead(name: string): Promise<boolean> {
  if (copiedRecords(name) < COPY_FROM_RECORDS) return Promise.resolve(false);
  let read = reading.get(name);
  if (!read) {
    read = import('./plain-copy-store')
      .then(({ readPlainCopy }) => readPlainCopy(name))
      .then(
        (copy) => {
          if (copy && copy.records.length > 0) holdAhead(name, copy);
          return plainCopyAhead(name) !== null;
        },
        () => false,
      )
      .finally(() => reading.delete(name));
    reading.set(name, read);
  }
  return read;
}

/**
 * The read of a document's copy still under way, or null: its document is not opened before it
 * lands (a slow start's first render may come before the copy: the copy is drawn when it does, and
 * the document read after).
 */
export function copyBeingRead(name: string): Promise<boolean> | null {
  return reading.get(name) ?? null;
}

export { dropPlainCopyAhead, plainCopyAhead } from './plain-copy-notes';
