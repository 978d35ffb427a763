import { z } from 'zod';

export const STORAGE_ENGINES = ['sqlite', 'postgres'] as const;
export type StorageEngine = (typeof STORAGE_ENGINES)[number];

/** `GET /api/health` */
export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  storage: z.enum(STORAGE_ENGINES),
  version: z.string().min(1),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/**
 * A path on this server, for uploaded images: "/…" but never "//host/…" or "/\\host/…", which
 * browsers treat as another origin.
 */
export const sameOriginPathSchema = z
  .string()
  .max(2048)
  .regex(/^\/(?![/\\])/, 'Use a path on this server, starting with a single “/”.');

/** A link on a profile: http(s) only (SPEC §7). */
export const profileLinkSchema = z.object({
  label: z.string().max(40),
  url: z.url({ protocol: /^https?$/ }),
});

export const avatarSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('emoji'),
    emoji: z.string().min(1).max(16),
    color: z.string().regex(/^#[0-9a-f]{6}$/i),
  }),
  z.object({ kind: z.literal('image'), url: sameOriginPathSchema }),
]);
export type Avatar = z.infer<typeof avatarSchema>;
