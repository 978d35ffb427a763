import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setMeta, writeDefinition } from '@pipit/app-definition';
import { type AppLineage, createId } from '@pipit/protocol';
import type { ApiClient } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { createApp, definitionOf, editDocument, publish, verifyEmail } from '../support/publishing';

/**
 * Found by a review: a remix's public page (`GET /api/published/{remix}`, `remixedFrom`) named the
 * original's version it was made from with that version's title, whoever read it. A collaborator's
 * remix of a version published while the original was private showed its title to anyone, signed
 * out included. The version and its title are named only to a reader who may read that version
 * (history/remix.ts); anyone else gets the version the original publishes now, with its title
 * (docs/product/history.md#remixes-that-pull-their-originals-updates).
 */
describe.each(ENGINES)('a remix’s page names only versions its reader may read (%s)', (engine) => {
  let h: AccountsHarness;
  let ada: ApiClient;
  let ben: ApiClient;
  let cy: ApiClient;
  let original: string;
  let cyRemix: string;

  const SECRET = 'Project Nightjar (acquisition)';
  const lineage = async (client: ApiClient, remix: string) => {
    const page = await client.get<{ remixedFrom: AppLineage | null }>(`/api/published/${remix}`);
    expect(page.status).toBe(200);
    return { remixedFrom: page.body.remixedFrom, text: JSON.stringify(page.body) };
  };
  const author = () => expect.objectContaining({ username: `ada_lt_${engine}` });
  const remixAndPublish = async (client: ApiClient, version: number, title: string) => {
    const remix = createId();
    const made = await client.post('/api/apps', {
      id: remix,
      title,
      forkedFrom: { appId: original, version },
    });
    expect(made.status).toBe(201);
    await editDocument(h, client, remix, (doc) => writeDefinition(doc, definitionOf({ title })));
    expect((await publish(client, remix, 'public')).status).toBe(201);
    return remix;
  };
  const publishTitled = async (title: string, visibility: 'private' | 'public') => {
    await editDocument(h, ada, original, (doc) => setMeta(doc, { title }));
    expect((await publish(ada, original, visibility)).status).toBe(201);
  };

  beforeAll(async () => {
    h = await startAccountsServer(engine);
    ada = await h.signup(`ada_lt_${engine}`);
    ben = await h.signup(`ben_lt_${engine}`);
    cy = await h.signup(`cy_lt_${engine}`);
    for (const client of [ada, ben, cy]) await verifyEmail(h, client);
    // Version 1 is published while private, under a secret title; version 2 is public.
    original = await createApp(h, ada, definitionOf({ title: SECRET }));
    expect((await publish(ada, original, 'private')).status).toBe(201);
    await publishTitled('Team planner', 'public');
    const invited = await ada.request(
      'PUT',
      `/api/apps/${original}/collaborators/cy_lt_${engine}`,
      {
        body: { role: 'editor' },
      },
    );
    expect(invited.status).toBe(201);
    // Cy, one of the original's people, remixes version 1 (hers to read) and publishes it.
    cyRemix = await remixAndPublish(cy, 1, 'My planner');
  });
  afterAll(() => h.close());

  it('names the version the original publishes now to a signed-out or signed-in stranger', async () => {
    for (const reader of [h.client(), ben]) {
      const { remixedFrom, text } = await lineage(reader, cyRemix);
      expect(remixedFrom).toEqual({
        appId: original,
        version: 2,
        title: 'Team planner',
        author: author(),
      });
      expect(text).not.toContain('Nightjar');
    }
  });

  it('names the version it was made from to the original’s people', async () => {
    for (const reader of [ada, cy]) {
      expect((await lineage(reader, cyRemix)).remixedFrom).toEqual({
        appId: original,
        version: 1,
        title: SECRET,
        author: author(),
      });
    }
  });

  it('never shows a stranger the original’s live title, only a published one', async () => {
    // The original's row holds the live document's title (a draft nobody published).
    const stored = await h.pipit.server.storage.apps.get(original);
    await h.pipit.server.storage.apps.updateListing(original, {
      title: 'Draft: Project Osprey',
      description: stored!.description,
      icon: stored!.icon,
      tags: stored!.tags,
      updatedAt: Date.now(),
    });
    const { text } = await lineage(h.client(), cyRemix);
    expect(text).not.toContain('Osprey');
    expect(text).not.toContain('Nightjar');
  });

  it('keeps naming a version the original published for everyone, after newer ones', async () => {
    // Ben remixes version 2, which the original published for everyone then.
    const benRemix = await remixAndPublish(ben, 2, 'Ben’s planner');
    await publishTitled('Team planner, second edition', 'public');
    expect((await lineage(h.client(), benRemix)).remixedFrom).toMatchObject({
      version: 2,
      title: 'Team planner',
    });
    // Cy's remix of the private version now reads as the newest public one.
    expect((await lineage(h.client(), cyRemix)).remixedFrom).toMatchObject({
      version: 3,
      title: 'Team planner, second edition',
    });
    // The original private again: no lineage for a stranger at all, as before.
    await ada.request('PUT', `/api/apps/${original}/visibility`, {
      body: { visibility: 'private' },
    });
    expect((await lineage(h.client(), cyRemix)).remixedFrom).toBeNull();
    expect((await lineage(cy, cyRemix)).remixedFrom).toMatchObject({ version: 1, title: SECRET });
  });
});
