import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeOperator, type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { axeViolations } from './support/axe';
import { launchBrowser } from './support/browser';
import { deviceOf, type Person, signUp } from './support/people';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * AI usage on the operator's `/admin`: runs and tokens per UTC day and app, an empty
 * state before any run, and no prompt or answer anywhere.
 */
describe('AI usage on /admin', () => {
  let browser: Browser;
  let pipit: RunningPipit;
  let olga: Person;

  beforeAll(async () => {
    browser = await launchBrowser();
    pipit = await startPipit({ env: { HUMAN_CHECK_DIFFICULTY: '500' } });
    olga = await signUp(pipit, 'olga');
    await makeOperator(pipit.server.storage, 'olga');
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
  });

  async function openAdmin(): Promise<Page> {
    const context = await deviceOf(browser, pipit, olga, {
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    await page.goto(`${pipit.url}/admin`);
    await page.getByRole('heading', { name: 'AI usage', level: 2 }).waitFor();
    return page;
  }

  it('says there were no runs yet', async () => {
    const page = await openAdmin();
    await page.getByRole('heading', { name: 'No AI runs yet' }).waitFor();
    await page.context().close();
  });

  it('shows runs and tokens per day and app, newest day first', async () => {
    const storage = pipit.server.storage;
    const owner = await storage.users.findByUsername('olga');
    await storage.apps.insert({
      id: 'groceriesapp0000000000000a',
      ownerId: owner!.id,
      title: 'Groceries',
      description: '',
      icon: null,
      createdAt: Date.now(),
    });
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const usage = { appId: 'groceriesapp0000000000000a', userId: owner!.id };
    await storage.aiUsage.record({
      ...usage,
      day: today,
      runs: 12,
      promptTokens: 34_567,
      completionTokens: 8_910,
    });
    await storage.aiUsage.record({
      ...usage,
      day: today - DAY_MS,
      runs: 3,
      promptTokens: 300,
      completionTokens: 90,
    });

    const page = await openAdmin();
    const table = page.getByRole('region', { name: 'AI usage per day and app table' });
    await table.waitFor();
    const rows = await table.locator('tbody tr').allInnerTexts();
    const day = (at: number) => new Date(at).toISOString().slice(0, 10);
    expect(rows.map((row) => row.split('\t').map((cell) => cell.trim()))).toEqual([
      [day(today), 'Groceries', '1', '12', '34,567', '8,910'],
      [day(today - DAY_MS), 'Groceries', '1', '3', '300', '90'],
    ]);
    await page.getByText('15 runs and 43,867 tokens in the last 30 days').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });
});
