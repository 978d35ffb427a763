import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_APP_ICON } from '@pipit/app-definition';
import { appPwaPaths, createId } from '@pipit/protocol';
import { REVALIDATE_CACHE } from '../../src/http/client-files';
import { Lru } from '../../src/lru';
import { twemojiName } from '../../src/pwa/twemoji';
import type { ApiClient } from '../support/api-client';
import { type AccountsHarness, startAccountsServer } from '../support/engines';
import { createPublishedApp } from '../support/published-apps';

interface Pixels {
  width: number;
  height: number;
  /** RGBA of (x, y). */
  at(x: number, y: number): [number, number, number, number];
}

async function pixelsOf(png: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    at(x, y) {
      const i = (y * info.width + x) * 4;
      return [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
    },
  };
}

const rgb = (hex: string) =>
  [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
const near = (pixel: number[], color: number[], tolerance = 6) =>
  color.every((c, i) => Math.abs((pixel[i] ?? 0) - c) <= tolerance);

/** The share of the centre square (half the side) that is not the background colour. */
function glyphShare(p: Pixels, background: string): number {
  const bg = rgb(background);
  let differs = 0;
  let total = 0;
  for (let y = p.height / 4; y < (p.height * 3) / 4; y += 2) {
    for (let x = p.width / 4; x < (p.width * 3) / 4; x += 2) {
      total += 1;
      if (!near(p.at(Math.floor(x), Math.floor(y)), bg, 24)) differs += 1;
    }
  }
  return differs / total;
}

function luminanceSpread(p: Pixels): number {
  const values: number[] = [];
  for (let y = 0; y < p.height; y += 4) {
    for (let x = 0; x < p.width; x += 4) {
      const [r, g, b] = p.at(x, y);
      values.push(0.299 * r + 0.587 * g + 0.114 * b);
    }
  }
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length);
}

describe('app icons, GET /apps/{id}/icons/{variant}.png', () => {
  let h: AccountsHarness;
  let owner: ApiClient;
  let emojiApp: string;
  const BACKGROUND = '#224466';

  const get = (path: string, client?: ApiClient, headers: Record<string, string> = {}) =>
    fetch(`${h.pipit.url}${path}`, {
      headers: { ...(client?.cookie ? { Cookie: client.cookie } : {}), ...headers },
    });
  async function png(path: string, client?: ApiClient): Promise<Buffer> {
    const response = await get(path, client);
    expect(response.status, path).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    return Buffer.from(await response.arrayBuffer());
  }

  beforeAll(async () => {
    h = await startAccountsServer('sqlite');
    owner = await h.signup('icons_owner');
    emojiApp = await createPublishedApp(h.pipit.server.storage, owner, {
      title: 'Reading list',
      icon: { kind: 'emoji', emoji: '📚', background: BACKGROUND },
    });
  });
  afterAll(() => h.close());

  it.each([
    ['icon192', 192],
    ['icon512', 512],
    ['maskable512', 512],
    ['appleTouch180', 180],
  ] as const)(
    'draws %s as a %i px PNG with the emoji’s picture on its colour',
    async (key, size) => {
      const bytes = await png(appPwaPaths(emojiApp)[key]);
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', size, size]);
      const p = await pixelsOf(bytes);
      expect(luminanceSpread(p)).toBeGreaterThan(10);
      // The picture covers a good part of the centre (no emoji font: drawn from Twemoji's SVG).
      expect(glyphShare(p, BACKGROUND)).toBeGreaterThan(0.2);
      // Between the picture and the edge: the icon's colour.
      expect(
        near(p.at(Math.round(size * 0.12), Math.round(size / 2)), [...rgb(BACKGROUND), 255]),
      ).toBe(true);
    },
  );

  it('rounds the corners of the `any` icons and leaves them transparent', async () => {
    const p = await pixelsOf(await png(appPwaPaths(emojiApp).icon512));
    expect(p.at(2, 2)[3]).toBe(0);
    expect(p.at(509, 509)[3]).toBe(0);
    expect(p.at(256, 4)[3]).toBe(255);
  });

  it('fills the maskable icon edge to edge and keeps the picture inside the 80 % safe circle', async () => {
    const p = await pixelsOf(await png(appPwaPaths(emojiApp).maskable512));
    const bg = [...rgb(BACKGROUND), 255];
    const radius = 0.4 * 512;
    let outside = 0;
    let strays = 0;
    for (let y = 0; y < 512; y += 2) {
      for (let x = 0; x < 512; x += 2) {
        if (Math.hypot(x + 0.5 - 256, y + 0.5 - 256) <= radius) continue;
        outside += 1;
        if (!near(p.at(x, y), bg)) strays += 1;
      }
    }
    expect(outside).toBeGreaterThan(10_000);
    expect(strays).toBe(0);
    expect(glyphShare(p, BACKGROUND)).toBeGreaterThan(0.2);
  });

  it('makes the apple-touch-icon opaque and full-bleed (iOS rounds it itself)', async () => {
    const bytes = await png(appPwaPaths(emojiApp).appleTouch180);
    const p = await pixelsOf(bytes);
    for (const [x, y] of [
      [0, 0],
      [179, 0],
      [0, 179],
      [179, 179],
    ] as const) {
      expect(near(p.at(x, y), [...rgb(BACKGROUND), 255]), `${x},${y}`).toBe(true);
    }
  });

  it('draws Pipit’s bird for an app with no icon of its own', async () => {
    const none = await createPublishedApp(h.pipit.server.storage, owner, { title: 'Plain' });
    const p = await pixelsOf(await png(appPwaPaths(none).maskable512));
    expect(near(p.at(4, 4), [...rgb(DEFAULT_APP_ICON.background), 255])).toBe(true);
    expect(glyphShare(p, DEFAULT_APP_ICON.background)).toBeGreaterThan(0.15);
  });

  it('draws a letter when no picture matches the icon', async () => {
    const lettered = await createPublishedApp(h.pipit.server.storage, owner, {
      title: 'Quiz night',
      icon: { kind: 'emoji', emoji: 'Q', background: '#f0e0a0' },
    });
    const p = await pixelsOf(await png(appPwaPaths(lettered).icon192));
    expect(glyphShare(p, '#f0e0a0')).toBeGreaterThan(0.05);
    // A dark letter on a light colour (the readable one of black and white).
    let darkest = 255;
    for (let y = 48; y < 144; y += 1) {
      for (let x = 48; x < 144; x += 1) darkest = Math.min(darkest, ...p.at(x, y).slice(0, 3));
    }
    expect(darkest).toBeLessThan(60);
  });

  it('crops an uploaded image to fill the icon', async () => {
    const storage = h.pipit.server.storage;
    const me = await owner.get<{ account: { id: string } }>('/api/auth/session');
    // A wide image: red on the left half, blue on the right; the square crop keeps both.
    const wide = await sharp({
      create: { width: 400, height: 200, channels: 3, background: '#ff0000' },
    })
      .composite([
        {
          input: {
            create: { width: 200, height: 200, channels: 3, background: '#0000ff' },
          },
          left: 200,
          top: 0,
        },
      ])
      .webp()
      .toBuffer();
    const uploadId = createId();
    await storage.uploads.insert({
      id: uploadId,
      userId: me.body.account.id,
      contentType: 'image/webp',
      bytes: wide,
      createdAt: Date.now(),
    });
    const pictured = await createPublishedApp(storage, owner, {
      title: 'Photos',
      icon: { kind: 'image', url: `/api/uploads/${uploadId}` },
    });
    for (const key of ['icon512', 'maskable512', 'appleTouch180'] as const) {
      const bytes = await png(appPwaPaths(pictured)[key]);
      const p = await pixelsOf(bytes);
      const mid = Math.floor(p.height / 2);
      expect(near(p.at(Math.floor(p.width * 0.3), mid), [255, 0, 0, 255], 40), key).toBe(true);
      expect(near(p.at(Math.floor(p.width * 0.7), mid), [0, 0, 255, 255], 40), key).toBe(true);
    }
    // A missing upload: the default icon, not an error.
    const missing = await createPublishedApp(storage, owner, {
      title: 'Lost',
      icon: { kind: 'image', url: `/api/uploads/${createId()}` },
    });
    const fallback = await pixelsOf(await png(appPwaPaths(missing).maskable512));
    expect(near(fallback.at(4, 4), [...rgb(DEFAULT_APP_ICON.background), 255])).toBe(true);
  });

  it('revalidates with an ETag (no-cache), answers 304, and draws the same bytes again', async () => {
    const path = appPwaPaths(emojiApp).icon192;
    const first = await get(path);
    expect(first.headers.get('cache-control')).toBe(REVALIDATE_CACHE);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    const body = Buffer.from(await first.arrayBuffer());
    expect((await get(path, undefined, { 'If-None-Match': etag })).status).toBe(304);
    expect(Buffer.from(await (await get(path)).arrayBuffer()).equals(body)).toBe(true);
    const other = await get(appPwaPaths(emojiApp).icon512);
    expect(other.headers.get('etag')).not.toBe(etag);
  });

  it('is not found for a private app, except for its owner', async () => {
    const hidden = await createPublishedApp(h.pipit.server.storage, owner, {
      title: 'Hidden',
      visibility: 'private',
    });
    expect((await get(appPwaPaths(hidden).icon192)).status).toBe(404);
    expect((await get(appPwaPaths(hidden).icon192, owner)).status).toBe(200);
    expect((await get(appPwaPaths(createId()).icon192)).status).toBe(404);
  });
});

describe('Twemoji file names', () => {
  it.each([
    ['🐦', '1f426'],
    ['❤️‍🔥', '2764-fe0f-200d-1f525'],
    // The same ZWJ sequence pasted without U+FE0F still finds its picture.
    ['❤‍🔥', '2764-fe0f-200d-1f525'],
    ['🏳‍🌈', '1f3f3-fe0f-200d-1f308'],
    ['👩‍👩‍👧', '1f469-200d-1f469-200d-1f467'],
    ['1️⃣', '31-20e3'],
    ['#⃣', '23-20e3'],
    ['🇺🇸', '1f1fa-1f1f8'],
    ['🏴󠁧󠁢󠁳󠁣󠁴󠁿', '1f3f4-e0067-e0062-e0073-e0063-e0074-e007f'],
    ['👍🏽', '1f44d-1f3fd'],
    ['☺️', '263a'],
    ['📚 and more', '1f4da'],
  ])('%s → %s', (emoji, name) => {
    expect(twemojiName(emoji)).toBe(name);
  });

  it('finds nothing for letters and text, so a letter is drawn instead', () => {
    for (const text of ['A', 'xyz', '', '   ']) expect(twemojiName(text), text).toBeNull();
  });
});

describe('Lru', () => {
  it('keeps the most recently used entries, up to its size', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1); // a is now the most recent
    lru.set('c', 3);
    expect([lru.get('a'), lru.get('b'), lru.get('c'), lru.size]).toEqual([1, undefined, 3, 2]);
  });
});
