import { readVisitorData, writeVisitorData } from '@pipit/app-definition';
import { documentName } from '@pipit/protocol';
import { type DocumentScope, localDatabaseName } from '../core/document-names';
import { discardDocument, openDocument } from '../core/documents';

/*
 * A space's copy on this device once the person is no longer in it (docs/product/spaces.md): left
 * or removed, it is dropped; deleted by its owner, the person chooses to keep its items in their
 * own data or to drop them.
 */

const spaceName = (spaceId: string) => documentName({ kind: 'space', spaceId });
const scopeOf = (accountId: string): DocumentScope => ({ kind: 'account', accountId });

/** Whether this device has a copy of the space (without making an empty one by asking). */
async function hasCopy(accountId: string, spaceId: string): Promise<boolean> {
  const wanted = localDatabaseName(scopeOf(accountId), spaceName(spaceId));
  const databases = await indexedDB.databases();
  return databases.some((database) => database.name === wanted);
}

/** How many of the space's items this device holds (0: none, or no copy). */
export async function localSpaceItems(accountId: string, spaceId: string): Promise<number> {
  if (!(await hasCopy(accountId, spaceId))) return 0;
  const opened = openDocument(spaceName(spaceId), scopeOf(accountId), { connect: false });
  try {
    await opened.whenLocal;
    return readVisitorData(opened.doc).records.length;
  } finally {
    opened.release();
  }
}

/** Drops the space's copy from this device: what was kept there never syncs anywhere. */
export function discardSpaceCopy(accountId: string, spaceId: string): Promise<void> {
  return discardDocument(scopeOf(accountId), spaceName(spaceId));
}

/**
 * Keeps a deleted space's items as the person's own in the app (written into their private data,
 * which syncs as usual), then drops the space's copy. Returns how many were kept.
 */
export async function keepSpaceCopy(
  accountId: string,
  appId: string,
  spaceId: string,
): Promise<number> {
  const scope = scopeOf(accountId);
  const space = openDocument(spaceName(spaceId), scope, { connect: false });
  const own = openDocument(documentName({ kind: 'data', appId, userId: accountId }), scope, {
    connect: true,
  });
  let kept: number;
  try {
    await Promise.all([space.whenLocal, own.whenLocal]);
    const ownIds = new Set(readVisitorData(own.doc).records.map((record) => record.id));
    const records = readVisitorData(space.doc)
      .records.filter((record) => !ownIds.has(record.id))
      .map(({ authorId: _author, ...record }) => record);
    // Throws (nothing written) when the person's own data has no room for them all.
    writeVisitorData(own.doc, { records, counters: {} });
    kept = records.length;
  } finally {
    space.release();
    own.release();
  }
  await discardSpaceCopy(accountId, spaceId);
  return kept;
}
