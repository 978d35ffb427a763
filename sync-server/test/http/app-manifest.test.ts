import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestColors, themeSchema } from '@pipit/app-definition';
import { appPwaPaths, createId } from '@pipit/protocol';
import { REVALIDATE_CACHE } from '../../src/http/client-files';
import { type AppManifest, SHORT_NAME_MAX, shortName } from '../../src/pwa/app-manifest';
import type { ApiClient } from '../support/api-client';
import { type AccountsHarness, startAccountsServer } from '../support/engines';
import { createPublishedApp } from '../support/published-apps';

describe('the per-app manifest, GET /apps/{id}/manifest.webmanifest', () => {
  let h: AccountsHarness;
  let owner: ApiClient;
  let stranger: ApiClient;
  let viewer: ApiClient;
  let publicId: string;

  const get = (path: string, client?: ApiClient, headers: Record<string, string> = {}) =>
    fetch(`${h.pipit.url}${path}`, {
      headers: { ...(client?.cookie ? { Cookie: client.cookie } : {}), ...headers },
    });
  const manifestOf = (id: string, client?: ApiClient) => get(appPwaPaths(id).manifest, client);

  beforeAll(async () => {
    h = await startAccountsServer('sqlite');
    owner = await h.signup('manifest_owner');
    stranger = await h.signup('manifest_stranger');
    viewer = await h.signup('manifest_viewer');
    publicId = await createPublishedApp(h.pipit.server.storage, owner, {
      title: 'Morning pages journal',
      description: 'Three pages, every morning.',
      icon: { kind: 'emoji', emoji: '📓', background: '#224466' },
      theme: { preset: 'midnight', custom: { primary: '#123456' }, mode: 'light' },
    });
  });
  afterAll(() => h.close());

  it('describes the app: its own id, start URL and scope, names, colours and icons', async () => {
    const response = await manifestOf(publicId);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    expect(response.headers.get('cache-control')).toBe(REVALIDATE_CACHE);
    expect(response.headers.get('etag')).toMatch(/^"[\w-]{22}"$/);
    const manifest = (await response.json()) as AppManifest;
    const paths = appPwaPaths(publicId);
    const colors = manifestColors(
      themeSchema.parse({ preset: 'midnight', custom: { primary: '#123456' }, mode: 'light' }),
    );
    expect(manifest).toEqual({
      id: paths.page,
      start_url: paths.page,
      scope: paths.page,
      name: 'Morning pages journal',
      short_name: 'Morning',
      description: 'Three pages, every morning.',
      display: 'standalone',
      theme_color: '#123456',
      background_color: colors.backgroundColor,
      icons: [
        { src: paths.icon192, sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: paths.icon512, sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: paths.maskable512, sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    });
    expect(colors.themeColor).toBe('#123456');
    for (const icon of manifest.icons) {
      const image = await get(icon.src);
      expect(image.status, icon.src).toBe(200);
      expect(image.headers.get('content-type'), icon.src).toBe('image/png');
    }
  });

  it('answers HEAD with the headers and no body', async () => {
    for (const path of [appPwaPaths(publicId).manifest, appPwaPaths(publicId).icon192]) {
      const head = await fetch(`${h.pipit.url}${path}`, { method: 'HEAD' });
      expect(head.status, path).toBe(200);
      expect(head.headers.get('etag'), path).toBeTruthy();
      expect((await head.arrayBuffer()).byteLength, path).toBe(0);
    }
  });

  it('answers a revalidation with 304, and a changed app with a new ETag', async () => {
    const first = await manifestOf(publicId);
    const etag = first.headers.get('etag')!;
    const again = await get(appPwaPaths(publicId).manifest, undefined, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);

    const other = await createPublishedApp(h.pipit.server.storage, owner, { title: 'Other' });
    const stale = await get(appPwaPaths(other).manifest, undefined, { 'If-None-Match': etag });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('etag')).not.toBe(etag);
  });

  it('is there for anyone while the app is public or unlisted, archived too', async () => {
    const unlisted = await createPublishedApp(h.pipit.server.storage, owner, {
      title: 'Unlisted',
      visibility: 'unlisted',
    });
    expect((await manifestOf(unlisted)).status).toBe(200);
    expect((await manifestOf(unlisted, stranger)).status).toBe(200);

    const archived = await createPublishedApp(h.pipit.server.storage, owner, { title: 'Old' });
    await h.pipit.server.storage.apps.setArchived(archived, Date.now());
    expect((await manifestOf(archived)).status).toBe(200);
  });

  it('is not found for anyone else when the app is private, and found for its owner and collaborators', async () => {
    const id = await createPublishedApp(h.pipit.server.storage, owner, {
      title: 'Private diary',
      visibility: 'private',
    });
    const invited = await owner.request('PUT', `/api/apps/${id}/collaborators/manifest_viewer`, {
      body: { role: 'viewer' },
    });
    expect(invited.status).toBeLessThan(300);

    expect((await manifestOf(id)).status).toBe(404);
    expect((await manifestOf(id, stranger)).status).toBe(404);
    const mine = await manifestOf(id, owner);
    expect(mine.status).toBe(200);
    expect(((await mine.json()) as AppManifest).name).toBe('Private diary');
    expect((await manifestOf(id, viewer)).status).toBe(200);
    // The owner's copy is no key for a stranger.
    const etag = (await manifestOf(id, owner)).headers.get('etag')!;
    const probe = await get(appPwaPaths(id).manifest, stranger, { 'If-None-Match': etag });
    expect(probe.status).toBe(404);
    const icon = await get(appPwaPaths(id).icon192, stranger);
    expect(icon.status).toBe(404);
  });

  it('is not found for a draft or an unpublished app, except for the owner', async () => {
    const draft = await createPublishedApp(h.pipit.server.storage, owner, {
      title: 'Draft',
      publish: false,
    });
    expect((await manifestOf(draft)).status).toBe(404);
    expect((await manifestOf(draft, stranger)).status).toBe(404);
    const own = (await (await manifestOf(draft, owner)).json()) as AppManifest;
    const defaults = manifestColors(themeSchema.parse({}));
    expect([own.name, own.theme_color, own.background_color]).toEqual([
      'Draft',
      defaults.themeColor,
      defaults.backgroundColor,
    ]);

    const unpublished = await createPublishedApp(h.pipit.server.storage, owner, { title: 'Gone' });
    expect((await owner.request('DELETE', `/api/apps/${unpublished}/publication`)).status).toBe(
      200,
    );
    expect((await manifestOf(unpublished)).status).toBe(404);
    expect((await manifestOf(unpublished, owner)).status).toBe(200);
  });

  it('answers unknown and malformed ids, unknown files and other methods with 404, changing nothing', async () => {
    for (const path of [
      `/apps/${createId()}/manifest.webmanifest`,
      '/apps/not-an-id/manifest.webmanifest',
      `/apps/${publicId.toUpperCase()}/manifest.webmanifest`,
      `/apps/${publicId}x/manifest.webmanifest`,
      `/apps/${publicId}/icons/1024.png`,
      `/apps/${publicId}/icons/192.svg`,
      `/apps/${publicId}/icons/..%2f..%2fpackage.json`,
    ]) {
      const response = await get(path, owner);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toMatch(/^text\/plain/);
    }
    const before = await h.pipit.server.storage.apps.get(publicId);
    const post = await fetch(`${h.pipit.url}${appPwaPaths(publicId).manifest}`, {
      method: 'POST',
      headers: { Cookie: owner.cookie!, 'Content-Type': 'application/json' },
      body: '{"name":"x"}',
    });
    expect(post.status).toBe(404);
    expect(await h.pipit.server.storage.apps.get(publicId)).toEqual(before);
  });

  it('ignores a session cookie that is not a live session (treated as signed out)', async () => {
    const id = await createPublishedApp(h.pipit.server.storage, owner, {
      title: 'Secret',
      visibility: 'private',
    });
    const forged = `${owner.cookie!.split('=')[0]}=${'0'.repeat(32)}.forged`;
    const response = await get(appPwaPaths(id).manifest, undefined, { Cookie: forged });
    expect(response.status).toBe(404);
  });
});

describe('shortName', () => {
  it.each([
    ['Habits', 'Habits'],
    ['Reading list', 'Reading list'],
    ['Morning pages journal', 'Morning'],
    ['Recipes: weeknight dinners', 'Recipes'],
    ['Supercalifragilistic', 'Supercalifr…'],
    ['  Two   spaces  ', 'Two spaces'],
    ['🌱 Garden planner', '🌱 Garden'],
  ])('%j → %j', (title, short) => {
    expect(shortName(title)).toBe(short);
  });

  it('never gives more than 12 characters, an emoji counting as one', () => {
    for (const title of ['a'.repeat(60), '👩‍👩‍👧'.repeat(20), 'One two three four five']) {
      const short = [...new Intl.Segmenter().segment(shortName(title))];
      expect(short.length).toBeLessThanOrEqual(SHORT_NAME_MAX);
      expect(short.length).toBeGreaterThan(0);
    }
  });
});
