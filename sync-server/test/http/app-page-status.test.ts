import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId } from '@pipit/protocol';
import type { ApiClient } from '../support/api-client';
import { type AccountsHarness, startAccountsServer } from '../support/engines';
import { createPublishedApp } from '../support/published-apps';

/*
 * `/apps/{unknown}` and `/apps/{unknown}/edit` answered 200 with the shell,
 * and the page said "not found" after it loaded; unknown paths already answered 404. Now an app
 * page answers 404 when the asker may not see the app (the editor: is not its owner or a
 * collaborator) — the same shell, so the client still renders its page, and the same answer for an
 * unknown app as for someone else's private one.
 */
/** A response's headers but those that differ for every response. */
const headersOf = (response: Response) =>
  [...response.headers.entries()].filter(([name]) => !['date', 'x-request-id'].includes(name));

const SHELL =
  '<!doctype html><html><head><title>Pipit</title></head><body><div id="root"></div></body></html>';

describe('the status of /apps/{id} and /apps/{id}/edit', () => {
  let h: AccountsHarness;
  let dir: string;
  let owner: ApiClient;
  let stranger: ApiClient;
  let viewer: ApiClient;
  let publicApp: string;
  let privateApp: string;
  let draft: string;

  const get = (p: string, client?: ApiClient, method = 'GET') =>
    fetch(`${h.pipit.url}${p}`, {
      method,
      headers: { Accept: 'text/html', ...(client ? { Cookie: client.cookie! } : {}) },
    });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pipit-client-'));
    // A build without the server renderer: a visitor without a session gets the shell too.
    writeFileSync(path.join(dir, 'index.html'), SHELL);
    h = await startAccountsServer('sqlite', { clientDir: dir });
    owner = await h.signup('page_owner');
    stranger = await h.signup('page_stranger');
    viewer = await h.signup('page_viewer');
    const { storage } = h.pipit.server;
    publicApp = await createPublishedApp(storage, owner);
    privateApp = await createPublishedApp(storage, owner, { visibility: 'private' });
    draft = await createPublishedApp(storage, owner, { publish: false });
    const shared = await owner.request('PUT', `/api/apps/${privateApp}/collaborators/page_viewer`, {
      body: { role: 'viewer' },
    });
    expect(shared.status).toBeLessThan(300);
  });
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 404 with the shell for an app nobody made, signed in or not, GET or HEAD', async () => {
    for (const page of ['', '/edit']) {
      for (const who of [undefined, owner, stranger]) {
        const response = await get(`/apps/${createId()}${page}`, who);
        expect(response.status, `${page} ${who ? 'signed in' : 'signed out'}`).toBe(404);
        expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(response.headers.get('vary')).toBe('Accept-Encoding, Cookie');
        // The shell the client renders every page from, its not-found page and the editor too.
        expect(await response.text()).toBe(SHELL);
        const head = await get(`/apps/${createId()}${page}`, who, 'HEAD');
        expect(head.status).toBe(404);
      }
    }
  });

  it('answers a stranger about someone else’s private app exactly as about an unknown one', async () => {
    for (const page of ['', '/edit']) {
      const unknown = await get(`/apps/${createId()}${page}`, stranger);
      const unknownBody = await unknown.text();
      for (const id of [privateApp, draft]) {
        const strangers = await get(`/apps/${id}${page}`, stranger);
        expect(strangers.status, `${id}${page}`).toBe(404);
        expect(headersOf(strangers)).toEqual(headersOf(unknown));
        expect(await strangers.text()).toBe(unknownBody);
      }
      expect((await get(`/apps/${privateApp}${page}`)).status).toBe(404);
    }
  });

  it('answers 200 to the owner and collaborators, for the app page and the editor', async () => {
    for (const id of [publicApp, privateApp, draft]) {
      for (const page of ['', '/edit']) {
        const response = await get(`/apps/${id}${page}`, owner);
        expect(response.status, `${id}${page}`).toBe(200);
        expect(await response.text()).toBe(SHELL);
      }
    }
    expect((await get(`/apps/${privateApp}`, viewer)).status).toBe(200);
    expect((await get(`/apps/${privateApp}/edit`, viewer)).status).toBe(200);
  });

  it('shows a public app to anyone, and its editor only to its owner and collaborators', async () => {
    expect((await get(`/apps/${publicApp}`)).status).toBe(200);
    expect((await get(`/apps/${publicApp}`, stranger)).status).toBe(200);
    expect((await get(`/apps/${publicApp}/edit`, stranger)).status).toBe(404);
    // Signed out, the editor's page sends the person to sign in and back (the client's redirect).
    expect((await get(`/apps/${publicApp}/edit`)).status).toBe(404);
  });

  it('keeps 404 for paths that are no page, and 200 for the pages that are not an app’s', async () => {
    expect((await get(`/apps/not-an-id/edit`, owner)).status).toBe(404);
    expect((await get(`/apps`, owner)).status).toBe(200);
    expect((await get(`/studio`, owner)).status).toBe(200);
  });
});
