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

/** One instance as the operator's health view shows it (docs/operations.md#the-operators-view). */
export const instanceHealthSchema = z.object({
  name: z.string(),
  version: z.string(),
  startedAt: z.number(),
  /** When it last wrote its figures; an instance writes every 15 s. */
  seenAt: z.number(),
  /** Heard from in the last minute. */
  up: z.boolean(),
  sockets: z.number().int().nonnegative(),
  documents: z.number().int().nonnegative(),
  rssBytes: z.number().nonnegative(),
  heapBytes: z.number().nonnegative(),
  /** HTTP responses in the `windowMs` before `seenAt`, and those that were server errors (5xx). */
  windowMs: z.number().int().nonnegative(),
  requests: z.number().int().nonnegative(),
  serverErrors: z.number().int().nonnegative(),
});
export type InstanceHealth = z.infer<typeof instanceHealthSchema>;

/** A scheduled backup as the health view shows it: the file's name, not where it is. */
export const backupRunSummarySchema = z.object({
  instance: z.string(),
  startedAt: z.number(),
  finishedAt: z.number(),
  status: z.enum(['done', 'failed']),
  file: z.string().nullable(),
  bytes: z.number().nullable(),
  rows: z.number().nullable(),
  drill: z.enum(['restored', 'failed']).nullable(),
  message: z.string().nullable(),
});
export type BackupRunSummary = z.infer<typeof backupRunSummarySchema>;

/** `GET /api/admin/health`: the server at a glance, for operators. */
export const serverHealthSchema = z.object({
  now: z.number(),
  engine: z.enum(['sqlite', 'postgres']),
  /** Every instance heard from in the last day, by name. */
  instances: z.array(instanceHealthSchema),
  storage: z.object({
    bytes: z.number().nonnegative(),
    /** Since the oldest size kept within the last `days` days; null before a day has passed. */
    growth: z.object({ days: z.number().int().positive(), bytes: z.number() }).nullable(),
  }),
  backups: z.object({
    /** BACKUP_SCHEDULE, or null when backups are by hand only. */
    schedule: z.string().nullable(),
    keep: z.number().int(),
    /** The newest scheduled run, and the newest that was made and restored in its drill. */
    last: backupRunSummarySchema.nullable(),
    lastGood: backupRunSummarySchema.nullable(),
  }),
});
export type ServerHealth = z.infer<typeof serverHealthSchema>;
