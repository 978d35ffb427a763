import * as zm from 'zod/mini';

/*
 * zod/mini, in a module of its own: the runtime checks a visitor's URL fields with it on the
 * installed app's page, whose JavaScript is budgeted (docs/performance.md), and classic zod's schema functions
 * do not tree-shake; the definition's classic schemas take it as a part.
 */

/**
 * Links in apps are http(s) or a path on this server: never `javascript:` or `data:`
 * (docs/product/validation.md).
 */
export const safeUrlSchema = zm.string().check(
  zm.trim(),
  zm.maxLength(2048),
  zm.refine(
    // A path on this site, or http(s) with a host: the scheme is checked before anything else,
    // so `javascript:`, `data:` and `//host` never pass.
    (url) => /^\/(?![/\\])\S*$/.test(url) || /^https?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/i.test(url),
    'Use an address starting with https:// (or a path on this site).',
  ),
);
