import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_OUTPUT_INVALID_MESSAGE } from '@pipit/protocol';
import {
  type AiStandIn,
  linkIn,
  type RunningPipit,
  type StandInRequest,
  startAiStandIn,
  startPipit,
  startTestSmtp,
  type TestSmtp,
} from '@pipit/sync-server/testing';
import { ROOMY_RATE_LIMITS } from '../sync-server/test/support/engines';
import { archiveApp, definitionOf } from '../sync-server/test/support/publishing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';
import { deviceOf, PERSON_PASSWORD, type Person, signInContext, signUp } from './support/people';
import {
  appScreens,
  goOffline,
  goOnline,
  openInstalledApp,
  poll,
  publishApp,
} from './support/visitor';

/** A phone in light mode, and a laptop in dark mode: each flow is walked on one, checked on both. */
const PHONE = { viewport: { width: 375, height: 740 }, colorScheme: 'light' } as const;
const LAPTOP = { viewport: { width: 1280, height: 800 }, colorScheme: 'dark' } as const;

/**
 * No sideways scrolling, and axe finds nothing. With PIPIT_SHOTS=<folder> each checked screen is
 * also saved there, to look at (docs/product/walkthrough.md).
 */
let shots = 0;
async function fits(page: Page): Promise<void> {
  const folder = process.env.PIPIT_SHOTS;
  if (folder) {
    const width = page.viewportSize()?.width ?? 0;
    await page.screenshot({
      path: `${folder}/stumbles-${String(++shots).padStart(2, '0')}-${width}.png`,
    });
  }
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await axeViolations(page)).toEqual([]);
}

/**
 * The places where people stumbled, walked as they walk them, at 375 px (light) and 1280
 * px (dark). Each test fails on the code before its fix.
 */
describe('where people stumble', () => {
  let pipit: RunningPipit;
  let smtp: TestSmtp;
  let browser: Browser;
  let url: string;
  let owner: Person;
  let appId: string;
  const devices: BrowserContext[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    smtp = await startTestSmtp();
    // Seven people sign up from one address: more than a real one allows in an hour.
    pipit = await startPipit({ env: { SMTP_URL: smtp.url }, rateLimits: ROOMY_RATE_LIMITS });
    // Emailed links point to http://localhost:{port} (no PUBLIC_ORIGIN): browse there too.
    url = `http://localhost:${pipit.port}`;
    browser = await launchBrowser();
    owner = await signUp(pipit, 'owner38');
    appId = await publishApp(pipit, owner, definitionOf({}, 'household-shopping-list'));
  });
  afterAll(async () => {
    for (const device of devices) await device.close();
    await browser?.close();
    await pipit?.close();
    await smtp?.close();
  });

  async function device(options: Parameters<Browser['newContext']>[0]): Promise<Page> {
    const context = await browser.newContext({ serviceWorkers: 'block', ...options });
    devices.push(context);
    const page = await context.newPage();
    errors.push(...collectPageErrors(page));
    return page;
  }

  async function makeSpace(spaceName: string): Promise<string> {
    const made = await owner.api.post<{ space: { id: string } }>(`/api/apps/${appId}/spaces`, {
      name: spaceName,
    });
    expect(made.status).toBe(201);
    return made.body.space.id;
  }

  async function invitation(
    spaceName: string,
    role: 'member' | 'reader' = 'member',
    spaceId?: string,
  ): Promise<string> {
    const id = spaceId ?? (await makeSpace(spaceName));
    const invite = await owner.api.post<{ token: string }>(`/api/spaces/${id}/invites`, { role });
    expect(invite.status).toBe(201);
    return `/join/${invite.body.token}`;
  }

  /** A person signed in on a new device, who opens `join` and joins: the app opens on the space. */
  async function joined(
    username: string,
    join: string,
    options: Parameters<Browser['newContext']>[0],
  ) {
    const person = await signUp(pipit, username);
    const context = await deviceOf(browser, pipit, person, options);
    devices.push(context);
    const page = await context.newPage();
    errors.push(...collectPageErrors(page));
    await page.goto(`${pipit.url}${join}`);
    await page.getByRole('button', { name: `Join as @${username}` }).click();
    await appScreens(page).waitFor();
    return page;
  }

  async function addItem(page: Page, name: string): Promise<void> {
    await page.getByRole('button', { name: 'Add an item' }).click();
    const form = page.getByRole('form', { name: /^New / });
    await form.getByLabel(/^Item/).fill(name);
    await form.getByRole('button', { name: 'Add to list' }).click();
    await page.getByRole('list', { name: 'Items' }).getByText(name, { exact: true }).waitFor();
  }

  const items = async (page: Page) => {
    const list = page.getByRole('list', { name: 'Items' });
    if ((await list.count()) === 0) return [];
    return (await list.getByRole('listitem').allInnerTexts()).map((t) => t.trim()).sort();
  };

  /** Whether the whole of the element is inside the window, without scrolling. */
  const inView = async (page: Page, selector: string) =>
    page.evaluate((sel) => {
      const box = document.querySelector(sel)!.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    }, selector);

  const tab = (page: Page, name: string) => appScreens(page).getByRole('button', { name }).click();

  it('1. signing up from an invitation comes back to it, and so does the confirmation link on another device', async () => {
    const join = await invitation('Our flat');
    const phone = await device(PHONE);
    await phone.goto(`${url}${join}`);
    await phone.getByRole('heading', { name: 'Join “Our flat”' }).waitFor();
    await fits(phone);
    await phone.getByRole('link', { name: 'Create an account' }).click();
    await phone.getByText('Afterwards we’ll take you back to the invitation you opened.').waitFor();
    await fits(phone);
    await phone.getByLabel('Username').fill('newbie38');
    await phone.getByText('✓ /newbie38 is yours if you want it.').waitFor();
    await phone.getByLabel('Email').fill('newbie38@example.org');
    await phone.getByLabel('Password').fill(PERSON_PASSWORD);
    await phone.getByRole('button', { name: 'Create account' }).click();
    // Back on the invitation, signed in: one tap joins.
    await phone.waitForURL(`${url}${join}`);
    await phone.getByRole('button', { name: 'Join as @newbie38' }).waitFor();

    // The confirmation email opened on a laptop that is not signed in: it leads on to the
    // invitation, through sign-in.
    const mail = await smtp.waitFor('newbie38@example.org', /Confirm your email/);
    const laptop = await device(LAPTOP);
    await laptop.goto(linkIn(mail, '/verify-email').href);
    await laptop.getByText('Your email is confirmed').waitFor();
    await fits(laptop);
    await laptop
      .getByRole('link', { name: 'Sign in and continue to the invitation you opened' })
      .click();
    await laptop
      .getByText('Afterwards we’ll take you back to the invitation you opened.')
      .waitFor();
    await laptop.getByLabel('Username or email').fill('newbie38');
    await laptop.getByLabel('Password').fill(PERSON_PASSWORD);
    await laptop.getByRole('button', { name: 'Sign in' }).click();
    await laptop.waitForURL(`${url}${join}`);
    await laptop.getByRole('button', { name: 'Join as @newbie38' }).waitFor();
    await fits(laptop);
    expect(errors).toEqual([]);
  });

  it('2. a reader is not offered adding, and a member not another’s author-only chore; each is told why', async () => {
    const spaceId = await makeSpace('Home');
    const bea = await joined('bea38', await invitation('Home', 'member', spaceId), PHONE);
    await tab(bea, 'Chores');
    await bea.getByRole('button', { name: 'Take on a chore' }).click();
    await bea.getByLabel(/^Chore/).fill('Bins');
    await bea.getByRole('button', { name: 'I’ll do it' }).click();
    await bea.getByRole('list').getByText('Bins').waitFor();

    // Cal, another member, opens Bea's chore: nothing to tap that would be refused, and why.
    const cal = await joined('cal38', await invitation('Home', 'member', spaceId), LAPTOP);
    await tab(cal, 'Chores');
    await cal.getByRole('list').getByText('Bins').click();
    await cal.getByText('Only bea38, who added this item, can change it.').waitFor();
    expect(await cal.getByRole('button', { name: 'Mark as done' }).count()).toBe(0);
    expect(await cal.getByRole('button', { name: 'Remove chore' }).count()).toBe(0);
    await fits(cal);
    // His own chore is his to change.
    await cal.getByRole('button', { name: 'Back' }).click();
    await cal.getByRole('button', { name: 'Take on a chore' }).click();
    await cal.getByLabel(/^Chore/).fill('Dishes');
    await cal.getByRole('button', { name: 'I’ll do it' }).click();
    await cal.getByRole('list').getByText('Dishes').click();
    await cal.getByRole('button', { name: 'Mark as done' }).waitFor();

    // Rita can only view: no "Add an item", no form to type into, and the screen says so.
    const rita = await joined('rita38', await invitation('Home', 'reader', spaceId), PHONE);
    await rita
      .getByText(/You can only view this space/)
      .first()
      .waitFor();
    expect(await rita.getByRole('button', { name: 'Add an item' }).count()).toBe(0);
    await fits(rita);
    await tab(rita, 'Chores');
    expect(await rita.getByRole('button', { name: 'Take on a chore' }).count()).toBe(0);
    await rita
      .getByText(/You can only view this space/)
      .first()
      .waitFor();
    expect(errors).toEqual([]);
  });

  it('3. spaces explained to someone signed in: what a space is, Share leading to a link in view, and an own list that says where its items went', async () => {
    const sam = await signUp(pipit, 'sam38');
    const context = await deviceOf(browser, pipit, sam, PHONE);
    devices.push(context);
    const page = await context.newPage();
    errors.push(...collectPageErrors(page));
    await page.goto(`${pipit.url}/apps/${appId}/pwa`);
    await appScreens(page).waitFor();
    await addItem(page, 'Milk');
    await addItem(page, 'Eggs');
    // The current list is named on the button that opens the dialog.
    await page.getByRole('button', { name: /Showing My own list/ }).click();
    const dialog = page.locator('dialog.spaces-dialog');
    await dialog.getByText(/A space is a list you share/).waitFor();
    expect(await dialog.getByRole('radio', { name: /My own list/ }).isChecked()).toBe(true);
    await fits(page);
    await dialog.getByRole('button', { name: 'New space' }).click();
    const name = dialog.getByLabel('Name of the space');
    // Empty, with an example beside it rather than a placeholder that reads as filled in.
    expect(await name.inputValue()).toBe('');
    expect(await name.getAttribute('placeholder')).toBeNull();
    await dialog.getByText('For example “Our flat” or “Trip to Lisbon”.').waitFor();
    await dialog
      .getByText('The people you invite will see them, and they leave your own list.')
      .waitFor();
    await name.fill('Our place');
    await dialog.getByRole('button', { name: 'Make the space' }).click();
    // Next: the people and a link, the link in view as soon as it is made.
    await dialog.getByRole('heading', { name: 'Our place' }).waitFor();
    await dialog.getByRole('button', { name: 'Make a link' }).click();
    await dialog.getByRole('textbox', { name: 'Invitation link' }).waitFor();
    expect(await inView(page, '.spaces-dialog__link')).toBe(true);
    await fits(page);
    await dialog.getByRole('button', { name: 'Lists' }).click();
    await dialog.getByRole('radio', { name: /My own list/ }).check();
    await dialog.getByRole('button', { name: 'Close' }).click();
    // The own list is empty — and says where its items are, with a way there.
    await page
      .getByText('This is your own list, and it’s empty. Your shared items are in “Our place”.')
      .waitFor();
    await fits(page);
    await page.getByRole('button', { name: 'Show “Our place”' }).click();
    await poll(() => items(page)).toEqual(['Eggs', 'Milk']);

    // The owner's view of the space on a laptop, in dark mode.
    const laptop = await browser.newContext({ serviceWorkers: 'block', ...LAPTOP });
    devices.push(laptop);
    await signInContext(laptop, pipit, sam);
    const wide = await laptop.newPage();
    errors.push(...collectPageErrors(wide));
    await wide.goto(`${pipit.url}/apps/${appId}/pwa`);
    await appScreens(wide).waitFor();
    await wide.getByRole('button', { name: /Showing/ }).click();
    const wideDialog = wide.locator('dialog.spaces-dialog');
    await wideDialog.getByRole('radio', { name: /Our place/ }).check();
    await wideDialog.getByRole('button', { name: /^Share/ }).click();
    await wide.getByRole('heading', { name: 'People (1)' }).waitFor();
    await fits(wide);
    expect(errors).toEqual([]);
  });

  it('walk: a member made a reader while the app is open is told and offered no adding; the owner’s errors and deletion say what happened', async () => {
    const olga = await signUp(pipit, 'olga38');
    const wes = await signUp(pipit, 'wes38');
    const ownerContext = await deviceOf(browser, pipit, olga, PHONE);
    devices.push(ownerContext);
    const page = await ownerContext.newPage();
    errors.push(...collectPageErrors(page));
    await page.goto(`${pipit.url}/apps/${appId}/pwa`);
    await appScreens(page).waitFor();
    await page.getByRole('button', { name: /Showing/ }).click();
    const dialog = page.locator('dialog.spaces-dialog');
    await dialog.getByRole('button', { name: 'New space' }).click();
    await dialog.getByLabel('Name of the space').fill('Walk');
    await dialog.getByRole('button', { name: 'Make the space' }).click();
    await dialog.getByRole('heading', { name: 'Walk' }).waitFor();
    // A username that is no one: said beside the field, where the person is looking.
    await dialog.getByText('Add someone by username').click();
    const more = dialog.locator('.spaces-dialog__more');
    await more.getByLabel('Username').fill('nobody38');
    await more.getByRole('button', { name: 'Add to space' }).click();
    await more.getByText(/No one goes by that username/).waitFor();
    await more.getByLabel('Username').fill('wes38');
    await more.getByRole('button', { name: 'Add to space' }).click();
    await more.getByText('Added @wes38.').waitFor();
    await fits(page);

    // Wes has the app open on the space; Olga makes him a reader.
    const wesContext = await deviceOf(browser, pipit, wes, PHONE);
    devices.push(wesContext);
    const wesPage = await wesContext.newPage();
    errors.push(...collectPageErrors(wesPage));
    await wesPage.goto(`${pipit.url}/apps/${appId}/pwa`);
    await appScreens(wesPage).waitFor();
    await wesPage.getByRole('button', { name: /Showing/ }).click();
    await wesPage.locator('dialog.spaces-dialog').getByRole('radio', { name: /Walk/ }).check();
    await wesPage.locator('dialog.spaces-dialog').getByRole('button', { name: 'Close' }).click();
    await wesPage.getByRole('button', { name: 'Add an item' }).waitFor();
    await dialog.getByLabel('Role of wes38').selectOption('reader');
    await wesPage
      .getByText('You can now only view “Walk”: its owner changed your role.', { exact: false })
      .waitFor();
    await poll(() => wesPage.getByRole('button', { name: 'Add an item' }).count()).toBe(0);
    await fits(wesPage);

    // Olga deletes the space: her app says she did (not that she left it somewhere else).
    page.on('dialog', (prompt) => void prompt.accept());
    await dialog.getByRole('button', { name: 'Delete space' }).click();
    await page.getByText('You deleted “Walk”.', { exact: false }).waitFor();
    expect(errors).toEqual([]);
  });

  it('walk: an app its creator deleted leaves the library of whoever opened it', async () => {
    const maker = await signUp(pipit, 'maker38');
    const doomed = await publishApp(
      pipit,
      maker,
      definitionOf({ title: 'Soon gone' }, 'habit-tracker'),
    );
    const user = await signUp(pipit, 'user38');
    const context = await deviceOf(browser, pipit, user, PHONE);
    devices.push(context);
    const page = await context.newPage();
    errors.push(...collectPageErrors(page));
    await page.goto(`${pipit.url}/apps/${doomed}/pwa`);
    await appScreens(page).waitFor();
    await page.goto(`${pipit.url}/apps`);
    await page.locator('main').getByText('Soon gone', { exact: true }).waitFor();
    await archiveApp(maker.api, doomed);
    expect((await maker.api.request('DELETE', `/api/apps/${doomed}`)).status).toBe(200);
    await page.goto(`${pipit.url}/apps/${doomed}/pwa`);
    await page.getByRole('heading', { name: 'This app was deleted' }).waitFor();
    await page.getByText('It was taken out of your apps.').waitFor();
    await fits(page);
    await page.goto(`${pipit.url}/apps`);
    await page.getByRole('heading', { name: 'Your apps' }).waitFor();
    await poll(() => page.locator('main').getByText('Soon gone', { exact: true }).count()).toBe(0);
    expect(errors.filter((e) => !/status of 410/.test(e))).toEqual([]);
  });

  it('5. deleting an account says first which shared spaces end for everyone, and for how many people', async () => {
    const dora = await signUp(pipit, 'dora38');
    const made = await dora.api.post<{ space: { id: string } }>(`/api/apps/${appId}/spaces`, {
      name: 'Allotment',
    });
    expect(made.status).toBe(201);
    const added = await dora.api.request(
      'PUT',
      `/api/spaces/${made.body.space.id}/members/owner38`,
      {
        body: { role: 'member' },
      },
    );
    expect(added.status).toBe(201);
    for (const options of [PHONE, LAPTOP]) {
      const context = await deviceOf(browser, pipit, dora, options);
      devices.push(context);
      const page = await context.newPage();
      errors.push(...collectPageErrors(page));
      await page.goto(`${pipit.url}/account/settings#delete`);
      await page.getByText('1 shared space ends for everyone in it').waitFor();
      await page.getByText(/1 other person loses the list they share there/).waitFor();
      await page.getByText('“Allotment” — 1 other person').waitFor();
      await fits(page);
    }
    expect(errors).toEqual([]);
  });

  it('7. Pipit’s own “works offline” message never covers the app: not a form’s button, not the app’s toast', async () => {
    const overlap = async (page: Page, a: string, b: string) =>
      page.evaluate(
        ([first, second]) => {
          const x = document.querySelector(first!)!.getBoundingClientRect();
          const y = document.querySelector(second!)!.getBoundingClientRect();
          return x.left < y.right && y.left < x.right && x.top < y.bottom && y.top < x.bottom;
        },
        [a, b],
      );
    // Pipit's own pages too: the first visit's message never covers the sign-up form's button.
    const fresh = await browser.newContext({ ...PHONE, serviceWorkers: 'allow' });
    devices.push(fresh);
    const signup = await fresh.newPage();
    errors.push(...collectPageErrors(signup));
    await signup.goto(`${pipit.url}/signup`);
    await signup.getByText('Pipit is ready to work offline on this device.').waitFor();
    expect(await overlap(signup, '.update-bar', 'form button[type="submit"]')).toBe(false);
    await fits(signup);

    for (const options of [PHONE, LAPTOP]) {
      const person = await signUp(pipit, `tess38${options.viewport.width}`);
      const context = await deviceOf(browser, pipit, person, {
        ...options,
        serviceWorkers: 'allow',
      });
      devices.push(context);
      const page = await context.newPage();
      errors.push(...collectPageErrors(page));
      await page.goto(`${pipit.url}/apps/${appId}/pwa`);
      await appScreens(page).waitFor();
      await page.getByText('This app now works offline on this device.').waitFor();
      await page.getByRole('button', { name: 'Add an item' }).click();
      const form = page.getByRole('form', { name: /^New / });
      await form.getByLabel(/^Item/).fill('Soap');
      expect(await overlap(page, '.update-bar', '.rt-form button[type="submit"]')).toBe(false);
      await fits(page);
      await form.getByRole('button', { name: 'Add to list' }).click();
      await page.locator('.rt-toast').getByText('Added to the list').waitFor();
      expect(await overlap(page, '.update-bar', '.rt-toast')).toBe(false);
      await page.getByRole('button', { name: 'OK' }).click();
      await poll(() => page.locator('.update-bar').count()).toBe(0);
    }
    expect(errors).toEqual([]);
  });
});

/**
 * The first minutes with AI. On a server with AI, describing an app comes first
 * on /create; in an installed app, a run says what it added, in the record card's words, once.
 */
describe('where people stumble with AI', () => {
  let ai: AiStandIn;
  let pipit: RunningPipit;
  let browser: Browser;
  let appId: string;
  let visitor: Person;
  const errors: string[] = [];

  /** The recipe book, with a yes/no field on its shopping lists and an AI component making one. */
  function recipesWithAiComponent() {
    const definition = definitionOf({ title: 'Family recipes' }, 'recipe-book');
    const lists = definition.collections.find((c) => c.name === 'Shopping lists')!;
    const recipes = definition.collections.find((c) => c.name === 'Recipes')!;
    // A yes/no field like the recipes' own "Favourite".
    const favourite = recipes.fields.find((f) => f.type === 'boolean')!;
    lists.fields.push({ ...favourite, id: 'bought38', name: 'Bought' });
    // Its own copy of the shopping-list AI action: the button's runs stay listed above the app.
    const shoppingList = { ...definition.aiActions.find((a) => a.name === 'Shopping list')! };
    shoppingList.id = 'planai38';
    shoppingList.name = 'Plan a shop';
    definition.aiActions.push(shoppingList);
    const recipe = definition.screens.find((s) => s.title === 'Recipe')!;
    // An AI component like the recipe screen's "Suggest swaps", for the shopping-list action.
    const swaps = recipe.components.find((c) => c.type === 'ai')!;
    recipe.components.push({
      ...swaps,
      id: 'plan38',
      props: { ...swaps.props, label: 'Plan a shop', aiActionId: shoppingList.id },
    } as typeof swaps);
    return definition;
  }

  const shoppingAnswer = (recipe: string) => (request: StandInRequest) => {
    const schema = request.body.response_format?.json_schema?.schema as
      { properties?: Record<string, unknown> } | undefined;
    const answer: Record<string, unknown> = {};
    for (const [key, property] of Object.entries(schema?.properties ?? {})) {
      const about = `${key} ${JSON.stringify(property)}`.toLowerCase();
      if (about.includes('bought')) answer[key] = false;
      else if (about.includes('servings')) answer[key] = 2;
      else if (about.includes('items')) answer[key] = '- Lentils';
      else if (about.includes('name')) answer[key] = `Shopping for ${recipe}`;
    }
    return JSON.stringify(answer);
  };

  beforeAll(async () => {
    ai = await startAiStandIn();
    pipit = await startPipit({ env: ai.env(), rateLimits: ROOMY_RATE_LIMITS });
    browser = await launchBrowser();
    const creator = await signUp(pipit, 'cook38');
    visitor = await signUp(pipit, 'vis38');
    appId = await publishApp(pipit, creator, recipesWithAiComponent());
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
    await ai?.close();
  });

  it('6. describing an app comes first on /create when the server has AI', async () => {
    for (const options of [PHONE, LAPTOP]) {
      const context = await deviceOf(browser, pipit, visitor, options);
      try {
        const page = await context.newPage();
        errors.push(...collectPageErrors(page));
        await page.goto(`${pipit.url}/create`);
        await page.getByRole('textbox', { name: /Describe your app/ }).waitFor();
        const sections = await page.locator('main h2').allInnerTexts();
        expect(sections[0]).toBe('From a description');
        await fits(page);
      } finally {
        await context.close();
      }
    }
    expect(errors).toEqual([]);
  });

  it('6. a run says what it added, as the record’s card says it, once; a new run clears an old “Done”', async () => {
    const context = await deviceOf(browser, pipit, visitor, PHONE);
    try {
      const page = await context.newPage();
      errors.push(...collectPageErrors(page));
      await openInstalledApp(page, pipit.url, appId);
      await appScreens(page)
        .getByRole('button', { name: /Recipes/ })
        .click();
      await page.getByText('Weeknight tomato dal', { exact: true }).click();
      // The AI component: what it added, with the yes/no field as "No", never "false".
      ai.enqueue(shoppingAnswer('dal'));
      await page.getByRole('button', { name: 'Plan a shop' }).click();
      const result = page.locator('.rt-ai-text');
      await poll(() => result.innerText()).toContain('Added “Shopping for dal” to Shopping lists.');
      expect(await result.innerText()).toContain('Bought: No');
      expect(await result.innerText()).not.toContain('false');
      await fits(page);

      // Offline, the component says "Queued" — once on the page, not again above the app.
      await goOffline(context, page);
      await page.getByRole('button', { name: 'Plan a shop' }).click();
      await page.getByText('Queued: this runs when you’re back online.').waitFor();
      expect(await page.getByText(/Queued/).count()).toBe(1);
      ai.enqueue(shoppingAnswer('dal again'));
      await goOnline(context, page);
      await poll(() => result.innerText()).toContain('Added “Shopping for dal again”');

      // A run from a button, queued offline, lands as "Done: Added …" in the runs above the app;
      // a new run of it that fails clears that "Done" instead of sitting beside the failure.
      await goOffline(context, page);
      await page.getByRole('button', { name: 'Make shopping list' }).click();
      const runs = page.getByRole('region', { name: 'AI runs' });
      await poll(() => runs.innerText()).toContain('Queued');
      ai.enqueue(shoppingAnswer('the list'));
      await goOnline(context, page);
      await poll(() => runs.innerText()).toContain('Done: Added “Shopping for the list”');
      await fits(page);
      ai.enqueue(
        () => 'not json',
        () => 'still not json',
      );
      await page.getByRole('button', { name: 'Make shopping list' }).click();
      await poll(() => page.locator('.rt-toast').innerText()).toBe(AI_OUTPUT_INVALID_MESSAGE);
      await poll(() => runs.count()).toBe(0);
    } finally {
      await context.close();
    }
    expect(errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  });
});
