import * as zm from 'zod/mini';
import { ID_PATTERN } from './ids';
import { hexColorSchema, sameOriginPathSchema } from './profile-parts';
import { lazySchema } from './lazy-schema';

/*
 * An app's icon, id and roles: zod/mini only, in a module of their own.
 * The installed app (`/apps/{id}/pwa`) reads these, and classic zod's schema functions do not
 * tree-shake — one classic schema in a module that page loads brings all of classic zod (its
 * JavaScript is budgeted: docs/performance.md). Classic schemas take these as parts, and `z.infer` reads them.
 */

/**
 * An app's icon (docs/product/app-definition.md): an emoji on a colour, or an uploaded image on
 * this server.
 */
export const appIconSchema = lazySchema(() =>
  zm.discriminatedUnion('kind', [
    zm.object({
      kind: zm.literal('emoji'),
      emoji: zm.string().check(zm.minLength(1), zm.maxLength(16)),
      background: hexColorSchema,
    }),
    zm.object({ kind: zm.literal('image'), url: sameOriginPathSchema }),
  ]),
);
export type AppIcon = zm.infer<typeof appIconSchema>;

export const appIdSchema = lazySchema(() =>
  zm.string().check(zm.regex(ID_PATTERN, 'Not an app id.')),
);
