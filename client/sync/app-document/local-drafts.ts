import { readDefinition } from '@pipit/app-definition';
import { createId, documentName, type DraftSummary } from '@pipit/protocol';
import { liveQuery } from 'dexie';
import { useEffect, useState } from 'react';
import { clearDocument } from 'y-indexeddb';
import * as Y from 'yjs';
import { type DocumentScope, localDatabaseName } from '../core/document-names';
import { writeLocalCopy } from '../core/document-scope';
import { openDocument } from '../core/documents';
import { type LocalDraft, localDb } from '../core/local-db';

export type { LocalDraft };

/*
 * Drafts of an app on this device (docs/product/drafts.md): started here, offline too — the
 * draft's document seeded from this device's copy of the app, the app as it was kept as its base
 * until the server has it — and those the server listed, so the draft opens offline as the app
 * does.
 */

const scopeOf = (owner: string): DocumentScope => ({ kind: 'account', accountId: owner });
const keyOf = (owner: string, appId: string, id: string) => `${owner}:${appId}:${id}`;
export const draftDocumentName = (appId: string, draftId: string) =>
  documentName({ kind: 'draft', appId, draftId });

/**
 * Starts a draft of the app on this device: its document is a copy of this device's copy of the
 * app (every collaborator's edits it holds), and the app as it is now is what the draft compares
 * against until it takes the app's changes in. Resolves with the draft's id once both are on disk.
 */
export async function startLocalDraft(owner: string, appId: string, name: string): Promise<string> {
  const scope = scopeOf(owner);
  const app = openDocument(documentName({ kind: 'app', appId }), scope, { connect: false });
  try {
    await app.whenLocal;
    const id = createId();
    await writeLocalCopy(scope, draftDocumentName(appId, id), Y.encodeStateAsUpdate(app.doc));
    await localDb().drafts.put({
      key: keyOf(owner, appId, id),
      owner,
      appId,
      id,
      name,
      createdAt: Date.now(),
      startedBy: null,
      registered: false,
      base: JSON.parse(JSON.stringify(readDefinition(app.doc))) as unknown,
    });
    return id;
  } finally {
    app.release();
  }
}

export const localDrafts = {
  of(owner: string, appId: string): Promise<LocalDraft[]> {
    return localDb().drafts.where('[owner+appId]').equals([owner, appId]).toArray();
  },

  waiting(owner: string): Promise<LocalDraft[]> {
    return localDb()
      .drafts.where('owner')
      .equals(owner)
      .filter((draft) => !draft.registered && draft.problem === undefined)
      .toArray();
  },

  async registered(draft: LocalDraft): Promise<void> {
    await localDb().drafts.update(draft.key, { registered: true, base: undefined });
  },

  async refused(draft: LocalDraft, problem: string): Promise<void> {
    await localDb().drafts.update(draft.key, { problem });
  },

  async rename(owner: string, appId: string, id: string, name: string): Promise<void> {
    await localDb().drafts.update(keyOf(owner, appId, id), { name });
  },

  /**
   * What the server lists: its open drafts are kept here (to open offline); those it says are
   * `gone` (merged or deleted: listed so, or answered 404 one by one) are forgotten with their
   * documents. A draft missing from a list is not taken for gone: the list may have been asked
   * for before it was registered. Drafts started here and not registered yet stay.
   */
  async merge(
    owner: string,
    appId: string,
    listed: readonly DraftSummary[],
    gone: ReadonlySet<string>,
  ): Promise<void> {
    for (const draft of await localDrafts.of(owner, appId)) {
      if (draft.registered && gone.has(draft.id)) await forgetLocalDraft(owner, appId, draft.id);
    }
    await localDb().drafts.bulkPut(
      listed
        .filter((d) => d.status === 'open')
        .map((d) => ({
          key: keyOf(owner, appId, d.id),
          owner,
          appId,
          id: d.id,
          name: d.name,
          createdAt: d.createdAt,
          startedBy: d.createdBy ? d.createdBy.displayName || d.createdBy.username : 'Someone',
          registered: true,
        })),
    );
  },
};

/** A draft gone (merged, deleted): its row and its document leave this device. */
export async function forgetLocalDraft(owner: string, appId: string, id: string): Promise<void> {
  await localDb().drafts.delete(keyOf(owner, appId, id));
  await clearDocument(localDatabaseName(scopeOf(owner), draftDocumentName(appId, id)));
}

/** This device's drafts of an app, live; undefined while they are read. */
export function useLocalDrafts(owner: string, appId: string): LocalDraft[] | undefined {
  const [drafts, setDrafts] = useState<LocalDraft[] | undefined>(undefined);
  useEffect(() => {
    const subscription = liveQuery(() => localDrafts.of(owner, appId)).subscribe({
      next: (rows) => setDrafts([...rows].sort((a, b) => b.createdAt - a.createdAt)),
      error: () => setDrafts([]),
    });
    return () => subscription.unsubscribe();
  }, [owner, appId]);
  return drafts;
}
