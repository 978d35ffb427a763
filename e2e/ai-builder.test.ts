import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppChangeList } from '@pipit/protocol';
import {
  type AiStandIn,
  type RunningPipit,
  startAiStandIn,
  startPipit,
  type StandInRequest,
} from '@pipit/sync-server/testing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';
import { deviceOf, type Person, signUp } from './support/people';

/**
 * The AI builder, as people use it: a creator describes an app and gets it (progress as it takes shape),
 * asks AI for a change while a collaborator edits the same screen (who sees the AI working, then
 * its suggestion in review), asks for a revision, takes part of the suggestion, and one Undo takes
 * that back while the collaborator's edit stays. On /demo, describing an app asks a
 * signed-out visitor to sign in first and makes a signed-in person's app in their account. The AI is
 * the OpenAI-compatible stand-in.
 */
const poll = <T>(value: () => T | Promise<T>) => expect.poll(value, { timeout: 15_000 });

async function shoot(page: Page, what: string) {
  const folder = process.env.PIPIT_SHOTS;
  if (folder)
    await page.screenshot({ path: `${folder}/${what}-${page.viewportSize()?.width}.png` });
}

const blueprint = {
  title: 'Family recipes',
  description: 'The recipes our family cooks.',
  icon: '🍲',
  theme: { preset: 'ember', accent: '' },
  collections: [
    {
      name: 'Recipes',
      fields: [
        { name: 'Title', type: 'text', required: true, choices: [] },
        { name: 'Minutes', type: 'number', required: false, choices: [] },
      ],
      samples: [['Lentil soup', 40]],
    },
  ],
  screens: [
    { title: 'Recipes', icon: '📖', kind: 'list', collection: 'Recipes', text: '', components: [] },
    {
      title: 'Recipe',
      icon: '🥘',
      kind: 'detail',
      collection: 'Recipes',
      text: '',
      components: [],
    },
    {
      title: 'Add a recipe',
      icon: '➕',
      kind: 'form',
      collection: 'Recipes',
      text: '',
      components: [],
    },
  ],
  actions: [],
};

interface Structure {
  collections: Array<{ id: string; name: string }>;
  screens: Array<{ id: string; title: string; components: Array<{ id: string; type: string }> }>;
}

/** The model's answer to Ask AI, made from the structure the server sent it (real ids). */
function ratingChange(request: StandInRequest) {
  const user = request.body.messages?.find((m) => m.role === 'user')?.content ?? '';
  const structure = JSON.parse(user.split('\n')[1] ?? '{}') as Structure;
  const recipes = structure.collections.find((c) => c.name === 'Recipes')!;
  const screen = structure.screens.find((s) => s.title === 'Recipes')!;
  const list = screen.components.find((c) => c.type === 'list')!;
  return {
    // The provider thinking, so the collaborator sees "AI for ada" meanwhile.
    delayMs: 2_000,
    content: JSON.stringify({
      operations: [
        {
          op: 'addField',
          ref: 'rating',
          collectionId: recipes.id,
          name: 'Rating',
          type: 'number',
          required: false,
          choices: [],
        },
        { op: 'setProperty', componentId: list.id, props: { subtitleFieldId: 'rating' } },
        {
          op: 'addComponent',
          ref: 'average',
          screenId: screen.id,
          type: 'stat',
          props: {
            label: 'Average rating',
            collectionId: recipes.id,
            aggregate: 'average',
            fieldId: 'rating',
          },
        },
      ],
    }),
  };
}

describe('AI builder in the browser', () => {
  let standIn: AiStandIn;
  let pipit: RunningPipit;
  let browser: Browser;
  let ada: Person;
  let cole: Person;
  let adaDevice: BrowserContext;
  let coleDevice: BrowserContext;
  let adaPage: Page;
  let colePage: Page;
  let appId: string;
  const errors: string[] = [];

  beforeAll(async () => {
    standIn = await startAiStandIn();
    pipit = await startPipit({ env: standIn.env() });
    browser = await launchBrowser();
    ada = await signUp(pipit, 'ada');
    cole = await signUp(pipit, 'cole');
    const desk = { viewport: { width: 1440, height: 900 } };
    adaDevice = await deviceOf(browser, pipit, ada, desk);
    coleDevice = await deviceOf(browser, pipit, cole, desk);
    adaPage = await adaDevice.newPage();
    colePage = await coleDevice.newPage();
    errors.push(...[adaPage, colePage].flatMap((p) => collectPageErrors(p)));
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
    await standIn?.close();
  });

  const treeRows = (page: Page) =>
    page
      .getByRole('list', { name: /^Components on / })
      .locator('.tree-row__name')
      .evaluateAll((rows) => rows.map((row) => row.textContent?.trim() ?? ''));
  const hasRow = async (page: Page, text: string) =>
    (await treeRows(page)).some((row) => row.includes(text));

  it('says so when the AI’s answer does not fit, and keeps the description', async () => {
    standIn.enqueue('not a blueprint', JSON.stringify({ title: 'Still not one' }));
    await adaPage.goto(`${pipit.url}/create`);
    const description = adaPage.getByLabel('Describe your app');
    await description.fill('A recipe book for our family, with cooking times');
    await adaPage.getByRole('button', { name: 'Create', exact: true }).click();
    await adaPage.getByText('did not fit').waitFor();
    expect(await description.inputValue()).toBe('A recipe book for our family, with cooking times');
    expect(adaPage.url()).toBe(`${pipit.url}/create`);
  });

  it('makes an app from a description, showing its collections and screens as they arrive', async () => {
    standIn.requests.length = 0;
    // The description kept from the failed attempt is tried again.
    standIn.enqueue({ content: JSON.stringify(blueprint), chunkSize: 16 });
    // Everything the progress list ever shows, recorded as the page changes.
    await adaPage.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        for (const item of document.querySelectorAll('[aria-label="Progress"] li')) {
          if (item.textContent && !seen.includes(item.textContent)) seen.push(item.textContent);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await adaPage.getByRole('button', { name: 'Create', exact: true }).click();
    await adaPage.waitForURL(/\/apps\/[a-z2-7]{26}\/edit$/);
    appId = /\/apps\/([a-z2-7]{26})\/edit$/.exec(adaPage.url())![1]!;
    await adaPage.getByRole('heading', { level: 1, name: 'Family recipes' }).waitFor();
    const seen = await adaPage.evaluate(
      () => (window as unknown as { progressSeen: string[] }).progressSeen,
    );
    expect(seen).toEqual(
      expect.arrayContaining(['Collection: Recipes', 'Screen: Recipes', 'Screen: Add a recipe']),
    );
    await poll(() => hasRow(adaPage, 'List')).toBe(true);
    const user = standIn.completions[0]?.body.messages?.find((m) => m.role === 'user')?.content;
    expect(user).toContain('A recipe book for our family, with cooking times');
  });

  it('suggests a change with Ask AI while a collaborator edits; the asker revises it, takes part of it, and one Undo takes that back only', async () => {
    await poll(async () => (await pipit.server.storage.apps.get(appId))?.ownerId).toBe(ada.id);
    const invited = await ada.api.request('PUT', `/api/apps/${appId}/collaborators/cole`, {
      body: { role: 'editor' },
    });
    expect(invited.status).toBeLessThan(300);
    await colePage.goto(`${pipit.url}/apps/${appId}/edit`);
    await colePage.getByRole('heading', { level: 1, name: 'Family recipes' }).waitFor();
    await adaPage.getByRole('img', { name: 'cole' }).waitFor();

    standIn.enqueue(ratingChange);
    await adaPage.getByRole('button', { name: 'Ask AI' }).click();
    const dialog = adaPage.getByRole('dialog', { name: 'Ask AI' });
    await dialog
      .getByLabel('What should change?')
      .fill('Add a rating from 1 to 5 to recipes and show it in the list');
    await dialog.getByRole('button', { name: 'Ask', exact: true }).click();

    // While the AI works, the collaborator sees it, and adds a divider to the same screen.
    await colePage.getByText('AI for ada').waitFor();
    await colePage.getByRole('button', { name: '+ Add component' }).click();
    await colePage
      .getByRole('list', { name: 'Component types' })
      .getByRole('button', { name: 'Divider', exact: true })
      .click();
    await poll(() => hasRow(adaPage, 'Divider')).toBe(true);

    // The suggestion, part by part, as History names changes; nothing is in the app yet.
    const parts = dialog.getByRole('group', { name: /^Take \d of 3 changes$/ });
    await parts.waitFor();
    expect(await dialog.locator('.ask-ai__asked blockquote').innerText()).toBe(
      'Add a rating from 1 to 5 to recipes and show it in the list',
    );
    // Each box: ticked or not, its label, and what it needs (its description).
    const labels = async () =>
      await parts.getByRole('checkbox').evaluateAll((boxes) =>
        boxes.map((box) => {
          const needs = document.getElementById(box.getAttribute('aria-describedby') ?? '');
          const ticked = (box as HTMLInputElement).checked ? '☑' : '☐';
          return `${ticked} ${box.parentElement?.textContent ?? ''}${needs ? ` — ${needs.textContent}` : ''}`;
        }),
      );
    expect(await labels()).toEqual([
      '☑ Changed List “Recipes” in Recipes (subtitle field) — Needs: Added Rating in Recipes',
      '☑ Added Stat “Average rating” in Recipes — Needs: Added Rating in Recipes',
      '☑ Added Rating in Recipes',
    ]);
    await colePage.getByText('AI suggestion for ada, in review').waitFor();
    expect(await hasRow(colePage, 'Average rating')).toBe(false);
    expect(await axeViolations(adaPage, 'dialog.editor-dialog')).toEqual([]);
    await shoot(adaPage, 'ask-ai-suggestion');

    // Asked again in the same conversation: the AI sees what it suggested, and answers anew.
    standIn.requests.length = 0;
    standIn.enqueue(ratingChange);
    await dialog.getByRole('button', { name: 'Ask for changes' }).click();
    await dialog
      .getByLabel('What should the AI change in its suggestion?')
      .fill('Call the stat the average rating');
    await dialog.getByRole('button', { name: 'Ask again' }).click();
    await parts.waitFor();
    const revision = standIn.completions[0]?.body.messages?.find((m) => m.role === 'user')?.content;
    expect(revision).toContain(
      '"asked":"Add a rating from 1 to 5 to recipes and show it in the list"',
    );
    expect(revision).toContain('"Add a stat to Recipes"');

    // Unticking the rating leaves out what needs it; ticking the list again takes the rating.
    await parts.getByRole('checkbox', { name: /^Added Rating/ }).uncheck();
    expect(await labels()).toEqual([
      '☐ Changed List “Recipes” in Recipes (subtitle field) — Needs: Added Rating in Recipes',
      '☐ Added Stat “Average rating” in Recipes — Needs: Added Rating in Recipes',
      '☐ Added Rating in Recipes',
    ]);
    expect(await dialog.getByRole('button', { name: /^Accept/ }).isDisabled()).toBe(true);
    await parts.getByRole('checkbox', { name: /^Changed List/ }).check();
    await dialog.getByRole('group', { name: 'Take 2 of 3 changes' }).waitFor();
    // The app as it would look with the two parts taken: the list, no stat.
    await dialog.getByRole('button', { name: 'Preview the app with these changes' }).click();
    const preview = dialog.getByRole('region', { name: /changes taken, read-only/ });
    await preview.getByText('Lentil soup').waitFor();
    expect(await preview.getByText('Average rating').count()).toBe(0);
    await shoot(adaPage, 'ask-ai-preview');
    // On a phone, and dark: the review fits the width and passes axe.
    await adaPage.setViewportSize({ width: 375, height: 800 });
    await adaPage.emulateMedia({ colorScheme: 'dark' });
    // Buttons fade to the dark colours (0.15 s): axe must see them after, not midway.
    await adaPage.waitForFunction(() =>
      document.getAnimations().every((animation) => !(animation instanceof CSSTransition)),
    );
    expect(await dialog.evaluate((element) => element.scrollWidth <= element.clientWidth + 1)).toBe(
      true,
    );
    expect(await axeViolations(adaPage, 'dialog.editor-dialog')).toEqual([]);
    await shoot(adaPage, 'ask-ai-preview');
    await adaPage.setViewportSize({ width: 1440, height: 900 });
    await adaPage.emulateMedia({ colorScheme: 'light' });
    await dialog.getByRole('button', { name: 'Accept 2 of 3' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The shared app holds exactly what was taken, and the collaborator's divider.
    await colePage.getByRole('tab', { name: 'Collections' }).click();
    await colePage.getByText('Rating', { exact: true }).first().waitFor();
    await poll(() => colePage.getByText('AI suggestion for ada, in review').count()).toBe(0);
    expect(await hasRow(colePage, 'Average rating')).toBe(false);
    expect(await hasRow(colePage, 'Divider')).toBe(true);
    // Who changed what: the parts taken are AI for ada's, the divider cole's own.
    const credits = async () =>
      (await cole.api.get<AppChangeList>(`/api/apps/${appId}/changes`)).body.changes.map(
        (c) => `${c.entity}:${c.kind}:${c.author?.username}:${c.paths.join()}`,
      );
    await poll(credits).toContain('field:ai:ada:added');
    expect(await credits()).toContain('component:person:cole:added');

    await adaPage.getByRole('button', { name: 'Undo', exact: true }).click();
    await adaPage.getByRole('tab', { name: 'Collections' }).click();
    await adaPage.getByText('Minutes').first().waitFor();
    await poll(() => adaPage.getByText('Rating', { exact: true }).count()).toBe(0);
    expect(await hasRow(adaPage, 'Divider')).toBe(true);
    await poll(() => hasRow(colePage, 'Divider')).toBe(true);
    expect(errors).toEqual([]);
  });

  it('keeps a suggestion its asker leaves for later; a collaborator reviews it, takes part of it, and the asker sees it decided', async () => {
    standIn.enqueue(ratingChange);
    await adaPage.getByRole('button', { name: 'Ask AI' }).click();
    const asking = adaPage.getByRole('dialog', { name: 'Ask AI' });
    await asking.getByLabel('What should change?').fill('Add a rating to recipes');
    await asking.getByRole('button', { name: 'Ask', exact: true }).click();
    await asking.getByRole('group', { name: /^Take 3 of 3 changes$/ }).waitFor();
    await asking.getByText(/Kept for your collaborators too/).waitFor();
    await asking.getByRole('button', { name: 'Review later' }).click();
    await asking.waitFor({ state: 'detached' });
    expect(await adaPage.getByText('Rating', { exact: true }).count()).toBe(0);

    // Cole finds it waiting, and reviews what ada asked.
    const waiting = colePage.getByRole('button', { name: 'Suggestions · 1' });
    await waiting.click();
    const list = colePage.getByRole('dialog', { name: 'Suggestions' });
    await list.getByText(/AI for ada/).waitFor();
    expect(await axeViolations(colePage, 'dialog.editor-dialog')).toEqual([]);
    await list.getByRole('button', { name: 'Review “Add a rating to recipes”' }).click();
    const review = colePage.getByRole('dialog', { name: 'Ask AI' });
    const parts = review.getByRole('group', { name: /^Take \d of 3 changes$/ });
    await parts.waitFor();
    expect(await review.locator('.ask-ai__asked figcaption').innerText()).toBe('ada asked');
    await parts.getByRole('checkbox', { name: /^Added Stat/ }).uncheck();
    await shoot(colePage, 'kept-suggestion');
    await review.getByRole('button', { name: 'Accept 2 of 3' }).click();
    await review.waitFor({ state: 'detached' });

    // The shared app holds exactly the parts cole took; nothing waits any more, for either.
    await colePage.getByRole('tab', { name: 'Collections' }).click();
    await colePage.getByText('Rating', { exact: true }).first().waitFor();
    expect(await hasRow(colePage, 'Average rating')).toBe(false);
    await adaPage.getByText('Rating', { exact: true }).first().waitFor();
    await poll(() => adaPage.getByRole('button', { name: /^Suggestions/ }).count()).toBe(0);
    await poll(() => colePage.getByRole('button', { name: /^Suggestions/ }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  const describeOffer = (page: Page) =>
    page.locator('summary', { hasText: 'Describe an app and let AI make a first draft' });

  it('on /demo, asks a signed-out visitor to sign in before describing an app', async () => {
    const visitorDevice = await browser.newContext({
      viewport: { width: 375, height: 800 },
      serviceWorkers: 'block',
    });
    try {
      const page = await visitorDevice.newPage();
      const visitorErrors = collectPageErrors(page);
      await page.goto(`${pipit.url}/demo`);
      await describeOffer(page).click();
      await page.getByText('describing an app needs an account').waitFor();
      const signIn = page.locator('.demo-describe').getByRole('link', { name: 'Sign in' });
      const href = new URL((await signIn.getAttribute('href'))!, pipit.url);
      expect(`${href.pathname}?redirect=${href.searchParams.get('redirect')}`).toBe(
        '/login?redirect=/demo',
      );
      expect(await page.getByLabel('Describe your app').count()).toBe(0);
      // The notice and the offer; the rest of /demo is the editor, which editor.test.ts checks.
      expect(await axeViolations(page, '.app-editor__notices')).toEqual([]);
      expect(visitorErrors).toEqual([]);
    } finally {
      await visitorDevice.close();
    }
  });

  it('on /demo, makes a signed-in person’s app from a description and opens it in the editor', async () => {
    // A device where /demo is the first page: who is signed in comes from the server, not a copy.
    const device = await deviceOf(browser, pipit, ada, { viewport: { width: 1280, height: 800 } });
    try {
      const page = await device.newPage();
      const pageErrors = collectPageErrors(page);
      standIn.requests.length = 0;
      standIn.enqueue({ content: JSON.stringify(blueprint), chunkSize: 64 });
      await page.goto(`${pipit.url}/demo`);
      await describeOffer(page).click();
      await page.getByLabel('Describe your app').fill('Our family recipes, from the demo');
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.waitForURL(/\/apps\/[a-z2-7]{26}\/edit$/);
      const made = /\/apps\/([a-z2-7]{26})\/edit$/.exec(page.url())![1]!;
      expect(made).not.toBe(appId);
      await page.getByRole('heading', { level: 1, name: 'Family recipes' }).waitFor();
      await poll(async () => (await pipit.server.storage.apps.get(made))?.ownerId).toBe(ada.id);
      const user = standIn.completions[0]?.body.messages?.find((m) => m.role === 'user')?.content;
      expect(user).toContain('Our family recipes, from the demo');
      expect(pageErrors).toEqual([]);
    } finally {
      await device.close();
    }
  });
});
