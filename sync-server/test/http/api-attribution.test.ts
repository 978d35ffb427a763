import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markTouched, readDefinition, setComponentProps, setMeta } from '@pipit/app-definition';
import type { AppChange, AppChangeList } from '@pipit/protocol';
import * as Y from 'yjs';
import { type ApiClient, errorCode } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { craft } from '../support/crafted-updates';
import { acknowledged, connectProvider } from '../support/provider';
import { RawSyncClient, updateMessage } from '../support/raw-sync';
import {
  createApp,
  definitionOf,
  editDocument,
  verifyEmail,
  shareApp,
} from '../support/publishing';

describe.each(ENGINES)('who changed what (%s)', (engine) => {
  let h: AccountsHarness;
  let ada: ApiClient;
  let ben: ApiClient;
  let viewer: ApiClient;
  let stranger: ApiClient;
  let appId: string;

  /** The app's changes once this instance has written what it gathered. */
  async function changesOf(client: ApiClient, query = '') {
    await h.pipit.server.attribution.flush();
    const response = await client.get<AppChangeList>(`/api/apps/${appId}/changes${query}`);
    expect(response.status).toBe(200);
    return response.body;
  }

  const who = (change: AppChange | undefined) =>
    change && `${change.kind}:${change.author?.username}`;

  beforeAll(async () => {
    h = await startAccountsServer(engine);
    ada = await h.signup(`ada_at_${engine}`);
    ben = await h.signup(`ben_at_${engine}`);
    viewer = await h.signup(`vi_at_${engine}`);
    stranger = await h.signup(`st_at_${engine}`);
    // Only a verified owner shares an app.
    await verifyEmail(h, ada);
    appId = await createApp(h, ada, definitionOf({ title: 'Habits' }));
    await shareApp(ada, appId, [
      [`ben_at_${engine}`, 'editor'],
      [`vi_at_${engine}`, 'viewer'],
    ]);
  });
  afterAll(() => h.close());

  it('credits each entity to the person whose edits Yjs integrated, property by property', async () => {
    const made = await changesOf(ada);
    // The app's creation: every entity it wrote, Ada's.
    expect(made.changes.length).toBeGreaterThan(1);
    expect(made.changes.every((c) => who(c) === `person:ada_at_${engine}`)).toBe(true);
    expect(made.changes.find((c) => c.entity === 'app')?.paths).toContain('title');

    const before = Date.now();
    await editDocument(h, ben, appId, (doc) => setMeta(doc, { title: 'Habits by Ben' }));
    const after = await changesOf(viewer, `?since=${before - 1}`);
    expect(after.changes).toEqual([
      expect.objectContaining({
        entity: 'app',
        id: 'app',
        paths: ['title'],
        kind: 'person',
        author: { username: `ben_at_${engine}`, displayName: `ben_at_${engine}` },
      }),
    ]);
    expect(after.more).toBe(false);
  });

  it('credits a change made offline to its author when it syncs', async () => {
    // Ben's device has the app, then loses the connection and edits it.
    const online = connectProvider({ url: h.pipit.url, name: `app/${appId}`, cookie: ben.cookie });
    expect(await online.ready).toBe(true);
    const device = new Y.Doc();
    Y.applyUpdate(device, Y.encodeStateAsUpdate(online.doc));
    online.destroy();
    const heading = readDefinition(device).screens[0]!.components[0]!;
    setComponentProps(device, heading.id, { text: 'Written on the train' });
    const since = Date.now();
    expect((await changesOf(ada, `?since=${since}`)).changes).toEqual([]);

    const back = connectProvider({
      url: h.pipit.url,
      name: `app/${appId}`,
      cookie: ben.cookie,
      doc: device,
    });
    try {
      expect(await back.ready).toBe(true);
      await acknowledged(back.provider);
    } finally {
      back.destroy();
    }
    const one = await changesOf(ada, `?entity=component&entityId=${heading.id}`);
    expect(one.changes[0]).toMatchObject({ paths: ['props.text'], kind: 'person' });
    expect(one.changes[0]!.author?.username).toBe(`ben_at_${engine}`);
    expect(one.changes[0]!.at).toBeGreaterThanOrEqual(since);
    // The component's own history, newest first: Ada made it.
    expect(who(one.changes.at(-1))).toBe(`person:ada_at_${engine}`);
  });

  it('credits what a mark names to what the person ran, and only what the same change made', async () => {
    const since = Date.now();
    await editDocument(h, ben, appId, (doc) =>
      doc.transact((tr) => {
        setMeta(doc, { description: 'Suggested by AI' });
        markTouched(doc, tr, 'ai');
      }),
    );
    const marked = await changesOf(ada, `?since=${since - 1}`);
    expect(marked.changes.map((c) => [c.entity, c.paths, who(c)])).toEqual([
      ['app', ['description'], `ai:ben_at_${engine}`],
    ]);

    // A mark naming what the change did not touch credits nothing to it; the rest is Ben's own.
    const later = Date.now();
    await editDocument(h, ben, appId, (doc) =>
      doc.transact(() => {
        setMeta(doc, { title: 'Habits again' });
        doc.getMap('authoring').set('change', { kind: 'restore', entities: ['theme:theme'] });
      }),
    );
    const forged = await changesOf(ada, `?since=${later - 1}`);
    expect(forged.changes.map((c) => [c.entity, who(c)])).toEqual([
      ['app', `person:ben_at_${engine}`],
    ]);
  });

  it('credits nobody with parts that waited for a change: another editor’s value never becomes theirs', async () => {
    // Ben's device, online: his next change will be his client's next clock.
    const benSide = connectProvider({ url: h.pipit.url, name: `app/${appId}`, cookie: ben.cookie });
    try {
      expect(await benSide.ready).toBe(true);
      const benClient = benSide.doc.clientID;
      const benNext = Y.getState(benSide.doc.store, benClient);
      // Ada sends a value for the app's description that builds on Ben's next change: it waits.
      const adaRaw = await RawSyncClient.open(h.pipit.url, `app/${appId}`, {
        cookie: ada.cookie,
      });
      try {
        const waiting = craft([
          [424_242, 0, [{ any: ['Ada’s words'], origin: [benClient, benNext] }]],
        ]);
        const answer = await adaRaw.sendAndAnswer(
          `app/${appId}`,
          updateMessage(`app/${appId}`, waiting),
        );
        expect(answer.type).not.toBe('socket-closed');
        const since = Date.now();
        // Ben's change brings Ada's in with it, in his transaction.
        setMeta(benSide.doc, { description: 'Ben’s words' });
        await acknowledged(benSide.provider);
        const after = await changesOf(ada, `?since=${since - 1}`);
        expect(after.changes.filter((c) => c.entity === 'app')).toEqual([]);
      } finally {
        adaRaw.close();
      }
    } finally {
      benSide.destroy();
    }
  });

  it('is read by whoever may read the history, and refuses a range it cannot show', async () => {
    expect((await stranger.get(`/api/apps/${appId}/changes`)).status).toBe(404);
    expect((await h.client().get(`/api/apps/${appId}/changes`)).status).toBe(401);
    for (const query of [
      '?since=soon',
      '?until=-4',
      '?entity=component',
      '?entity=planet&entityId=x',
    ]) {
      const refused = await ada.get(`/api/apps/${appId}/changes${query}`);
      expect(refused.status, query).toBe(400);
      expect(errorCode(refused), query).toBe('validation_failed');
    }
  });
});
