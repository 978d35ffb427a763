import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  linkIn,
  type RunningPipit,
  startPipit,
  startTestSmtp,
  type TestSmtp,
} from '@pipit/sync-server/testing';
import { ROOMY_RATE_LIMITS } from '../sync-server/test/support/engines';
import type { AccountsHarness } from '../sync-server/test/support/engines';
import { createApp, definitionOf } from '../sync-server/test/support/publishing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';
import { PERSON_PASSWORD, type Person, signInContext, signUp } from './support/people';
import { publishApp } from './support/visitor';

/*
 * The walk of a new person at 375 px: where they stumbled, at 375 px (light) and
 * 1280 px (dark):
 * 1. the account menu opened past the phone screen's left edge;
 * 2. deleting an account with an empty form said nothing, and the landing page after it neither;
 * 3. `/verify-email` with a cut token spoke of "fields", and an older link after confirming
 *    pointed to a banner that is not there;
 * 4. a profile link's error was zod's "Invalid URL", and "saved" was out of view;
 * 5. the install page pointed to an Install button it did not show;
 * 6. a refused sign-up left focus on <body>;
 * 7. Publish was offered before the email was confirmed, then refused.
 */

const SCREENS = [
  { width: 375, scheme: 'light' },
  { width: 1280, scheme: 'dark' },
] as const;
type Screen = (typeof SCREENS)[number];

/** `PIPIT_SHOTS_DIR=/tmp/shots-walkfix` keeps a screenshot of each state checked. */
const SHOTS = process.env.PIPIT_SHOTS_DIR;
async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** No sideways scrolling, axe clean. */
async function expectTidy(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow, `${page.url()} scrolls sideways`).toBeLessThanOrEqual(0);
  expect(await axeViolations(page)).toEqual([]);
}

/** The focused element's accessible bits: what a screen reader lands on. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName.toLowerCase() ?? null,
      label: el?.id ? (document.querySelector(`label[for="${el.id}"]`)?.textContent ?? null) : null,
      invalid: el?.getAttribute('aria-invalid') ?? null,
      text: el?.textContent?.trim() ?? '',
    };
  });
}

/** Whether the element is wholly inside the window, as it stands now. */
async function inView(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  return (
    box !== null &&
    box.x >= 0 &&
    box.y >= 0 &&
    box.x + box.width <= size.width &&
    box.y + box.height <= size.height
  );
}

describe('the walk of a new person', () => {
  let pipit: RunningPipit;
  let smtp: TestSmtp;
  let browser: Browser;
  let appId: string;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    pipit = await startPipit({ env: { SMTP_URL: smtp.url }, rateLimits: ROOMY_RATE_LIMITS });
    browser = await launchBrowser();
    const maker = await signUp(pipit, 'walk_maker');
    appId = await publishApp(pipit, maker, definitionOf({ title: 'Habit tracker' }));
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
    await smtp?.close();
  });

  /** Signed up over the API, email not confirmed; its first (confirmation) email arrives. */
  async function unconfirmed(username: string, next?: string): Promise<Person> {
    const api = new ApiClient(pipit.url);
    const answer = await api.post<{ account: { id: string } }>(
      '/api/auth/signup',
      { username, email: `${username}@example.org`, password: PERSON_PASSWORD, next },
      true,
    );
    if (answer.status !== 201) throw new Error(`sign-up failed: ${JSON.stringify(answer.body)}`);
    return { username, id: answer.body.account.id, api };
  }

  /** An emailed link, on the origin the browser uses (links name localhost). */
  const onSite = (link: URL) => `${pipit.url}${link.pathname}${link.search}`;

  async function device(screen: Screen, person?: Person): Promise<BrowserContext> {
    const context = await browser.newContext({
      viewport: { width: screen.width, height: 800 },
      colorScheme: screen.scheme,
      serviceWorkers: 'block',
    });
    if (person) await signInContext(context, pipit, person);
    return context;
  }

  for (const screen of SCREENS) {
    const tag = `${screen.width}`;
    describe(`at ${screen.width} px (${screen.scheme})`, () => {
      it('opens the account menu inside the screen; Escape closes it and gives focus back', async () => {
        const person = await signUp(pipit, `menu_${tag}`);
        const context = await device(screen, person);
        try {
          const page = await context.newPage();
          const errors = collectPageErrors(page);
          await page.goto(`${pipit.url}/home`);
          await page.getByRole('heading', { level: 1 }).waitFor();
          if (screen.width < 900) {
            await page.getByRole('button', { name: 'Menu', exact: true }).click();
          }
          const button = page.getByRole('button', { name: /account menu/ }).locator('visible=true');
          await button.click();
          const panel = page.locator('.account-menu__panel').locator('visible=true');
          for (const name of ['Your profile', 'Edit profile', 'Settings']) {
            expect(await inView(page, panel.getByRole('link', { name })), name).toBe(true);
          }
          expect(await inView(page, panel.getByRole('button', { name: 'Sign out' }))).toBe(true);
          await shot(page, `account-menu-${tag}`);
          await expectTidy(page);

          await page.keyboard.press('Escape');
          expect(await panel.count()).toBe(0);
          expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      });

      it('says what deleting an account needs, focuses it, and says afterwards that it is done', async () => {
        const person = await signUp(pipit, `leaver_${tag}`);
        const context = await device(screen, person);
        try {
          const page = await context.newPage();
          await page.goto(`${pipit.url}/account/settings`);
          const remove = page.getByRole('button', { name: 'Delete my account' });
          await remove.click();
          const password = page.getByLabel('Your password');
          await page.getByText('Enter your password to confirm.').waitFor();
          await page.getByText('Tick the box to confirm you understand.').waitFor();
          expect(await password.evaluate((el) => el === document.activeElement)).toBe(true);
          expect(await password.getAttribute('aria-invalid')).toBe('true');
          await shot(page, `delete-empty-${tag}`);
          await expectTidy(page);

          await password.fill(PERSON_PASSWORD);
          await remove.click();
          // The password given, the tick is what is missing: focus goes there.
          const tick = page.getByRole('checkbox', { name: /deleted for good/ });
          expect(await tick.evaluate((el) => el === document.activeElement)).toBe(true);
          expect(await page.getByText('Enter your password to confirm.').count()).toBe(0);

          await tick.check();
          await remove.click();
          await page.waitForURL(`${pipit.url}/`);
          await page.getByText('Your account was deleted.').waitFor();
          await shot(page, `deleted-landing-${tag}`);
          await expectTidy(page);
          // Said once: a reload is the plain landing page.
          await page.reload();
          await page.getByRole('heading', { level: 1 }).waitFor();
          expect(await page.getByText('Your account was deleted.').count()).toBe(0);
        } finally {
          await context.close();
        }
      });

      it('calls a cut verification link not complete, and an older one after confirming, done', async () => {
        const context = await device(screen);
        try {
          const page = await context.newPage();
          await page.goto(`${pipit.url}/verify-email?token=cut-short`);
          await page.getByText('This link is not complete').waitFor();
          await page
            .getByText('Open the link from the email again, or ask for a new one.')
            .waitFor();
          expect(await page.getByText(/fields/).count()).toBe(0);
          await expectTidy(page);

          const person = await unconfirmed(`late_${tag}`, '/explore');
          const mail = await smtp.waitFor(`late_${tag}@example.org`, /Confirm your email/);
          const link = linkIn(mail, '/verify-email');
          // Confirmed already (the link was opened once, elsewhere).
          const used = await person.api.post('/api/auth/verify-email', {
            token: link.searchParams.get('token'),
          });
          expect(used.status).toBe(200);
          await signInContext(context, pipit, person);
          await page.goto(onSite(link));
          await page.getByText('Your email is already confirmed.').waitFor();
          expect(await page.getByText(/banner/).count()).toBe(0);
          const onward = page.getByRole('link', { name: 'Continue to the page you were on' });
          expect(await onward.getAttribute('href')).toBe('/explore');
          await shot(page, `verify-already-${tag}`);
          await expectTidy(page);
        } finally {
          await context.close();
        }
      });

      it('tells a profile link what to look like, and says “saved” where the person is', async () => {
        const person = await signUp(pipit, `linker_${tag}`);
        const context = await device(screen, person);
        try {
          const page = await context.newPage();
          await page.goto(`${pipit.url}/account/edit`);
          await page.getByRole('button', { name: 'Add a link' }).click();
          await page.getByLabel('Link 1 label').fill('Reading log');
          const address = page.getByLabel('Link 1 address');
          await address.fill('readinglog.example/ada');
          await page.getByRole('button', { name: 'Save profile' }).click();
          const message =
            'Use a full web address starting with https://, like https://example.org.';
          await page.getByText(message).waitFor();
          expect(await page.getByText('Invalid URL').count()).toBe(0);
          await expect.poll(() => focused(page)).toMatchObject({ label: 'Link 1 address' });
          await shot(page, `profile-link-${tag}`);
          await expectTidy(page);

          await address.fill('https://readinglog.example/ada');
          await page.getByRole('button', { name: 'Save profile' }).click();
          const saved = page.getByRole('status').filter({ hasText: 'Your profile is saved.' });
          await saved.waitFor();
          await expect.poll(() => focused(page)).toMatchObject({ text: 'Your profile is saved.' });
          expect(await inView(page, saved)).toBe(true);
          await shot(page, `profile-saved-${tag}`);
          await expectTidy(page);
        } finally {
          await context.close();
        }
      });

      it('points the install steps only to what the install page shows', async () => {
        const context = await device(screen);
        try {
          const page = await context.newPage();
          await page.goto(`${pipit.url}/apps/${appId}/install`);
          await page.getByRole('link', { name: 'Open Habit tracker' }).waitFor();
          await page.getByText('doesn’t offer one-click install').waitFor();
          // No prompt from the browser here (service workers blocked): no Install button.
          expect(await page.getByRole('button', { name: /^Install/ }).count()).toBe(0);
          const steps = await page.locator('.install-steps').innerText();
          expect(steps).not.toMatch(/Install above/);
          expect(steps).toMatch(/Open Chrome’s menu/);
          await shot(page, `install-steps-${tag}`);
          await expectTidy(page);
        } finally {
          await context.close();
        }
      });

      it('focuses what to fix after a refused sign-up or sign-in', async () => {
        const context = await device(screen);
        try {
          const page = await context.newPage();
          await page.goto(`${pipit.url}/signup`);
          await page.getByLabel('Username').fill(`focus_${tag}`);
          await page.getByLabel('Email').fill('not an address');
          await page.getByLabel('Password').fill('short');
          await page.getByRole('button', { name: 'Create account' }).click();
          await expect
            .poll(() => focused(page))
            .toMatchObject({ tag: 'input', label: 'Email', invalid: 'true' });
          await shot(page, `signup-refused-${tag}`);
          await expectTidy(page);

          // No field to blame: the error above the form.
          await page.goto(`${pipit.url}/login`);
          await page.getByLabel('Username or email').fill(`nobody_${tag}`);
          await page.getByLabel('Password').fill('not the password at all');
          await page.getByRole('button', { name: 'Sign in' }).click();
          await expect.poll(() => focused(page)).toMatchObject({ tag: 'div' });
          expect((await focused(page)).text).toMatch(/don’t match/);
          await expectTidy(page);
        } finally {
          await context.close();
        }
      });

      it('says before publishing that the email needs confirming, and learns it from another tab', async () => {
        const person = await unconfirmed(`fresh_${tag}`);
        const email = `fresh_${tag}@example.org`;
        await smtp.waitFor(email, /Confirm your email/);
        const draft = await createApp(
          { pipit } as unknown as AccountsHarness,
          person.api,
          definitionOf({ title: 'First try' }),
        );
        const context = await device(screen, person);
        try {
          const page = await context.newPage();
          const errors = collectPageErrors(page);
          await page.goto(`${pipit.url}/apps/${draft}/edit`);
          await page.getByText('Confirming it lets you publish your apps').waitFor();
          await page.getByRole('button', { name: 'Publish', exact: true }).click();
          const dialog = page.getByRole('dialog', { name: 'Publish' });
          await dialog.getByText('Confirm your email address to publish').waitFor();
          const publish = dialog.getByRole('button', { name: /^Publish version/ });
          await publish.waitFor();
          expect(await publish.isDisabled()).toBe(true);
          await shot(page, `publish-unconfirmed-${tag}`);
          await expectTidy(page);

          const resend = dialog.getByRole('button', { name: 'Send the confirmation email again' });
          // Inside the dialog, which clips what reaches past its edge.
          const [edge, button] = await Promise.all([dialog.boundingBox(), resend.boundingBox()]);
          expect(button!.x + button!.width).toBeLessThanOrEqual(edge!.x + edge!.width);
          await resend.click();
          await dialog.getByText('A new link is on its way.').waitFor();
          const mails = () => smtp.messages.filter((m) => m.to === email);
          await expect.poll(() => mails().length).toBe(2);
          const link = linkIn(mails()[1]!, '/verify-email');

          // Confirmed in another tab: this one learns of it without a reload.
          const other = await context.newPage();
          await other.goto(onSite(link));
          await other.getByText('Your email is confirmed').waitFor();
          await other.close();
          await page.bringToFront();
          await expect
            .poll(() => dialog.getByText('Confirm your email address to publish').count())
            .toBe(0);
          await expect.poll(() => publish.isEnabled()).toBe(true);
          expect(await page.getByText('Confirming it lets you publish your apps').count()).toBe(0);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      });
    });
  }
});
