/*
 * The check of `safeUrlSchema` (safe-url.ts) without zod: the runtime checks a visitor's URL fields
 * with it on the installed app's page, whose JavaScript is budgeted (docs/performance.md), and
 * even zod/mini's smallest schema brings its ~10 KB core.
 */

const MAX_URL_LENGTH = 2048;

/**
 * A path on this site, or http(s) with a host: the scheme is checked before anything else, so
 * `javascript:`, `data:` and `//host` never pass.
 */
export function isSafeUrlText(url: string): boolean {
  return /^\/(?![/\\])\S*$/.test(url) || /^https?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/i.test(url);
}

/** Whether `safeUrlSchema` accepts the text (it trims it first). */
export function isSafeUrl(text: string): boolean {
  const url = text.trim();
  // zod measures length in code points: a character outside the BMP is one, not two.
  return [...url].length <= MAX_URL_LENGTH && isSafeUrlText(url);
}

export { MAX_URL_LENGTH };
