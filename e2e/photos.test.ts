import { createHash } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createId, documentName } from '@pipit/protocol';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { definitionOf } from '../sync-server/test/support/publishing';
import { axeViolations } from './support/axe';
import { collectPageErrors, launchBrowser } from './support/browser';
import { deviceOf, type Person, signUp } from './support/people';
import { goOffline, goOnline, poll, publishApp } from './support/visitor';

type Definition = ReturnType<typeof definitionOf>;
type Component = Definition['screens'][number]['components'][number];

/**
 * A plant diary: a form with a name and a photo, and the plants as a gallery, on one screen. Its
 * components are the habit tracker's form and list, pointed at the plants (so every property they
 * need is there).
 */
function plantDiary(): Definition {
  const base = definitionOf({ title: 'Plant diary' });
  const all = base.screens.flatMap((s) => s.components);
  const form = all.find((c) => c.type === 'form')!;
  const list = all.find((c) => c.type === 'list')!;
  return {
    ...base,
    collections: [
      {
        id: 'plants',
        name: 'Plants',
        fields: [
          { id: 'name', name: 'Name', type: 'text', required: true, default: null, options: [] },
          {
            id: 'photo',
            name: 'Photo',
            type: 'image',
            required: false,
            default: null,
            options: [],
          },
        ],
        records: [],
        sharing: 'private',
        recordRule: 'anyone',
      },
    ],
    screens: [
      {
        id: 'plants',
        title: 'Plants',
        icon: '🌱',
        components: [
          {
            ...form,
            id: 'add-plant',
            props: {
              ...form.props,
              collectionId: 'plants',
              fieldIds: [],
              submitLabel: 'Add plant',
              actionId: null,
              mode: 'create',
            },
          } as Component,
          {
            ...list,
            id: 'plant-gallery',
            props: {
              ...list.props,
              collectionId: 'plants',
              titleFieldId: 'name',
              subtitleFieldId: null,
              detailScreenId: null,
              filter: null,
              sort: null,
              view: 'gallery',
              imageFieldId: 'photo',
              emptyText: 'No plants yet.',
            },
          } as Component,
        ],
      },
    ],
    actions: [],
    aiActions: [],
  };
}

/** A small PNG drawn in the page itself (a green square with a stripe), as bytes. */
async function drawnPng(page: Page, stripe = '#f2c14e'): Promise<Buffer> {
  const base64 = await page.evaluate(async (stripe) => {
    const canvas = new OffscreenCanvas(64, 48);
    const g = canvas.getContext('2d')!;
    g.fillStyle = '#2d7a4f';
    g.fillRect(0, 0, 64, 48);
    g.fillStyle = stripe;
    g.fillRect(0, 20, 64, 8);
    const bytes = new Uint8Array(
      await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer(),
    );
    return btoa(String.fromCharCode(...bytes));
  }, stripe);
  return Buffer.from(base64, 'base64');
}

/**
 * A photo on a record (docs/product/records.md#photos-and-files-on-records): taken offline, shown
 * at once from the device, sent when the device is back online, and seen on the person's other
 * device from the server; what is not a photo is refused in words, keeping nothing.
 */
describe('a photo on a record, taken offline', () => {
  let pipit: RunningPipit;
  let browser: Browser;
  let appId: string;
  let pia: Person;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];
  let shots = 0;

  beforeAll(async () => {
    pipit = await startPipit();
    browser = await launchBrowser();
    const creator = await signUp(pipit, 'flora');
    appId = await publishApp(pipit, creator, plantDiary());
    pia = await signUp(pipit, 'pia');
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await pipit?.close();
  });

  async function device(options: Parameters<Browser['newContext']>[0]): Promise<{
    context: BrowserContext;
    page: Page;
  }> {
    const context = await deviceOf(browser, pipit, pia, options);
    contexts.push(context);
    const page = await context.newPage();
    errors.push(...collectPageErrors(page));
    return { context, page };
  }

  /** The installed app, open at its one screen (one screen: no tab bar). */
  async function open(page: Page) {
    await page.goto(`${pipit.url}/apps/${appId}/pwa`);
    await page.getByRole('heading', { name: 'Plants' }).waitFor();
  }

  /** No sideways scrolling, nothing axe finds; saved to PIPIT_SHOTS when it is set. */
  async function fits(page: Page, what: string) {
    const folder = process.env.PIPIT_SHOTS;
    const width = page.viewportSize()?.width ?? 0;
    if (folder) {
      await page.screenshot({
        path: `${folder}/photos-${++shots}-${what}-${width}.png`,
        fullPage: true,
      });
    }
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, what).toBeLessThanOrEqual(0);
    expect(await axeViolations(page), what).toEqual([]);
  }

  const stored = async (hash: string) =>
    pipit.server.storage.recordFiles.info(
      documentName({ kind: 'data', appId, userId: pia.id }),
      hash,
    );

  it('shows a photo taken offline at once, sends it once online, and shows it on another device', async () => {
    const phone = await device({ viewport: { width: 375, height: 740 }, colorScheme: 'light' });
    await open(phone.page);
    await phone.page.getByText('No plants yet.').waitFor();
    const png = await drawnPng(phone.page);
    const hash = createHash('sha256').update(png).digest('hex');

    await goOffline(phone.context, phone.page);
    const form = phone.page.getByRole('form', { name: 'New Plants' });
    await form.getByLabel(/^Name/).fill('Fern');
    await form
      .getByLabel('Take a photo for Photo')
      .setInputFiles({ name: 'fern.png', mimeType: 'image/png', buffer: png });
    // At once, from the device: the photo as picked, offline.
    const preview = form.getByRole('img', { name: 'Photo: fern.png' });
    // The placeholder (the same name) stands in until the device has said where the photo is.
    await poll(() => preview.getAttribute('src')).toMatch(/^blob:/);
    await form.getByRole('button', { name: 'Add plant' }).click();
    const card = phone.page
      .getByRole('list', { name: 'Plants' })
      .getByRole('img', { name: 'Fern' });
    await poll(() => card.getAttribute('src')).toMatch(/^blob:/);
    await poll(() => card.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await fits(phone.page, 'offline');
    expect(await stored(hash)).toBeNull();

    // Back online, the queue sends it.
    await goOnline(phone.context, phone.page);
    await poll(async () => (await stored(hash))?.kind ?? null).toBe('image');

    // The person's laptop has only the server's copy: its thumbnail.
    const laptop = await device({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    await open(laptop.page);
    const there = laptop.page
      .getByRole('list', { name: 'Plants' })
      .getByRole('img', { name: 'Fern' });
    await poll(() => there.getAttribute('src')).toBe(`/api/apps/${appId}/files/${hash}/thumbnail`);
    await poll(() => there.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(
      0,
    );
    await fits(laptop.page, 'other-device');
  });

  it('refuses what is not a photo in words, keeping nothing', async () => {
    const { page } = await device({ viewport: { width: 375, height: 740 }, colorScheme: 'dark' });
    await open(page);
    const form = page.getByRole('form', { name: 'New Plants' });
    const choose = form.getByLabel('Choose photo for Photo');
    await choose.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a photo'),
    });
    await form
      .getByRole('alert')
      .getByText('That file isn’t a photo. Choose a PNG, JPEG, WebP or GIF image for Photo.')
      .waitFor();
    // Called a PNG, but not one: the device reads it before keeping it.
    await choose.setInputFiles({
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not a photo either'),
    });
    await form
      .getByRole('alert')
      .getByText('That file isn’t an image we can read. Choose a photo (PNG, JPEG, WebP or GIF).')
      .waitFor();
    expect(await form.getByRole('button', { name: 'Remove photo' }).count()).toBe(0);
    await fits(page, 'refused');
    const fake = createHash('sha256').update('not a photo either').digest('hex');
    expect(await stored(fake)).toBeNull();

    // A photo past the person's quota: kept on the device, and they are told why it was not sent.
    await pipit.server.storage.uploads.insert({
      id: createId(),
      userId: pia.id,
      contentType: 'image/webp',
      bytes: new Uint8Array(20 * 1024 * 1024 - 100),
      createdAt: Date.now(),
    });
    const png = await drawnPng(page, '#8fbf3f');
    await form.getByLabel(/^Name/).fill('Moss');
    await choose.setInputFiles({ name: 'moss.png', mimeType: 'image/png', buffer: png });
    await form.getByRole('img', { name: 'Photo: moss.png' }).waitFor();
    await form.getByRole('button', { name: 'Add plant' }).click();
    const notice = page.getByRole('complementary', { name: 'Photos and files not sent' });
    await notice
      .getByText(
        'A photo couldn’t be sent to the server: That would take what you keep on this server past the 20 MB of your plan. Remove some photos or files first, then try again. It stays on this device only.',
      )
      .waitFor();
    await fits(page, 'over-quota');
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await notice.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });
});
