import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Y from 'yjs';
import { setMeta } from '@pipit/app-definition';
import { apiErrorSchema, PLAN_LIMITS, type Publication, type PublishedApp } from '@pipit/protocol';
import { type ApiClient, errorCode } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import {
  createApp,
  createPublishedApp,
  definitionOf,
  editDocument,
  publish,
  verifyEmail,
  shareApp,
} from '../support/publishing';

/** A component of the document by its type, to write into it what the editor never would. */
function componentOf(doc: Y.Doc, type: string): [string, Y.Map<unknown>] {
  for (const [id, entity] of doc.getMap<Y.Map<unknown>>('components')) {
    if (entity.get('type') === type) return [id, entity];
  }
  throw new Error(`no ${type} component`);
}

describe.each(ENGINES)('publishing over REST (%s)', (engine) => {
  let h: AccountsHarness;
  let ada: ApiClient;
  let editor: ApiClient;
  let viewer: ApiClient;
  let stranger: ApiClient;

  /** An app of Ada's with an editor and a viewer invited. */
  async function sharedApp() {
    const id = await createApp(h, ada);
    await shareApp(ada, id, [
      [`ed_${engine}`, 'editor'],
      [`vi_${engine}`, 'viewer'],
    ]);
    return id;
  }

  const versionsOf = async (id: string) =>
    (await h.pipit.server.storage.publishing.versions(id)).map((v) => v.number);

  beforeAll(async () => {
    // The store debounce is left long: publishing must read edits that are only in the update log.
    h = await startAccountsServer(engine);
    ada = await h.signup(`ada_${engine}`);
    editor = await h.signup(`ed_${engine}`);
    viewer = await h.signup(`vi_${engine}`);
    stranger = await h.signup(`st_${engine}`);
    await verifyEmail(h, ada);
  });
  afterAll(() => h.close());

  it('publishes version 1 then 2; each stays as it was published', async () => {
    const id = await createApp(h, ada, definitionOf({ title: 'Morning habits', tags: ['health'] }));
    const first = await publish(ada, id);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      visibility: 'public',
      published: true,
      latestVersion: 1,
      versions: [{ number: 1, publisher: { username: `ada_${engine}` } }],
    });

    // An edit acknowledged a moment ago (not yet in the stored snapshot) is in the next version.
    await editDocument(h, ada, id, (doc) => setMeta(doc, { title: 'Evening habits' }));
    const second = await publish(ada, id);
    expect(second.body.latestVersion).toBe(2);
    expect(second.body.versions.map((v) => v.number)).toEqual([2, 1]);

    const served = await h.client().get<PublishedApp>(`/api/published/${id}`);
    expect(served.body).toMatchObject({ version: 2, title: 'Evening habits', tags: ['health'] });
    expect(served.body.definition).toMatchObject({ meta: { title: 'Evening habits' } });

    // Editing after publishing changes neither version.
    await editDocument(h, ada, id, (doc) => setMeta(doc, { title: 'Night habits' }));
    const v1 = await h.pipit.server.storage.publishing.version(id, 1);
    expect(JSON.parse(v1!.definitionJson)).toMatchObject({ meta: { title: 'Morning habits' } });
    const again = await h.client().get<PublishedApp>(`/api/published/${id}`);
    expect(again.body).toMatchObject({ version: 2, title: 'Evening habits' });
  });

  it('reads the stored document once no one has it open', async () => {
    const id = await createApp(h, ada, definitionOf({ title: 'Stored only' }));
    const name = `app/${id}`;
    await vi.waitFor(() => expect(h.pipit.server.hocuspocus.documents.has(name)).toBe(false), {
      timeout: 15_000,
    });
    expect((await publish(ada, id)).status).toBe(201);
    const v1 = await h.pipit.server.storage.publishing.version(id, 1);
    expect(v1?.title).toBe('Stored only');
  });

  it('refuses an invalid definition with each problem’s path and entity, storing nothing', async () => {
    const definition = definitionOf({ title: 'Links' });
    // The habit tracker's first screen has buttons; add an image to point somewhere it must not.
    definition.screens[0]!.components.push({
      id: 'image-1',
      type: 'image',
      props: { src: '', alt: '', fit: 'cover' },
    });
    const id = await createApp(h, ada, definition);
    let buttonId = '';
    await editDocument(h, ada, id, (doc) => {
      (componentOf(doc, 'image')[1].get('props') as Y.Map<unknown>).set(
        'src',
        'javascript:alert(1)',
      );
      const [button, entity] = componentOf(doc, 'button');
      buttonId = button;
      (entity.get('props') as Y.Map<unknown>).set('actionId', 'no-such-action');
    });

    const refused = await publish(ada, id);
    expect(refused.status).toBe(422);
    const { error } = apiErrorSchema.parse(refused.body);
    expect(error.code).toBe('publish_invalid');
    const imagePath = Object.keys(error.fields ?? {}).find((p) => p.endsWith('.props.src'));
    expect(imagePath).toMatch(/^screens\.0\.components\.\d+\.props\.src$/);
    expect(error.problems).toContainEqual({
      path: imagePath,
      message: expect.stringMatching(/https:\/\//) as string,
      entity: { table: 'components', id: 'image-1' },
    });
    expect(error.problems).toContainEqual({
      path: expect.stringMatching(/^screens\.\d+\.components\.\d+\.props\.actionId$/) as string,
      message: expect.stringMatching(/no longer exists/) as string,
      entity: { table: 'components', id: buttonId },
    });
    expect(await versionsOf(id)).toEqual([]);
    expect((await h.pipit.server.storage.apps.get(id))?.publishedAt).toBeNull();
  });

  it('lets only the owner publish; others are refused and nothing is stored', async () => {
    const id = await sharedApp();
    for (const [client, status, code] of [
      [editor, 403, 'forbidden'],
      [viewer, 403, 'forbidden'],
      [stranger, 404, 'not_found'],
      [h.client(), 401, 'unauthenticated'],
    ] as const) {
      const refused = await publish(client, id);
      expect([refused.status, errorCode(refused)]).toEqual([status, code]);
    }
    const unknown = await publish(ada, 'not-an-id');
    expect(errorCode(unknown)).toBe('not_found');
    expect(await versionsOf(id)).toEqual([]);
  });

  it('refuses a malformed body, a foreign origin and an unverified email, storing nothing', async () => {
    const id = await createApp(h, ada);
    const bad = await ada.request('POST', `/api/apps/${id}/versions`, {
      body: { visibility: 'everyone' },
    });
    expect([bad.status, errorCode(bad)]).toEqual([400, 'validation_failed']);
    const notJson = await ada.request('POST', `/api/apps/${id}/versions`, {
      headers: { 'Content-Type': 'text/plain' },
      body: 'publish',
    });
    expect(errorCode(notJson)).toBe('unsupported_media_type');
    const crossSite = await ada.request('POST', `/api/apps/${id}/versions`, {
      body: {},
      headers: { 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(errorCode(crossSite)).toBe('forbidden');

    const newcomer = await h.signup(`new_${engine}`);
    const theirs = await createApp(h, newcomer);
    const unverified = await publish(newcomer, theirs);
    expect([unverified.status, errorCode(unverified)]).toEqual([403, 'email_not_verified']);
    expect(await versionsOf(id)).toEqual([]);
    expect(await versionsOf(theirs)).toEqual([]);
  });

  it(`publishes at most ${PLAN_LIMITS.publishedApps} apps at once; republishing one still works`, async () => {
    const many = await h.signup(`many_${engine}`);
    await verifyEmail(h, many);
    const ids: string[] = [];
    for (let i = 0; i < PLAN_LIMITS.publishedApps; i++) ids.push(await createPublishedApp(h, many));
    const extra = await createApp(h, many);
    const over = await publish(many, extra);
    expect([over.status, errorCode(over)]).toEqual([403, 'limit_reached']);
    expect(await versionsOf(extra)).toEqual([]);
    expect((await publish(many, ids[0]!)).body.latestVersion).toBe(2);
    // Unpublishing one makes room.
    await many.request('DELETE', `/api/apps/${ids[1]}/publication`);
    expect((await publish(many, extra)).status).toBe(201);
  });

  it('shows the publication to the owner and collaborators only', async () => {
    const id = await sharedApp();
    await publish(ada, id, 'unlisted');
    for (const client of [ada, editor, viewer]) {
      const seen = await client.get<Publication>(`/api/apps/${id}/publication`);
      expect(seen.body).toMatchObject({
        visibility: 'unlisted',
        published: true,
        latestVersion: 1,
      });
    }
    expect(errorCode(await stranger.get(`/api/apps/${id}/publication`))).toBe('not_found');
    expect(errorCode(await h.client().get(`/api/apps/${id}/publication`))).toBe('unauthenticated');
    const draft = await createApp(h, ada);
    const none = await ada.get<Publication>(`/api/apps/${draft}/publication`);
    expect(none.body).toEqual({
      visibility: 'private',
      published: false,
      latestVersion: null,
      versions: [],
    });
  });

  it('changes visibility and unpublishes, which changes what a visitor sees', async () => {
    const id = await sharedApp();
    const anonymous = h.client();
    const seen = () => anonymous.get(`/api/published/${id}`).then((r) => r.status);
    await publish(ada, id);
    expect(await seen()).toBe(200);

    const byEditor = await editor.request('PUT', `/api/apps/${id}/visibility`, {
      body: { visibility: 'private' },
    });
    expect(errorCode(byEditor)).toBe('forbidden');
    const bad = await ada.request('PUT', `/api/apps/${id}/visibility`, {
      body: { visibility: 'secret' },
    });
    expect(errorCode(bad)).toBe('validation_failed');
    expect(await seen()).toBe(200);

    const hidden = await ada.request<Publication>('PUT', `/api/apps/${id}/visibility`, {
      body: { visibility: 'private' },
    });
    expect(hidden.body.visibility).toBe('private');
    expect(await seen()).toBe(404);
    await ada.request('PUT', `/api/apps/${id}/visibility`, { body: { visibility: 'unlisted' } });
    expect(await seen()).toBe(200);

    expect(errorCode(await viewer.request('DELETE', `/api/apps/${id}/publication`))).toBe(
      'forbidden',
    );
    expect(errorCode(await stranger.request('DELETE', `/api/apps/${id}/publication`))).toBe(
      'not_found',
    );
    const unpublished = await ada.request<Publication>('DELETE', `/api/apps/${id}/publication`);
    expect(unpublished.body).toMatchObject({ published: false, latestVersion: 1 });
    expect(await seen()).toBe(404);
    // Publishing again keeps the chosen visibility and takes the next number.
    const again = await publish(ada, id);
    expect(again.body).toMatchObject({ visibility: 'unlisted', latestVersion: 2 });
    expect(await seen()).toBe(200);
  });
});
