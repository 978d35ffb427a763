/*
 * An app's emoji icon as a picture: pages, lists, the editor and the installed
 * app's manifest all show the same Twemoji artwork, served by Pipit itself at
 * `/emoji/{code points}.svg` (sync-server/src/http/emoji-images.ts) so a service worker can keep
 * it and a device without a colour-emoji font shows a picture, not an empty box.
 */

/** The longest emoji an icon holds is 16 UTF-16 units (appIconSchema): at most 16 code points. */
const MAX_CODE_POINTS = 16;

/** `/emoji/{code points}.svg`: lowercase hex code points joined by `-`, as Twemoji names files. */
export const EMOJI_IMAGE_PATH = /^\/emoji\/([0-9a-f]{1,6}(?:-[0-9a-f]{1,6}){0,15})\.svg$/;

/**
 * What can have a picture: a text that starts with a pictograph, a flag's letters or a keycap. A
 * letter, a digit or a word has none; it is drawn as text (the manifest's icon draws it too).
 */
const PICTURE_START = /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|[#*0-9]\uFE0F?\u20E3)/u;

/**
 * Where an icon's emoji is drawn from, or null when it is text with no picture. The path carries
 * every code point as written: the server picks the first emoji and the closest file Twemoji has
 * (with or without U+FE0F, without a skin tone…), so the client needs no list of names.
 */
export function emojiImagePath(emoji: string): string | null {
  const text = emoji.trim();
  if (!PICTURE_START.test(text)) return null;
  const points = [...text].map((char) => char.codePointAt(0)!.toString(16));
  if (points.length > MAX_CODE_POINTS) return null;
  return `/emoji/${points.join('-')}.svg`;
}

/**
 * The pictures the service worker precaches (vite.config.ts), so they show offline on a device
 * that never saw them: Pipit's default icon (the bird) and the icons of the templates `/create`
 * offers (and of the showcase, a template's). `packages/app-definition/test` keeps it in step.
 * Not frozen: `Object.freeze` would keep it in every page's code, which never reads it.
 */
export const OFFLINE_EMOJI: readonly string[] = [
  '🐦',
  '🌱',
  '📚',
  '🍲',
  '🏋️',
  '💌',
  '💰',
  '🧳',
  '🛒',
];

/** The text an emoji image's path stands for, or null when the path is not one. */
export function emojiOfImagePath(pathname: string): string | null {
  const name = EMOJI_IMAGE_PATH.exec(pathname)?.[1];
  if (!name) return null;
  const points = name.split('-').map((hex) => Number.parseInt(hex, 16));
  if (points.some((point) => point > 0x10ffff)) return null;
  return String.fromCodePoint(...points);
}

/**
 * The colour of a letter drawn on an icon's background (an icon that is a letter, or an emoji
 * with no picture while it loads): white or near-black, whichever contrasts more — the rule the
 * manifest's icons follow too (sync-server/src/pwa/app-icons.ts).
 */
export function iconLetterColor(background: string): '#ffffff' | '#111111' {
  return contrastRatio('#ffffff', background) >= contrastRatio('#111111', background)
    ? '#ffffff'
    : '#111111';
}

/** WCAG 2.x relative luminance of a `#rrggbb` colour. */
export function relativeLuminance(hex: string): number {
  const value = Number.parseInt(hex.slice(1), 16);
  const channels = [(value >> 16) & 255, (value >> 8) & 255, value & 255].map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  const [r = 0, g = 0, b = 0] = channels;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.x contrast ratio of two `#rrggbb` colours. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (hi + 0.05) / (lo + 0.05);
}
