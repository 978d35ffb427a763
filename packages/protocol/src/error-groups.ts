// zod/mini, in a module of its own: the inbox's route reads its first page with these, every page
// loads the route tree, and a module's classic zod schemas would all come along (zod's builders
// are not known to be pure, so a bundler keeps every one of them).
import * as zm from 'zod/mini';
import { lazySchema } from './lazy-schema';

export const ERROR_GROUPS_PAGE_SIZE = 25;

export const errorGroupSchema = lazySchema(() =>
  zm.object({
    fingerprint: zm.string(),
    source: zm.enum(['client', 'server']),
    type: zm.string(),
    message: zm.string(),
    topFrame: zm.nullable(zm.string()),
    count: zm.int(),
    firstSeen: zm.number(),
    lastSeen: zm.number(),
    /** A few routes and browsers of its latest occurrences, most recent first. */
    routes: zm.array(zm.string()),
    browsers: zm.array(zm.string()),
  }),
);
export type ErrorGroup = zm.infer<typeof errorGroupSchema>;

/**
 * Why the server kept a report it was sent less than whole, or not at all: too many from one
 * address in a minute (`rate_limited`), that address's stored bytes for the day spent
 * (`over_budget`), over 1 MiB (`too_large`), or stored and later removed, oldest first, to stay
 * under the caps on stored reports and kinds of error (`evicted`).
 */
export const REPORT_DROP_REASONS = ['rate_limited', 'over_budget', 'too_large', 'evicted'] as const;
export type ReportDropReason = (typeof REPORT_DROP_REASONS)[number];

/** Reports dropped within the retention period, by reason; `since` is the first day counted. */
export const droppedReportsSchema = lazySchema(() =>
  zm.object({
    total: zm.int(),
    /** The start (UTC midnight, epoch ms) of the oldest day with a drop; null when there is none. */
    since: zm.nullable(zm.number()),
    byReason: zm.record(zm.enum(REPORT_DROP_REASONS), zm.int()),
  }),
);
export type DroppedReports = zm.infer<typeof droppedReportsSchema>;

/** `GET /api/admin/errors?page=` — the groups, the most recently seen first. */
export const errorGroupsQuerySchema = lazySchema(() =>
  zm.object({
    page: zm._default(zm.coerce.number().check(zm.int(), zm.minimum(1), zm.maximum(10_000)), 1),
  }),
);
export const errorGroupsResponseSchema = lazySchema(() =>
  zm.object({
    groups: zm.array(errorGroupSchema),
    page: zm.int(),
    pageCount: zm.int(),
    total: zm.int(),
    /** What was not kept: the inbox says so, since those errors are missing from it. */
    dropped: droppedReportsSchema,
  }),
);
export type ErrorGroupsResponse = zm.infer<typeof errorGroupsResponseSchema>;
