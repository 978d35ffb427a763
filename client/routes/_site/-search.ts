import * as zm from 'zod/mini';
import { lazySchema } from '@pipit/protocol';

/*
 * The search schemas of pages reached by a link (zod/mini: the route tree reads them, and every
 * page loads the route tree). A part that is missing or malformed reads as absent: the page then
 * says what is wrong with the link, instead of failing to open.
 */

/** Text of at most `max` characters, or nothing. */
export const optionalText = (max: number) =>
  zm.catch(zm.optional(zm.string().check(zm.maxLength(max))), undefined);

/** `?token=…`: the emailed links' (verify, reset, confirm a change). */
export const tokenSearch = lazySchema(() => zm.object({ token: optionalText(256) }));
