import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Emoji as pictures, for app icons. The server has no colour emoji font (and may have no font at
 * all), so an emoji is never drawn as text: it is drawn from its Twemoji SVG (CC-BY 4.0, credited on
 * /about). `@twemoji/svg` names each file by the lowercase hex code points of the emoji joined by
 * '-', keeping U+FE0F only in some sequences, so both spellings are tried.
 */

const VARIATION_SELECTOR = 'fe0f';
const ZWJ = '200d';
const SKIN_TONES = new Set(['1f3fb', '1f3fc', '1f3fd', '1f3fe', '1f3ff']);

interface TwemojiFiles {
  dir: string;
  names: ReadonlySet<string>;
  /** File names by their name without U+FE0F: a sequence pasted without it still finds its file. */
  byBareName: ReadonlyMap<string, string>;
}

let files: TwemojiFiles | undefined;

const bare = (name: string) =>
  name
    .split('-')
    .filter((p) => p !== VARIATION_SELECTOR)
    .join('-');

/** The package's files, listed once (about 3,700 names). */
function twemojiFiles(): TwemojiFiles {
  if (!files) {
    const dir = path.dirname(createRequire(import.meta.url).resolve('@twemoji/svg/package.json'));
    const names = new Set(
      readdirSync(dir)
        .filter((name) => name.endsWith('.svg'))
        .map((name) => name.slice(0, -'.svg'.length)),
    );
    const byBareName = new Map<string, string>();
    for (const name of names) if (!byBareName.has(bare(name))) byBareName.set(bare(name), name);
    files = { dir, names, byBareName };
  }
  return files;
}

/** The first user-perceived character of a string (an emoji sequence is one). */
export function firstGrapheme(text: string): string {
  const segments = new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text.trim());
  for (const { segment } of segments) return segment;
  return '';
}

function codePoints(text: string): string[] {
  return [...text].map((char) => char.codePointAt(0)!.toString(16));
}

/**
 * File names to try for one emoji, best first: as written; without U+FE0F (Twemoji drops it
 * outside ZWJ sequences, and people paste emoji with or without it); then close relatives, so an
 * emoji newer than the package still gets a picture (a skin tone → the plain emoji, a ZWJ sequence
 * → its first part).
 */
export function twemojiCandidates(emoji: string): string[] {
  const points = codePoints(firstGrapheme(emoji));
  if (points.length === 0) return [];
  const withoutVs = points.filter((p) => p !== VARIATION_SELECTOR);
  const withoutTones = withoutVs.filter((p) => !SKIN_TONES.has(p));
  const zwj = withoutVs.indexOf(ZWJ);
  const firstPart = zwj > 0 ? withoutVs.slice(0, zwj) : withoutVs;
  const candidates = [
    points,
    withoutVs,
    withoutTones,
    firstPart,
    firstPart.filter((p) => !SKIN_TONES.has(p)),
  ];
  return [...new Set(candidates.filter((c) => c.length > 0).map((c) => c.join('-')))];
}

/** The Twemoji file name (without .svg) for an emoji, or null when none matches. */
export function twemojiName(emoji: string): string | null {
  const { names, byBareName } = twemojiFiles();
  for (const name of twemojiCandidates(emoji)) {
    const found = names.has(name) ? name : byBareName.get(bare(name));
    if (found) return found;
  }
  return null;
}

/** The package's version: what the pictures served at `/emoji/…` are validated by. */
export function twemojiVersion(): string {
  const dir = twemojiFiles().dir;
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string })
    .version;
}

/** The file of an emoji's picture, or null when Twemoji has none. */
export function twemojiFile(emoji: string): { name: string; file: string } | null {
  const name = twemojiName(emoji);
  return name ? { name, file: path.join(twemojiFiles().dir, `${name}.svg`) } : null;
}

/** The SVG source of an emoji's picture, or null when Twemoji has none (draw a letter instead). */
export function twemojiSvg(emoji: string): string | null {
  const name = twemojiName(emoji);
  if (!name) return null;
  return readFileSync(path.join(twemojiFiles().dir, `${name}.svg`), 'utf8');
}
