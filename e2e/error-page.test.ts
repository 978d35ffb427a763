import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { genericErrorMessage } from '@pipit/protocol';
import { insertUser, type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { collectPageErrors, launchBrowser } from './support/browser';

describe('the generic error page (docs/product/errors.md)', () => {
  let browser: Browser;
  let pipit: RunningPipit | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await pipit?.close();
    pipit = undefined;
  });
  afterAll(() => browser?.close());

  async function startWithAda() {
    pipit = await startPipit();
    await insertUser(pipit.server.storage, { username: 'ada', displayName: 'Ada Lovelace' });
    return pipit;
  }

  it('shows the exact message, with the real host and no digest, when a route throws while loading', async () => {
    const { url } = await startWithAda();
    // With a session cookie (a stale one will do) the page is the shell, whose route asks the API
    // itself; without one, the server renders the profile and sends its data along.
    const context = await browser.newContext();
    await context.addCookies([{ name: 'pipit-session', value: 'stale.cookie', url }]);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    // The server answers with something the client's protocol schema rejects: the loader throws.
    await page.route('**/api/profiles/ada', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"unexpected":true}' }),
    );
    await page.goto(`${url}/ada`);
    const message = page.getByTestId('error-message');
    await message.waitFor();
    const host = new URL(url).host;
    expect(await message.textContent()).toBe(genericErrorMessage(host));
    expect(await message.textContent()).toBe(
      `Application error: a client-side (or server-side) exception has occurred while loading ${host} (see the browser console or server logs for more information).`,
    );
    expect(await page.getByTestId('error-digest').count()).toBe(0);
    expect(errors.join('\n')).toMatch(/ZodError|invalid/i); // the cause is in the browser console
    await context.close();
  });

  it('shows the server’s digest when the failure came from the server, and the server logged it', async () => {
    const running = await startWithAda();
    const { users } = running.server.storage;
    const findByUsername = users.findByUsername.bind(users);
    users.findByUsername = () => Promise.reject(new Error('replica lag exceeded'));
    const page = await browser.newPage();
    await page.goto(`${running.url}/ada`);
    await page.getByTestId('error-message').waitFor();
    expect(await page.getByTestId('error-message').textContent()).toBe(
      genericErrorMessage(new URL(running.url).host),
    );
    const digest = await page.getByTestId('error-digest').textContent();
    expect(digest).toMatch(/^[0-9a-f]{12}$/);
    // The site's navigation stays, so the person can go elsewhere.
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(1);
    const logged = running.logs.find((line) => line.digest === digest);
    expect(logged?.level).toBe('error');
    expect(logged?.err?.message).toBe('replica lag exceeded');

    // "Try again" reloads the route; once the server recovers, the page renders.
    users.findByUsername = findByUsername;
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Ada Lovelace');
    await page.close();
  });

  it('is what a document request gets when the server cannot serve the app at all', async () => {
    pipit = await startPipit({ clientDir: '/nonexistent/pipit-build' });
    const page = await browser.newPage();
    const response = await page.goto(`${pipit.url}/about`);
    expect(response?.status()).toBe(500);
    const host = new URL(pipit.url).host;
    expect(await page.locator('h1').textContent()).toBe(genericErrorMessage(host));
    const digest = await page.getByTestId('error-digest').textContent();
    expect(pipit.logs.find((l) => l.digest === digest)?.level).toBe('error');
    await page.close();
  });
});
