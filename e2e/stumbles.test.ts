import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  linkIn,
  type RunningPipit,
  startPipit,
  startTestSmtp,
  type TestSmtp,
} from '@pipit/sync-server/testing';
import { ROOMY_RATE_LIMITS } from '../sync-server/test/support/engines';
import { definitionOf } from '../sync-server/test/support/publishing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';
import { deviceOf, PERSON_PASSWORD, type Person, signInContext, signUp } from './support/people';
import { appScreens, poll, publishApp } from './support/visitor';

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
 * Issue 38: the places where people stumbled, walked as they walk them, at 375 px (light) and 1280
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
});
