import * as zm from 'zod/mini';
import { isSafeUrlText, MAX_URL_LENGTH } from './safe-url-text';

/*
 * zod/mini, in a module of its own: the definition's classic schemas take it as a part, and
 * classic zod's schema functions do not tree-shake. The runtime checks a visitor's URL fields with
 * the same check without zod (safe-url-text.ts).
 */

/**
 * Links in apps are http(s) or a path on this server: never `javascript:` or `data:`
 * (docs/product/validation.md).
 */
export const safeUrlSchema = zm
  .string()
  .check(
    zm.trim(),
    zm.maxLength(MAX_URL_LENGTH),
    zm.refine(isSafeUrlText, 'Use an address starting with https:// (or a path on this site).'),
  );
