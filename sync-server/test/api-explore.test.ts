import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setMeta } from '@pipit/app-definition';
import { EXPLORE_PAGE_SIZE, type ExploreResponse, exploreResponseSchema } from '@pipit/protocol';
import { type ApiClient, errorCode } from './support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from './support/engines';
import { createPublishedApp, editDocument, verifyEmail } from './support/publishing';

describe.each(ENGINES)('GET /api/explore (%s)', (engine) => {
  let h: AccountsHarness;
  let ada: ApiClient;
  let bo: ApiClient;
  const apps: Record<string, string> = {};

  const explore = async (query: string) => {
    const response = await h.client().get<ExploreResponse>(`/api/explore${query}`);
    expect(response.status).toBe(200);
    return exploreResponseSchema.parse(response.body);
  };
  const titles = async (query: string) => (await explore(query)).apps.map((a) => a.title);

  beforeAll(async () => {
    h = await startAccountsServer(engine, { storeDebounceMs: 50 });
    ada = await h.signup(`ada_${engine}`);
    bo = await h.signup(`bo_${engine}`);
    const adaId = await verifyEmail(h, ada);
    await verifyEmail(h, bo);
    await h.pipit.server.storage.users.update(adaId, { displayName: 'Ada Lovelace' });
    // Published in this order, so "new" lists them the other way round.
    apps.garden = await createPublishedApp(h, ada, {
      title: 'Garden planner',
      tags: ['garden', 'plants'],
    });
    apps.books = await createPublishedApp(h, ada, { title: 'Book club', tags: ['books'] });
    apps.swap = await createPublishedApp(h, bo, {
      title: 'Plant swap',
      description: 'Trade cuttings with neighbours (100% free)',
      tags: ['garden'],
    });
    await createPublishedApp(h, bo, { title: 'Secret garden', tags: ['garden'] }, 'private');
    await createPublishedApp(h, ada, { title: 'Garden diary', tags: ['garden'] }, 'unlisted');
  });
  afterAll(() => h.close());

  it('lists public published apps, newest first, with their cards and the top tags', async () => {
    const all = await explore('');
    expect(all.apps.map((a) => a.title)).toEqual(['Plant swap', 'Book club', 'Garden planner']);
    expect(all).toMatchObject({ page: 1, pageCount: 1, total: 3 });
    expect(all.apps[0]).toMatchObject({
      id: apps.swap,
      description: 'Trade cuttings with neighbours (100% free)',
      author: { username: `bo_${engine}` },
      version: 1,
      opens: 0,
      installs: 0,
    });
    expect(all.tags).toEqual([
      { tag: 'garden', count: 2 },
      { tag: 'books', count: 1 },
      { tag: 'plants', count: 1 },
    ]);
  });

  it('searches title, description, tags and the author, by word and case', async () => {
    expect(await titles('?q=GARDEN')).toEqual(['Plant swap', 'Garden planner']);
    expect(await titles('?q=cuttings')).toEqual(['Plant swap']);
    expect(await titles('?q=lovelace')).toEqual(['Book club', 'Garden planner']);
    expect(await titles(`?q=bo_${engine}`)).toEqual(['Plant swap']);
    expect(await titles(`?author=ada_${engine}`)).toEqual(['Book club', 'Garden planner']);
    expect(await titles('?q=100%25')).toEqual(['Plant swap']);
    expect(await titles('?q=%25%25%25')).toEqual([]);
    expect(await titles('?q=nothing-like-this')).toEqual([]);
  });

  it('filters by tag', async () => {
    expect(await titles('?tag=garden')).toEqual(['Plant swap', 'Garden planner']);
    expect(await titles('?tag=Plants')).toEqual(['Garden planner']);
    expect(await titles('?tag=garden&q=swap')).toEqual(['Plant swap']);
    expect(await titles('?tag=gard')).toEqual([]);
  });

  it('sorts by popularity once people open and install apps', async () => {
    await h.client().request('POST', `/api/apps/${apps.books}/events`, { body: { kind: 'open' } });
    await bo.request('POST', `/api/apps/${apps.books}/events`, { body: { kind: 'install' } });
    await bo.request('POST', `/api/apps/${apps.garden}/events`, { body: { kind: 'open' } });
    const popular = await explore('?sort=popular');
    expect(popular.apps.map((a) => [a.title, a.opens, a.installs])).toEqual([
      ['Book club', 1, 1],
      ['Garden planner', 1, 0],
      ['Plant swap', 0, 0],
    ]);
  });

  it('answers validation_failed for a malformed query', async () => {
    for (const query of [
      '?sort=best',
      '?page=0',
      '?page=two',
      '?page=1001',
      `?q=${'x'.repeat(101)}`,
      `?tag=${'t'.repeat(25)}`,
    ]) {
      const response = await h.client().get(`/api/explore${query}`);
      expect([query, response.status, errorCode(response)]).toEqual([
        query,
        400,
        'validation_failed',
      ]);
    }
  });

  it('takes an archived app out of explore, yet still serves it', async () => {
    const id = await createPublishedApp(h, bo, { title: 'Old recipes', tags: ['food'] });
    expect(await titles('?q=old recipes')).toEqual(['Old recipes']);
    await editDocument(h, bo, id, (doc) => setMeta(doc, { archived: true }));
    await vi.waitFor(async () => expect(await titles('?q=old recipes')).toEqual([]));
    expect((await explore('')).tags.map((t) => t.tag)).not.toContain('food');
    expect((await h.client().get(`/api/published/${id}`)).status).toBe(200);
  });

  it(`pages by ${EXPLORE_PAGE_SIZE}`, async () => {
    for (let p = 0; p < 3; p++) {
      const person = await h.signup(`pager${p}_${engine}`);
      await verifyEmail(h, person);
      for (let i = 0; i < 9; i++) {
        await createPublishedApp(h, person, { title: `Page app ${p}-${i}`, tags: ['paging'] });
      }
    }
    const first = await explore('?tag=paging');
    expect(first).toMatchObject({ page: 1, pageCount: 2, total: 27 });
    expect(first.apps).toHaveLength(EXPLORE_PAGE_SIZE);
    const second = await explore('?tag=paging&page=2');
    expect(second.apps.map((a) => a.title)).toEqual([
      'Page app 0-2',
      'Page app 0-1',
      'Page app 0-0',
    ]);
    const seen = new Set([...first.apps, ...second.apps].map((a) => a.id));
    expect(seen.size).toBe(27);
    expect((await explore('?tag=paging&page=3')).apps).toEqual([]);
  });
});
