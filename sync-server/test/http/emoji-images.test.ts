import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_TEMPLATES, DEFAULT_APP_ICON } from '@pipit/app-definition';
import { emojiImagePath, OFFLINE_EMOJI } from '@pipit/protocol';
import { twemojiFile, twemojiSvg } from '../../src/pwa/twemoji';
import { type RunningPipit, startPipit } from '../support/start-server';

/*
 * An app's emoji icon was a picture on the home screen (the manifest's icons,
 * drawn from Twemoji) and the system's emoji font in pages — a box where there is none. Pages now
 * show the same Twemoji file, served here, same-origin, for the service worker to keep.
 */
describe('GET /emoji/{code points}.svg', () => {
  let pipit: RunningPipit;
  beforeAll(async () => {
    pipit = await startPipit();
  });
  afterAll(async () => {
    await pipit.close();
  });
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${pipit.url}${path}`, { headers });

  it('serves the Twemoji file the manifest’s icons are drawn from', async () => {
    const response = await get(emojiImagePath(DEFAULT_APP_ICON.emoji)!);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(response.headers.get('cache-control')).toBe('public, max-age=604800');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    // Not a page: nothing in it may load or run anything.
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await response.text()).toBe(twemojiSvg(DEFAULT_APP_ICON.emoji));
  });

  it('has a picture for the default icon, every template’s, and all the service worker precaches', async () => {
    const emoji = [DEFAULT_APP_ICON, ...APP_TEMPLATES.map((t) => t.icon)].map((i) => i.emoji);
    for (const one of new Set([...emoji, ...OFFLINE_EMOJI])) {
      const path = emojiImagePath(one);
      expect(path, one).not.toBeNull();
      const response = await get(path!);
      expect(response.status, `${one} ${path}`).toBe(200);
      expect(await response.text()).toBe(twemojiSvg(one));
    }
  });

  it('finds the closest file, as the manifest does: U+FE0F or not, a skin tone, the first emoji', async () => {
    for (const [emoji, file] of [
      ['🏋️', '1f3cb'],
      ['❤️', '2764'],
      ['❤', '2764'],
      ['👍🏽', '1f44d-1f3fd'],
      ['🐦🌱', '1f426'],
      ['🇫🇷', '1f1eb-1f1f7'],
      ['1️⃣', '31-20e3'],
    ] as const) {
      expect(twemojiFile(emoji)?.name, emoji).toBe(file);
      const response = await get(emojiImagePath(emoji)!);
      expect(response.status, emoji).toBe(200);
      expect(await response.text()).toBe(readFileSync(twemojiFile(emoji)!.file, 'utf8'));
    }
  });

  it('answers 404 for text with no picture, and for what is not an emoji’s path', async () => {
    for (const path of ['/emoji/41.svg', '/emoji/e000.svg']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('cache-control'), path).toBe('public, max-age=86400');
    }
    for (const path of [
      '/emoji/1F426.svg',
      '/emoji/1f426.png',
      '/emoji/110000.svg',
      '/emoji/1f426/x.svg',
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
    }
    const post = await fetch(`${pipit.url}/emoji/1f426.svg`, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('revalidates with its ETag, and compresses for browsers that accept it', async () => {
    const path = emojiImagePath('🌱')!;
    const first = await get(path, { 'Accept-Encoding': 'identity' });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"15\.0\.0-[\w-]+"$/);
    const again = await get(path, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(await first.text()).toBe(twemojiSvg('🌱'));
    for (const encoding of ['gzip', 'br']) {
      // fetch decodes the body and keeps the header.
      const compressed = await get(path, { 'Accept-Encoding': encoding });
      expect(compressed.headers.get('content-encoding')).toBe(encoding);
      expect(compressed.headers.get('vary')).toBe('Accept-Encoding');
      expect(await compressed.text()).toBe(twemojiSvg('🌱'));
    }
  });
});
