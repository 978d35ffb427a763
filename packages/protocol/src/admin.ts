import { z } from 'zod';
import { errorGroupSchema } from './error-groups';

/**
 * The operator's inbox (docs/product/error-reporting.md): error groups from browsers and this server, a digest search, and
 * the contact and feedback messages. Operators are accounts the server's `npm run operator` added
 * (by id, with a confirmed email); for everyone else every `/api/admin/…` answers `not_found`, as
 * if it did not exist.
 */

export const MESSAGES_PAGE_SIZE = 50;

/** One occurrence, with the redacted report (Sentry's event JSON) as it was stored. */
export const errorEventSchema = z.object({
  id: z.string(),
  fingerprint: z.string(),
  receivedAt: z.number(),
  digest: z.string().nullable(),
  route: z.string().nullable(),
  url: z.string().nullable(),
  browser: z.string().nullable(),
  release: z.string().nullable(),
  environment: z.string().nullable(),
  level: z.string(),
  event: z.unknown(),
});
export type ErrorEvent = z.infer<typeof errorEventSchema>;

/**
 * `GET /api/admin/errors/{fingerprint}` — a group and its latest occurrence (breadcrumbs and all);
 * `GET /api/admin/digests/{digest}` — the server error a person's digest names, with its group.
 */
export const errorDetailSchema = z.object({
  group: errorGroupSchema,
  sample: errorEventSchema,
});
export type ErrorDetail = z.infer<typeof errorDetailSchema>;

/** A digest as the error page shows it (docs/product/errors.md). */
export const DIGEST_PATTERN = /^[0-9a-f]{12}$/;

export const adminMessageSchema = z.object({
  id: z.string(),
  kind: z.enum(['contact', 'feedback']),
  email: z.string().nullable(),
  /** The sender's username when they were signed in. */
  username: z.string().nullable(),
  body: z.string(),
  page: z.string().nullable(),
  createdAt: z.number(),
});
export type AdminMessage = z.infer<typeof adminMessageSchema>;

/** `GET /api/admin/messages` — the newest first. */
export const adminMessagesResponseSchema = z.object({ messages: z.array(adminMessageSchema) });

/** How many days `/admin` shows AI usage for (today included). */
export const AI_USAGE_DAYS = 30;

/** One app's AI usage on one UTC day, for the operator (docs/product/ai.md). Counts only. */
export const aiUsageRowSchema = z.object({
  /** The UTC day, `YYYY-MM-DD`. */
  day: z.string(),
  /** Null: apps made from a description that day (they have no id when the model is asked). */
  appId: z.string().nullable(),
  /** The app's current title; null once the app row is gone. */
  appTitle: z.string().nullable(),
  /** How many people ran its AI actions that day. */
  people: z.number().int().nonnegative(),
  runs: z.number().int().nonnegative(),
  promptTokens: z.number().nonnegative(),
  completionTokens: z.number().nonnegative(),
});
export type AiUsageRow = z.infer<typeof aiUsageRowSchema>;

/** `GET /api/admin/ai-usage`: the last AI_USAGE_DAYS days, newest first. */
export const aiUsageResponseSchema = z.object({
  days: z.number().int(),
  rows: z.array(aiUsageRowSchema),
});
export type AiUsageResponse = z.infer<typeof aiUsageResponseSchema>;
