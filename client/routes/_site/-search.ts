import * as zm from 'zod/mini';
import { lazySchema, RETURN_PATH_MAX_LENGTH } from '@pipit/protocol';

/*
 * The search schemas of pages reached by a link (zod/mini: the route tree reads them, and every
 * page loads the route tree). A part that is missing or malformed reads as absent: the page then
 * says what is wrong with the link, instead of failing to open.
 */

/** Text of at most `max` characters, or nothing. */
export const optionalText = (max: number) =>
  zm.catch(zm.optional(zm.string().check(zm.maxLength(max))), undefined);

/**
 * `?token=…&next=…`: the emailed links' (verify, reset, confirm a change); `next` is where the
 * person was going when they signed up or asked for the link.
 */
export const tokenSearch = lazySchema(() =>
  zm.object({ token: optionalText(256), next: optionalText(RETURN_PATH_MAX_LENGTH) }),
);

/** `?redirect=…`: sign-in, sign-up and a forgotten password bring the person back there. */
export const redirectSearch = lazySchema(() =>
  zm.object({ redirect: optionalText(RETURN_PATH_MAX_LENGTH) }),
);
