import { describe, expect, it } from 'vitest';
import { contrastRatio, emojiImagePath, emojiOfImagePath, iconLetterColor } from '../src/index';

describe('emojiImagePath: where an icon’s emoji is drawn from', () => {
  it.each([
    ['🐦', '/emoji/1f426.svg'],
    // As written, U+FE0F too: the server finds the file Twemoji has.
    ['🏋️', '/emoji/1f3cb-fe0f.svg'],
    [' 📚 ', '/emoji/1f4da.svg'],
    ['👍🏽', '/emoji/1f44d-1f3fd.svg'],
    ['🇫🇷', '/emoji/1f1eb-1f1f7.svg'],
    ['1️⃣', '/emoji/31-fe0f-20e3.svg'],
    ['©', '/emoji/a9.svg'],
    ['👩‍💻', '/emoji/1f469-200d-1f4bb.svg'],
  ])('%s → %s', (emoji, path) => {
    expect(emojiImagePath(emoji)).toBe(path);
    expect(emojiOfImagePath(path)).toBe(emoji.trim());
  });

  it.each(['A', 'ab', '7', '', '   ', '★', 'A🐦'])(
    'draws %j as text: no picture to ask for',
    (text) => {
      expect(emojiImagePath(text)).toBeNull();
    },
  );

  it('takes at most the 16 code points an icon holds', () => {
    expect(emojiImagePath('🐦'.repeat(16))).toMatch(/^\/emoji\/(1f426-){15}1f426\.svg$/);
    expect(emojiImagePath('🐦'.repeat(17))).toBeNull();
  });

  it.each([
    '/emoji/.svg',
    '/emoji/1F426.svg',
    '/emoji/1f426.png',
    '/emoji/1f426-.svg',
    '/emoji/../1f426.svg',
    '/emoji/1234567.svg',
    '/emoji/110000.svg',
    `/emoji/${Array(17).fill('1f426').join('-')}.svg`,
  ])('reads no emoji from %s', (path) => {
    expect(emojiOfImagePath(path)).toBeNull();
  });
});

describe('iconLetterColor: the letter on an icon, as the manifest draws it', () => {
  it.each(['#1a7f5a', '#000000', '#224466', '#8a3b8f'])('white on %s', (background) => {
    expect(iconLetterColor(background)).toBe('#ffffff');
    expect(contrastRatio('#ffffff', background)).toBeGreaterThanOrEqual(
      contrastRatio('#111111', background),
    );
  });
  it.each(['#ffffff', '#ffe08a', '#9ad1b4'])('near-black on %s', (background) => {
    expect(iconLetterColor(background)).toBe('#111111');
  });
});
