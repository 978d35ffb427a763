import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_OUTPUT_INVALID_MESSAGE } from '@pipit/protocol';
import {
  type AiStandIn,
  type RunningPipit,
  type StandInRequest,
  startAiStandIn,
  startPipit,
} from '@pipit/sync-server/testing';
import { definitionOf } from '../sync-server/test/support/publishing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';
import { deviceOf, type Person, signInContext, signUp } from './support/people';
import {
  appScreens,
  goOffline,
  goOnline,
  openInstalledApp,
  poll,
  publishApp,
} from './support/visitor';

/**
 * /docs/ai-actions' worked example, as a visitor uses it: "Make shopping list" on a recipe of the
 * recipe-book template runs the AI action "Shopping list" against a local OpenAI-compatible
 * stand-in, and a shopping list record appears in the visitor's own data — online, and queued
 * offline until the device is back. An answer that does not fit (twice) saves nothing and says so.
 */
describe('AI actions in the installed app', () => {
  let ai: AiStandIn;
  let pipit: RunningPipit;
  let creator: Person;
  let visitor: Person;
  let appId: string;
  /** One browser; each person is a context in it. */
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
    ai = await startAiStandIn();
    pipit = await startPipit({ env: ai.env() });
    creator = await signUp(pipit, 'rosa');
    visitor = await signUp(pipit, 'vera');
    appId = await publishApp(
      pipit,
      creator,
      definitionOf({ title: 'Family recipes' }, 'recipe-book'),
    );
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
    await ai?.close();
  });

  /** The structured answer the model gives: the schema's properties filled in for `recipe`. */
  const shoppingList =
    (recipe: string, items: string | null = '- Lentils\n- Tomatoes') =>
    (request: StandInRequest) => {
      const schema = request.body.response_format?.json_schema?.schema as
        { properties?: Record<string, unknown> } | undefined;
      const answer: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema?.properties ?? {})) {
        const about = `${key} ${JSON.stringify(property)}`.toLowerCase();
        if (about.includes('servings')) answer[key] = 2;
        else if (about.includes('items')) answer[key] = items;
        else if (about.includes('name')) answer[key] = `Shopping for ${recipe}`;
      }
      return JSON.stringify(answer);
    };

  async function openRecipe(page: Page, name: string) {
    await appScreens(page)
      .getByRole('button', { name: /Recipes/ })
      .click();
    await page.getByText(name, { exact: true }).click();
    await page.getByRole('button', { name: 'Make shopping list' }).waitFor();
  }

  async function shoppingLists(page: Page): Promise<string[]> {
    await appScreens(page)
      .getByRole('button', { name: /Shopping/ })
      .click();
    await page.getByRole('heading', { name: 'Shopping lists' }).waitFor();
    const items = await page.locator('.rt-app-main li').allInnerTexts();
    return items.map((text) => text.split('\n')[0]!.trim()).filter((t) => t.startsWith('Shopping'));
  }

  const toast = (page: Page) => page.locator('.rt-toast');
  const aiRuns = (page: Page) => page.getByRole('region', { name: 'AI runs' });

  it('asks to sign in, makes a shopping list online and queued offline, and saves nothing from an answer that does not fit', async () => {
    const device = await browser.newContext({
      viewport: { width: 390, height: 844 },
      serviceWorkers: 'block',
    });
    try {
      let page = await device.newPage();
      const errors = collectPageErrors(page);

      // Not signed in: asked to sign in, with a link, and nothing is sent.
      await openInstalledApp(page, pipit.url, appId);
      await openRecipe(page, 'Weeknight tomato dal');
      await page.getByRole('button', { name: 'Make shopping list' }).click();
      await poll(() => toast(page).innerText()).toBe('Sign in to use AI in this app. Sign in');
      expect(await toast(page).getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(
        `/login?redirect=${encodeURIComponent(`/apps/${appId}/pwa`)}`,
      );
      expect(ai.completions).toHaveLength(0);
      expect(await axeViolations(page)).toEqual([]);

      await signInContext(device, pipit, visitor);
      await openInstalledApp(page, pipit.url, appId);
      // Signed in, the AI component offers its run instead of the sign-in link.
      await openRecipe(page, 'Weeknight tomato dal');
      await page.getByRole('button', { name: 'Suggest swaps' }).waitFor();

      // Online: the run sends the recipe's bound values only, and the record appears.
      ai.enqueue(shoppingList('Weeknight tomato dal'));
      await page.getByRole('button', { name: 'Make shopping list' }).click();
      await poll(() => toast(page).innerText()).toBe('Shopping list added');
      const sent = JSON.stringify(ai.completions.at(-1)?.body.messages);
      expect(sent).toContain('Weeknight tomato dal');
      expect(sent).toContain('250 g red lentils');
      expect(sent).not.toContain('Soften the onion'); // the method is not bound
      expect(await shoppingLists(page)).toEqual(['Shopping for Weeknight tomato dal']);

      // Offline: the run waits on the device, then runs when the device is back online.
      await goOffline(device, page);
      const before = ai.completions.length;
      await openRecipe(page, 'Overnight oats');
      await page.getByRole('button', { name: 'Make shopping list' }).click();
      await poll(() => toast(page).innerText()).toContain('queued');
      await poll(() => aiRuns(page).innerText()).toContain('Queued');
      expect(ai.completions.length).toBe(before);
      ai.enqueue(shoppingList('Overnight oats'));
      await goOnline(device, page);
      await poll(() => aiRuns(page).innerText()).toContain('Done');
      expect(await axeViolations(page)).toEqual([]);
      await poll(() => shoppingLists(page)).toEqual([
        'Shopping for Weeknight tomato dal',
        'Shopping for Overnight oats',
      ]);

      // Queued offline, the app closed, opened again online: the run lands then.
      await goOffline(device, page);
      await openRecipe(page, 'Weeknight tomato dal');
      await page.getByRole('button', { name: 'Make shopping list' }).click();
      await poll(() => aiRuns(page).innerText()).toContain('Queued');
      await page.close();
      await device.setOffline(false);
      ai.enqueue(shoppingList('Dal again'));
      page = await device.newPage();
      const reopenedErrors = collectPageErrors(page);
      // The server is out of reach for the first try (the network only just came back): the run
      // stays queued and is tried again within seconds, not at the next half-minute retry.
      let refused = 0;
      await page.route('**/api/ai/runs', async (route) => {
        if (refused > 0) return route.fallback();
        refused += 1;
        await route.abort('connectionrefused');
      });
      await openInstalledApp(page, pipit.url, appId);
      await poll(() => shoppingLists(page)).toEqual([
        'Shopping for Weeknight tomato dal',
        'Shopping for Overnight oats',
        'Shopping for Dal again',
      ]);
      expect(refused).toBe(1);

      // An answer without items, twice (the server's repair round too): nothing is saved.
      ai.enqueue(
        shoppingList('Weeknight tomato dal', null),
        shoppingList('Weeknight tomato dal', null),
      );
      await openRecipe(page, 'Weeknight tomato dal');
      await page.getByRole('button', { name: 'Make shopping list' }).click();
      // The server's words for it, shown as they come.
      await poll(() => toast(page).innerText()).toBe(AI_OUTPUT_INVALID_MESSAGE);
      expect(await shoppingLists(page)).toHaveLength(3);
      // The refused run's 422 and the try the network refused are the browser's own log lines;
      // nothing else went wrong.
      expect(
        [...errors, ...reopenedErrors].filter(
          (e) => !/status of 422|ERR_CONNECTION_REFUSED/.test(e),
        ),
      ).toEqual([]);
    } finally {
      await device.close();
    }
  });

  it('lets the creator try an AI action with sample values, showing what a run sends', async () => {
    const context = await deviceOf(browser, pipit, creator, {
      viewport: { width: 1440, height: 900 },
    });
    try {
      const page = await context.newPage();
      await page.goto(`${pipit.url}/apps/${appId}/edit`);
      await page.getByRole('tab', { name: 'Actions' }).click();
      const action = page.getByRole('group', { name: 'Shopping list' });
      await action.getByText(`To the model ${ai.model}.`).waitFor();
      const sends = await action.locator('.ai-sends__list').innerText();
      expect(sends).toContain('The filled-in prompt.');
      expect(sends).toContain('Name (record.');
      expect(sends).toContain('Ingredients (record.');
      expect(sends).toContain(`To the model ${ai.model}.`);
      // A record answer: its collection and each field, as the instructions and the schema say.
      expect(sends).toContain('The fields of a new record of “Shopping lists”');
      expect(sends).toContain('Name: Text, required');
      expect(sends).toContain('Items: Long text, required');
      expect(sends).toContain('Servings: Number, optional');
      await action.getByText('The instructions and the JSON schema, as sent').click();
      const asSent = await action.locator('.ai-sends__as-sent').innerText();
      expect(asSent).toContain('Answer with one JSON object for a new item of “Shopping lists”');
      expect(asSent).toContain('"required"');

      const before = ai.completions.length;
      ai.enqueue(shoppingList('Pancakes'));
      await action.getByRole('textbox', { name: /^Sample for Name/ }).fill('Pancakes');
      await action.getByRole('textbox', { name: /^Sample for Ingredients/ }).fill('Flour, eggs');
      await action.getByText('The filled-in prompt, with these samples').click();
      expect(await action.locator('.ai-try__prompt').innerText()).toContain(
        'This recipe is called "Pancakes"',
      );
      await action.getByRole('button', { name: 'Try it' }).click();
      await action.getByText('Name: Shopping for Pancakes').waitFor();
      const prompt = JSON.stringify(ai.completions[before]?.body.messages);
      expect(prompt).toContain('Pancakes');
      expect(prompt).toContain('Flour, eggs');
      expect(await axeViolations(page, '.properties-section')).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says AI is not configured on a server without a provider, in the editor and the app', async () => {
    const plain = await startPipit();
    const owner = await signUp(plain, 'otto');
    const id = await publishApp(plain, owner, definitionOf({ title: 'Plain' }, 'recipe-book'));
    const context = await deviceOf(browser, plain, owner, {
      viewport: { width: 1440, height: 900 },
    });
    try {
      const page = await context.newPage();
      await page.goto(`${plain.url}/apps/${id}/edit`);
      await page.getByRole('tab', { name: 'Actions' }).click();
      await page
        .getByText('AI is not configured on this server.', { exact: false })
        .first()
        .waitFor();
      const action = page.getByRole('group', { name: 'Shopping list' });
      expect(await action.getByRole('button', { name: 'Try it' }).isDisabled()).toBe(true);

      await openInstalledApp(page, plain.url, id);
      await openRecipe(page, 'Weeknight tomato dal');
      await page.getByText('AI is not configured on this server').first().waitFor();
      await page.getByRole('button', { name: 'Make shopping list' }).click();
      await poll(() => toast(page).innerText()).toBe('AI is not configured on this server');
    } finally {
      await context.close();
      await plain.close();
    }
  });
});
