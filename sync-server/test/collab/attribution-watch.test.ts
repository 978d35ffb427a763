import { setMeta } from '@pipit/app-definition';
import { createId } from '@pipit/protocol';
import type { afterLoadDocumentPayload } from '@hocuspocus/server';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createAttribution } from '../../src/history/attribution';
import type { Logger } from '../../src/logger';
import type { NewAppChange, Storage } from '../../src/storage/types';
import { testClock } from '../support/clock';

/**
 * Who changed what watches each loaded app document until that very document is unloaded
 * (docs/product/history.md#who-changed-what). Hocuspocus may load a name again while the old
 * document's unload is still storing it (a connection arriving meanwhile): the old one's unload
 * must not end the new one's watch. Seen from outside as a Publish panel that never named who
 * made a change.
 */
describe('attribution’s watch of loaded documents', () => {
  function setUp() {
    const written: NewAppChange[] = [];
    const storage = {
      appChanges: {
        add: (rows: NewAppChange[]) => {
          written.push(...rows);
          return Promise.resolve(rows.length);
        },
        thin: () => Promise.resolve(0),
      },
    } as unknown as Storage;
    const quiet = { warn() {}, error() {}, info() {}, debug() {} } as unknown as Logger;
    const attribution = createAttribution({ storage, clock: testClock(), logger: quiet });
    const appId = createId();
    const load = (document: Y.Doc) =>
      attribution.extension.afterLoadDocument!({
        documentName: `app/${appId}`,
        document,
      } as unknown as afterLoadDocumentPayload);
    /**
     * What Hocuspocus's unload does (hocuspocus-server unloadDocument): the name leaves its
     * documents (a new one may be loading under it), the document is destroyed, then the
     * after-unload hooks run.
     */
    const unload = async (document: Y.Doc) => {
      document.destroy();
      await attribution.extension.afterUnloadDocument?.({
        documentName: `app/${appId}`,
        instance: { documents: new Map(), loadingDocuments: new Map() },
      } as never);
    };
    /** An edit as a person's connection makes it. */
    const edit = (document: Y.Doc, userId: string, title: string) =>
      document.transact(() => setMeta(document, { title }), {
        source: 'connection',
        connection: { readOnly: false, context: { userId } },
      });
    return { attribution, written, load, unload, edit };
  }

  it('keeps watching a document loaded again while the old one unloads', async () => {
    const { attribution, written, load, unload, edit } = setUp();
    const old = new Y.Doc();
    await load(old);
    const again = new Y.Doc();
    await load(again);
    // The old one's unload finishes after the new one was loaded.
    await unload(old);
    edit(again, 'ben', 'Habits by Ben');
    await attribution.flush();
    expect(written.map((w) => [w.authorId, w.entity, w.paths])).toEqual([
      ['ben', 'app', ['title']],
    ]);
    await attribution.stop();
  });

  it('stops watching a document once it is unloaded, and the old one once replaced', async () => {
    const { attribution, written, load, unload, edit } = setUp();
    const old = new Y.Doc();
    await load(old);
    const again = new Y.Doc();
    await load(again);
    edit(old, 'ada', 'Not counted');
    await unload(again);
    edit(again, 'ada', 'Not counted either');
    await attribution.flush();
    expect(written).toEqual([]);
    await attribution.stop();
  });
});
