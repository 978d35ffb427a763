import * as zm from 'zod/mini';
import { lazySchema } from './lazy-schema';

/*
 * Avatars, profile links and same-origin paths: zod/mini only, in a module of their own.
 * The installed app (`/apps/{id}/pwa`) reads these, and classic zod's schema functions do not
 * tree-shake — one classic schema in a module that page loads brings all of classic zod (its
 * JavaScript is budgeted: docs/performance.md). Classic schemas take these as parts, and `z.infer` reads them.
 */

/**
 * A path on this server, for uploaded images: "/…" but never "//host/…" or "/\\host/…", which
 * browsers treat as another origin.
 */
export const sameOriginPathSchema = lazySchema(() =>
  zm
    .string()
    .check(
      zm.maxLength(2048),
      zm.regex(/^\/(?![/\\])/, 'Use a path on this server, starting with a single “/”.'),
    ),
);

/** A colour as `#rrggbb`: an avatar's or an app icon's background. */
export const hexColorSchema = lazySchema(() => zm.string().check(zm.regex(/^#[0-9a-f]{6}$/i)));

/**
 * What a profile link that is not a full web address is told (zod's own "Invalid URL"
 * said nothing about what to type; people write `readinglog.example/ada`).
 */
export const PROFILE_LINK_URL_MESSAGE =
  'Use a full web address starting with https://, like https://example.org.';

/** A link on a profile: http(s) only (docs/product/validation.md). */
export const profileLinkSchema = lazySchema(() =>
  zm.object({
    label: zm.string().check(zm.maxLength(40)),
    url: zm.url({ protocol: /^https?$/, error: PROFILE_LINK_URL_MESSAGE }),
  }),
);

export const avatarSchema = lazySchema(() =>
  zm.discriminatedUnion('kind', [
    zm.object({
      kind: zm.literal('emoji'),
      emoji: zm.string().check(zm.minLength(1), zm.maxLength(16)),
      color: hexColorSchema,
    }),
    zm.object({ kind: zm.literal('image'), url: sameOriginPathSchema }),
  ]),
);
export type Avatar = zm.infer<typeof avatarSchema>;
