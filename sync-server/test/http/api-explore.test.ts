import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EXPLORE_PAGE_SIZE,
  exploreApiPath,
  type ExploreResponse,
  exploreResponseSchema,
  exploreSearchSchema,
} from '@pipit/protocol';
import { type ApiClient, errorCode } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { archiveApp, createPublishedApp, verifyEmail } from '../support/publishing';
import { ROOT_DIR } from '../support/start-server';

describe('the explore page’s address', () => {
  it('is read with the API’s own query schema (one normalisation for both)', () => {
    // The route module needs a browser bundle to import; its source says which schema it uses.
    const route = readFileSync(path.join(ROOT_DIR, 'client/routes/_site/explore.tsx'), 'utf8');
    expect(route).toMatch(/validateSearch: exploreSearchSchema,/);
    const page = readFileSync(path.join(ROOT_DIR, 'client/features/apps/explore-page.tsx'), 'utf8');
    expect(page).toMatch(/useApiGet\(exploreApiPath\(search\)/);
  });
});

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
    expect(await titles('?tag=%20Plants%20')).toEqual(['Garden planner']);
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

  it('finds for the page’s address what the page shows it searched for', async () => {
    // The explore page reads its address with the same schema and asks with exploreApiPath.
    const shown = exploreSearchSchema.parse({
      q: ' Plant ',
      tag: ' GARDEN',
      author: ` BO_${engine}`,
    });
    expect(shown).toMatchObject({ q: 'Plant', tag: 'garden', author: `bo_${engine}` });
    const found = await h.client().get<ExploreResponse>(exploreApiPath(shown));
    expect(exploreResponseSchema.parse(found.body).apps.map((a) => a.title)).toEqual([
      'Plant swap',
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
    await archiveApp(bo, id);
    expect(await titles('?q=old recipes')).toEqual([]);
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
