import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentName } from '@pipit/protocol';
import type { ApiClient } from '../support/api-client';
import {
  type AccountsHarness,
  ENGINES,
  startAccountsServer,
  TEST_PASSWORD,
} from '../support/engines';
import { acknowledged, connectProvider, type TestProvider } from '../support/provider';
import { archiveApp, createPublishedApp, verifyEmail } from '../support/publishing';
import { sleep } from '../support/timing';

/**
 * Deleting an account removes its data (docs/product/accounts.md), and deleting an app forever
 * removes its visitors' data with it — including documents open at that moment, which must not come
 * back when their last changes would have been stored on unload.
 */
describe.each(ENGINES)('data removal (%s)', (engine) => {
  let h: AccountsHarness;
  let ada: ApiClient;
  let bo: ApiClient;
  const ids: Record<string, string> = {};
  const open: TestProvider[] = [];

  const idOf = async (client: ApiClient) =>
    (await client.get<{ account: { id: string } }>('/api/auth/session')).body.account.id;
  /** Whether storage holds anything of a document (snapshot or logged updates). */
  const stored = async (name: string) => {
    const { snapshot, log } = await h.pipit.server.storage.documents.loadWithLog(name);
    return snapshot !== null || log.length > 0;
  };
  /** Opens a document as `client` and writes into it, leaving the connection open. */
  async function writeInto(client: ApiClient, name: string, key: string) {
    const side = connectProvider({ url: h.pipit.url, name, cookie: client.cookie });
    open.push(side);
    if (!(await side.ready)) throw new Error(`the server refused ${name}`);
    side.doc.getMap('records').set(key, { note: `written by ${key}` });
    await acknowledged(side.provider);
    return side;
  }
  // Long enough that an open document still has changes to store when it is deleted (closing its
  // last connection would store them at once). Whether that store lands before or after the
  // delete is a race here; collab-persistence-guard.test.ts shows the ordering deterministically.
  const storeDebounceMs = 5_000;
  // A fixed wait on purpose: the checks after it are that nothing is stored again, which no event
  // announces.
  const settle = () => sleep(1_000);

  beforeAll(async () => {
    h = await startAccountsServer(engine, { storeDebounceMs });
    ada = await h.signup(`ada_rm_${engine}`);
    bo = await h.signup(`bo_rm_${engine}`);
    await verifyEmail(h, ada);
    await verifyEmail(h, bo);
    ids.ada = await idOf(ada);
    ids.bo = await idOf(bo);
  });
  afterAll(async () => {
    open.forEach((side) => side.destroy());
    await h.close();
  });

  it('deletes an app forever with every visitor’s data for it, open or not', async () => {
    const app = await createPublishedApp(h, ada, { title: 'Garden log' });
    const other = await createPublishedApp(h, ada, { title: 'Kept app' });
    const boData = documentName({ kind: 'data', appId: app, userId: ids.bo! });
    const boOther = documentName({ kind: 'data', appId: other, userId: ids.bo! });
    // Bo's data for the app is open and has just changed when the app is deleted.
    const live = await writeInto(bo, boData, 'bo');
    await writeInto(bo, boOther, 'bo');
    live.doc.getMap('records').set('late', { note: 'a last change' });
    await acknowledged(live.provider);

    await archiveApp(ada, app);
    expect((await ada.request('DELETE', `/api/apps/${app}`)).status).toBe(200);

    expect(await h.pipit.server.storage.apps.get(app)).toBeNull();
    expect(await stored(documentName({ kind: 'app', appId: app }))).toBe(false);
    expect(await stored(boData)).toBe(false);
    // A store on unload would have run by now: nothing came back.
    await settle();
    expect(await stored(boData)).toBe(false);
    expect(h.pipit.server.hocuspocus.documents.has(boData)).toBe(false);
    // Bo's data for another app is untouched.
    expect(await stored(boOther)).toBe(true);
  });

  it('deletes an account’s apps, its visitors’ data, its own data and index, and its place on shared apps', async () => {
    const cy = await h.signup(`cy_rm_${engine}`);
    await verifyEmail(h, cy);
    const cyId = await idOf(cy);
    const cyApp = await createPublishedApp(h, cy, { title: 'Cy’s recipes' });
    const boApp = await createPublishedApp(h, bo, { title: 'Bo’s reading list' });
    // Cy edits Bo's app too.
    expect(
      (
        await bo.request('PUT', `/api/apps/${boApp}/collaborators/cy_rm_${engine}`, {
          body: { role: 'editor' },
        })
      ).status,
    ).toBe(201);
    const names = {
      cyApp: documentName({ kind: 'app', appId: cyApp }),
      cyIndex: documentName({ kind: 'user', userId: cyId }),
      cyDataInBoApp: documentName({ kind: 'data', appId: boApp, userId: cyId }),
      boDataInCyApp: documentName({ kind: 'data', appId: cyApp, userId: ids.bo! }),
      boApp: documentName({ kind: 'app', appId: boApp }),
      boDataInBoApp: documentName({ kind: 'data', appId: boApp, userId: ids.bo! }),
      boIndex: documentName({ kind: 'user', userId: ids.bo! }),
    };
    const cyIndex = await writeInto(cy, names.cyIndex, 'cy');
    await writeInto(cy, names.cyDataInBoApp, 'cy');
    await writeInto(bo, names.boDataInCyApp, 'bo');
    await writeInto(bo, names.boDataInBoApp, 'bo');
    await writeInto(bo, names.boIndex, 'bo');
    // Cy's index is open with a change not stored yet when the account goes.
    cyIndex.doc.getMap('records').set('late', { note: 'a last change' });
    await acknowledged(cyIndex.provider);

    const deleted = await cy.request('DELETE', '/api/account', {
      body: { password: TEST_PASSWORD },
    });
    expect(deleted.status).toBe(204);
    await settle();

    const left = async () => {
      const kept: string[] = [];
      for (const [key, name] of Object.entries(names)) if (await stored(name)) kept.push(key);
      return kept;
    };
    expect(await left()).toEqual(['boApp', 'boDataInBoApp', 'boIndex']);
    expect(await h.pipit.server.storage.apps.get(cyApp)).toBeNull();
    expect(await h.pipit.server.storage.apps.collaborators(boApp)).toEqual([]);
    expect((await bo.get(`/api/apps/${boApp}`)).status).toBe(200);
    // Signed out everywhere, and the account is gone.
    expect((await cy.get('/api/account')).status).toBe(401);
    expect(await h.pipit.server.storage.users.findById(cyId)).toBeNull();
    // What was open is closed, and not written again.
    expect(h.pipit.server.hocuspocus.documents.has(names.cyIndex)).toBe(false);
    await settle();
    expect(await left()).toEqual(['boApp', 'boDataInBoApp', 'boIndex']);
  });
});
