import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertUser,
  makeOperator,
  type RunningPipit,
  startPipit,
} from '@pipit/sync-server/testing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';
import { deviceOf, type Person, signUp } from './support/people';

/**
 * The operator's inbox end to end ("Done when"): an error thrown in a visitor's browser,
 * and a server failure a person saw as a digest on the error page, both found by the operator at
 * /admin; anyone else gets the 404 page.
 */
describe('the operator’s inbox', () => {
  let browser: Browser;
  let pipit: RunningPipit;
  let olga: Person;
  let mia: Person;

  beforeAll(async () => {
    browser = await launchBrowser();
    pipit = await startPipit({
      env: { HUMAN_CHECK_DIFFICULTY: '500' },
    });
    olga = await signUp(pipit, 'olga');
    await makeOperator(pipit.server.storage, 'olga');
    mia = await signUp(pipit, 'mia');
    await insertUser(pipit.server.storage, { username: 'ada', displayName: 'Ada Lovelace' });
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
  });

  async function openInbox(): Promise<Page> {
    const context = await deviceOf(browser, pipit, olga, {
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    await page.goto(`${pipit.url}/admin`);
    await page.getByRole('heading', { name: 'Operator’s inbox', level: 1 }).waitFor();
    return page;
  }

  it('shows an error thrown in a visitor’s browser, with its route, browser and breadcrumbs', async () => {
    const visitor = await browser.newContext();
    const page = await visitor.newPage();
    await page.goto(`${pipit.url}/explore`);
    // The error-reporting SDK loads once the page is idle.
    await page.waitForFunction(() => {
      const carrier = (window as { __SENTRY__?: Record<string, unknown> }).__SENTRY__;
      return Boolean(carrier?.version && carrier[carrier.version as string]);
    });
    await page.getByRole('link', { name: 'About' }).first().click();
    await page.waitForURL(/\/about$/);
    await page.evaluate(() => {
      setTimeout(() => {
        throw new TypeError('The save button lost its habit');
      });
    });
    await expect
      .poll(
        async () =>
          (await pipit.server.storage.monitoring.listGroups({ limit: 50, offset: 0 })).total,
      )
      .toBeGreaterThan(0);
    await visitor.close();

    const inbox = await openInbox();
    const group = inbox.getByRole('button', { name: /The save button lost its habit/ });
    await group.waitFor();
    expect(await group.innerText()).toMatch(/Browser/);
    expect(await group.innerText()).toMatch(/1 time/);
    expect(await group.innerText()).toMatch(/\/about/);
    await group.click();
    expect(await group.getAttribute('aria-expanded')).toBe('true');
    await inbox.getByRole('heading', { name: /Breadcrumbs \(\d+\)/ }).waitFor();
    // The navigation from /explore to /about is among the breadcrumbs that led to the error.
    await inbox.getByText('to=/about', { exact: false }).first().waitFor();
    expect(await axeViolations(inbox)).toEqual([]);
    await inbox.context().close();
  });

  it('finds the digest a person saw when the server failed under their request', async () => {
    const { users } = pipit.server.storage;
    const findByUsername = users.findByUsername.bind(users);
    users.findByUsername = () => Promise.reject(new Error('the database went away mid-request'));
    const visitor = await browser.newContext();
    const page = await visitor.newPage();
    let digest: string | null;
    try {
      await page.goto(`${pipit.url}/ada`);
      digest = await page.getByTestId('error-digest').textContent();
    } finally {
      users.findByUsername = findByUsername;
    }
    expect(digest).toMatch(/^[0-9a-f]{12}$/);
    await visitor.close();

    const inbox = await openInbox();
    const errors = collectPageErrors(inbox);
    const field = inbox.getByLabel('Digest', { exact: true });
    await field.fill('not a digest');
    await inbox.getByRole('button', { name: 'Find' }).click();
    await inbox.getByText('A digest is 12 characters', { exact: false }).first().waitFor();
    await field.fill(digest!.toUpperCase());
    await inbox.getByRole('button', { name: 'Find' }).click();
    await inbox.getByText('the database went away mid-request').first().waitFor();
    await inbox.getByText('/api/profiles/ada').first().waitFor();
    await inbox.getByRole('heading', { name: 'Stack' }).waitFor();
    expect(errors).toEqual([]);
    await inbox.context().close();
  });

  it('is the 404 page for everyone else', async () => {
    for (const context of [await browser.newContext(), await deviceOf(browser, pipit, mia)]) {
      const page = await context.newPage();
      await page.goto(`${pipit.url}/admin`);
      await page.getByRole('heading', { name: 'Page not found', level: 1 }).waitFor();
      expect(await page.title()).toBe('Page not found · Pipit');
      expect(await page.getByText('Operator’s inbox').count()).toBe(0);
      await context.close();
    }
  });
});
