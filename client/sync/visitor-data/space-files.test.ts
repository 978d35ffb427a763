// First: IndexedDB must exist before Dexie loads.
import { fakeBrowser } from '../../test-support/fake-browser';
import {
  type Collection,
  createVisitorRecord,
  fieldSchema,
  formatFileReference,
  type ReadDefinition,
  readVisitorData,
  removeVisitorRecord,
  setCounter,
  updateVisitorRecord,
} from '@pipit/app-definition';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import type { VisitorDataView } from './view';

/*
 * A record moved into a space takes its photo along: the bytes on this device are queued for the
 * space, since a space's members cannot read the person's own data. fake-indexeddb.
 */

const plants: Collection = {
  id: 'plants',
  name: 'Plants',
  fields: [
    fieldSchema.parse({ id: 'name', name: 'Name', type: 'text' }),
    fieldSchema.parse({ id: 'photo', name: 'Photo', type: 'image' }),
  ],
  records: [],
  sharing: 'space',
  recordRule: 'anyone',
};
const definition = { collections: [plants] } as unknown as ReadDefinition;
const HASH = 'c'.repeat(64);

function viewOf(doc: Y.Doc): () => VisitorDataView {
  return () => ({
    phase: 'ready',
    sync: { kind: 'saved' },
    presence: [],
    data: {
      ...readVisitorData(doc),
      create: (collection, values) => createVisitorRecord(doc, collection, values),
      update: (collection, id, values) => updateVisitorRecord(doc, collection, id, values),
      remove: (id) => void removeVisitorRecord(doc, id),
      setCounter: (id, value) => setCounter(doc, id, value),
    },
  });
}

beforeEach(() => {
  fakeBrowser({ online: true });
});
afterEach(() => vi.unstubAllGlobals());

describe('a record with a photo moved into a space', () => {
  it('queues the photo for the space', async () => {
    const { combineAppData } = await import('./app-data');
    const { localDb } = await import('../core/local-db');
    const own = new Y.Doc();
    const space = new Y.Doc();
    createVisitorRecord(own, plants, {
      name: 'Fern',
      photo: formatFileReference({ hash: HASH, size: 10, type: 'image/png', name: 'fern.png' }),
    });
    const app = combineAppData(
      viewOf(own)(),
      viewOf(space)(),
      definition,
      { role: 'member', people: {}, id: 'spacespacespacespacespace2' },
      'ada',
    );
    expect(app.moveIntoSpace()).toBe(1);
    await vi.waitFor(async () =>
      expect(await localDb().pendingUploads.toArray()).toEqual([
        expect.objectContaining({
          owner: 'ada',
          path: `/api/spaces/spacespacespacespacespace2/files/${HASH}`,
          hash: HASH,
          kind: 'image',
        }),
      ]),
    );
  });
});
