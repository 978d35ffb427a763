import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AiStandIn,
  type RunningPipit,
  type StandInRequest,
  startAiStandIn,
  startPipit,
} from '@pipit/sync-server/testing';
import { definitionOf } from '../sync-server/test/support/publishing';
import { collectPageErrors, launchPersistent } from './support/browser';
import { type Person, signInContext, signUp } from './support/people';
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
  let visitor: Person;
  let appId: string;

  beforeAll(async () => {
    ai = await startAiStandIn();
    pipit = await startPipit({ env: ai.env() });
    const creator = await signUp(pipit, 'rosa');
    visitor = await signUp(pipit, 'vera');
    appId = await publishApp(
      pipit,
      creator,
      definitionOf({ title: 'Family recipes' }, 'recipe-book'),
    );
  });
  afterAll(async () => {
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
    const device = await launchPersistent({ width: 390, height: 844 });
    try {
      const page = await device.context.newPage();
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

      await signInContext(device.context, pipit, visitor);
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
      await goOffline(device.context, page);
      const before = ai.completions.length;
      await openRecipe(page, 'Overnight oats');
      await page.getByRole('button', { name: 'Make shopping list' }).click();
      await poll(() => toast(page).innerText()).toContain('queued');
      await poll(() => aiRuns(page).innerText()).toContain('Queued');
      expect(ai.completions.length).toBe(before);
      ai.enqueue(shoppingList('Overnight oats'));
      await goOnline(device.context, page);
      await poll(() => aiRuns(page).innerText()).toContain('Done');
      await poll(() => shoppingLists(page)).toEqual([
        'Shopping for Weeknight tomato dal',
        'Shopping for Overnight oats',
      ]);

      // An answer without items, twice (the server's repair round too): nothing is saved.
      ai.enqueue(
        shoppingList('Weeknight tomato dal', null),
        shoppingList('Weeknight tomato dal', null),
      );
      await openRecipe(page, 'Weeknight tomato dal');
      await page.getByRole('button', { name: 'Make shopping list' }).click();
      await poll(() => toast(page).innerText()).toBe(
        'The AI’s answer didn’t fit, so nothing was saved. Try again.',
      );
      expect(await shoppingLists(page)).toHaveLength(2);
      // The refused run's 422 is the browser's own log line; nothing else went wrong.
      expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
    } finally {
      await device.close();
    }
  });
});
