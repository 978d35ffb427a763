import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { RunningPipit } from '@pipit/sync-server/testing';
// The server's own test helpers write a definition into an app's document and publish it the way
// the editor and the Publish button do; e2e has no Yjs of its own, so it borrows theirs.
import type { AccountsHarness } from '../../sync-server/test/support/engines';
import {
  definitionOf,
  editDocument,
  editMeta,
  publish,
  publishDefinition,
} from '../../sync-server/test/support/publishing';
import { collectPageErrors } from './browser';
import { deviceOf, type Person, signUp } from './people';

/**
 * Sync crosses a websocket, a durable log and another browser: allow it a few seconds (the e2e
 * project's `expect.poll` waits up to 15 s, vitest.config.ts).
 */
export const poll = <T>(value: () => T | Promise<T>) => expect.poll(value);

/** `owner` makes a space in the app and adds each of `members` to it, over the API; its id. */
export async function makeSpace(
  owner: Person,
  appId: string,
  name: string,
  members: string[],
): Promise<string> {
  const made = await owner.api.post<{ space: { id: string } }>(`/api/apps/${appId}/spaces`, {
    name,
  });
  expect(made.status).toBe(201);
  for (const member of members) {
    const added = await owner.api.request(
      'PUT',
      `/api/spaces/${made.body.space.id}/members/${member}`,
      {
        body: { role: 'member' },
      },
    );
    expect(added.status).toBe(201);
  }
  return made.body.space.id;
}

const harness = (pipit: RunningPipit) => ({ pipit }) as unknown as AccountsHarness;

/**
 * The creator publishes a definition as a public app: registered over REST, the definition written
 * through a real provider, then `POST /api/apps/{id}/versions`. Returns its id. The creator's
 * email must be verified (people.ts signUp does it).
 */
export async function publishApp(
  pipit: RunningPipit,
  creator: Person,
  definition: ReturnType<typeof definitionOf>,
): Promise<string> {
  return publishDefinition(harness(pipit), creator.api, definition, 'public');
}

/**
 * A new creator publishes `definition` and opens it in the editor on a laptop-sized window (1280 ×
 * 800, their own device): the page, the console errors it logs, and the app's id.
 */
export async function openInEditor(
  pipit: RunningPipit,
  browser: Browser,
  username: string,
  definition: ReturnType<typeof definitionOf>,
): Promise<{ page: Page; errors: string[]; appId: string }> {
  const creator = await signUp(pipit, username);
  const appId = await publishApp(pipit, creator, definition);
  const device = await deviceOf(browser, pipit, creator, {
    viewport: { width: 1280, height: 800 },
  });
  const page = await device.newPage();
  const errors = collectPageErrors(page);
  await page.goto(`${pipit.url}/apps/${appId}/edit`);
  return { page, errors, appId };
}

/** publishApp with the habit-tracker template (docs/product/app-definition.md). */
export function publishHabitTracker(
  pipit: RunningPipit,
  creator: Person,
  meta: { title?: string; tags?: string[] } = {},
): Promise<string> {
  return publishApp(pipit, creator, definitionOf(meta));
}

/** Renames the app in its live document and publishes the next version (a republish). */
export async function republishWithTitle(
  pipit: RunningPipit,
  creator: Person,
  appId: string,
  title: string,
): Promise<number> {
  await editDocument(harness(pipit), creator.api, appId, (doc) => {
    editMeta(doc, { title });
  });
  const published = await publish(creator.api, appId);
  if (published.status !== 201) throw new Error(`publish: ${JSON.stringify(published.body)}`);
  return published.body.latestVersion ?? 0;
}

/** Opens the installed app's page and waits until the app (not a loading state) is on screen. */
export async function openInstalledApp(page: Page, url: string, appId: string): Promise<void> {
  await page.goto(`${url}/apps/${appId}/pwa`);
  await appScreens(page).waitFor();
}

/** The running app's tab bar. */
export const appScreens = (page: Page) => page.getByRole('navigation', { name: 'Screens' });

/** Where the visitor's data is, as the installed app says it ("Saved", "Syncing 2", …). */
export const syncNote = (page: Page) => page.locator('.sync-indicator__label');

/** Adds a habit through the app's own screens, as a visitor does. */
export async function addHabit(page: Page, name: string): Promise<void> {
  await appScreens(page)
    .getByRole('button', { name: /Habits/ })
    .click();
  await page.getByRole('button', { name: 'Add a habit' }).click();
  const form = page.getByRole('form', { name: /^New / });
  await form.getByLabel(/^Habit/).fill(name);
  await form.getByRole('button', { name: 'Add habit' }).click();
  await appScreens(page)
    .getByRole('button', { name: /Habits/ })
    .click();
  await habitList(page).getByText(name, { exact: true }).waitFor();
}

/** The habits the visitor sees on the app's Habits screen. */
export function habitList(page: Page) {
  return page.getByRole('list', { name: 'Habits' });
}

/** The names listed on the Habits screen (it opens that screen first); [] when it has none. */
export async function habitNames(page: Page): Promise<string[]> {
  await appScreens(page)
    .getByRole('button', { name: /Habits/ })
    .click();
  await page.getByRole('button', { name: 'Add a habit' }).waitFor();
  const items = await habitList(page).getByRole('listitem').allInnerTexts();
  return items.map((text) => text.split('\n')[0]!.trim());
}

/**
 * Offline as the browser sees it (requests fail). An open websocket survives this
 * (docs/library-notes.md#browser-tests), so a test about sync partitions stops the server instead.
 */
export async function goOffline(context: BrowserContext, page: Page): Promise<void> {
  await context.setOffline(true);
  await page.evaluate(() => window.dispatchEvent(new Event('offline')));
}

export async function goOnline(context: BrowserContext, page: Page): Promise<void> {
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
}

/** The "New version available" offer of an open installed app. */
export const updateOffer = (page: Page) =>
  page.getByRole('status').filter({ hasText: 'New version available' });

/** Makes the open app check for a new version now (as returning to it or coming online does). */
export async function checkForUpdate(page: Page): Promise<void> {
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
}

/** An app's row title in the library (`/apps`), a link to its page. */
export const libraryEntry = (page: Page, title: string) =>
  page.getByRole('link', { name: title, exact: true });

/**
 * How many updates this device has stored for a document (y-indexeddb's `updates` store), to wait
 * until an edit is on disk before a reload: the write is asynchronous, and a reload within the same
 * few milliseconds would abort it.
 */
export function storedUpdates(page: Page, databaseName: string): Promise<number> {
  return page.evaluate(
    (name) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('updates')) {
            db.close();
            resolve(0);
            return;
          }
          const count = db.transaction('updates').objectStore('updates').count();
          count.onsuccess = () => {
            db.close();
            resolve(count.result);
          };
          count.onerror = () => reject(count.error);
        };
      }),
    databaseName,
  );
}
