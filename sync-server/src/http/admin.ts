import path from 'node:path';
import type { Hono } from 'hono';
import {
  type BackupRunSummary,
  type ServerHealth,
  type AdminMessage,
  AI_USAGE_DAYS,
  type AiUsageResponse,
  DIGEST_PATTERN,
  type DroppedReports,
  ERROR_GROUPS_PAGE_SIZE,
  type ErrorDetail,
  type ErrorEvent,
  type ErrorGroupsResponse,
  errorGroupsQuerySchema,
  MESSAGES_PAGE_SIZE,
  REPORT_DROP_REASONS,
  type ReportDropReason,
} from '@pipit/protocol';
import type { Clock } from '../accounts/clock';
import type { Operators } from '../accounts/operators';
import { DAY_MS, utcDay } from '../ai/runs';
import type { BackupRun, ErrorEventRecord, Storage } from '../storage/types';
import { ApiError } from './api-error';
import { fieldsOf } from './body';
import type { ApiEnv } from './context';

/**
 * The operator's inbox (docs/product/error-reporting.md): error groups, one group's latest occurrence, a digest search,
 * contact and feedback. Operators are accounts added with `npm run operator` (by id, with a
 * confirmed email; accounts/operators.ts); for anyone else — signed in or not — every endpoint here
 * is `not_found`, so the inbox does not even show that it exists.
 */

function toEvent(record: ErrorEventRecord): ErrorEvent {
  let event: unknown = null;
  try {
    event = JSON.parse(record.eventJson) as unknown;
  } catch {
    // Stored by this server, so always JSON; a damaged row still shows its other fields.
  }
  return {
    id: record.id,
    fingerprint: record.fingerprint,
    receivedAt: record.receivedAt,
    digest: record.digest,
    route: record.route,
    url: record.url,
    browser: record.browser,
    release: record.release,
    environment: record.environment,
    level: record.level,
    event,
  };
}

/** The drops counted within the retention period, every reason listed. */
async function droppedReports(storage: Storage): Promise<DroppedReports> {
  const rows = await storage.monitoring.drops();
  const byReason = Object.fromEntries(REPORT_DROP_REASONS.map((reason) => [reason, 0])) as Record<
    ReportDropReason,
    number
  >;
  for (const row of rows) byReason[row.reason] = row.count;
  return {
    total: rows.reduce((sum, row) => sum + row.count, 0),
    since: rows.length > 0 ? Math.min(...rows.map((row) => row.since)) : null,
    byReason,
  };
}

/** A sample with its group (the group's own row, so counts and first/last seen are the group's). */
async function detailOf(storage: Storage, sample: ErrorEventRecord): Promise<ErrorDetail | null> {
  const group = await storage.monitoring.group(sample.fingerprint);
  return group ? { group, sample: toEvent(sample) } : null;
}

/** An instance that wrote its figures within this is up (it writes every 15 s). */
const INSTANCE_UP_MS = 60_000;
/** Growth is told over this many days. */
const GROWTH_DAYS = 7;

const runSummary = (run: BackupRun): BackupRunSummary => ({
  instance: run.instance,
  startedAt: run.startedAt,
  finishedAt: run.finishedAt,
  status: run.status,
  file: run.file === null ? null : path.basename(run.file),
  bytes: run.bytes,
  rows: run.rows,
  drill: run.drill,
  message: run.message,
});

/** The server at a glance (docs/operations.md#the-operators-view). */
async function serverHealth(
  storage: Storage,
  now: number,
  settings: { schedule: string | undefined; keep: number },
): Promise<ServerHealth> {
  const [instances, bytes, oldest, runs] = await Promise.all([
    storage.instances.list(now - DAY_MS),
    storage.instances.databaseBytes(),
    storage.instances.sizeSince(utcDay(now) - GROWTH_DAYS * DAY_MS),
    storage.backupRuns.recent(50),
  ]);
  const good = runs.find((run) => run.status === 'done' && run.drill !== 'failed');
  return {
    now,
    engine: storage.engine,
    instances: instances.map((instance) => ({
      ...instance,
      up: instance.seenAt >= now - INSTANCE_UP_MS,
    })),
    storage: {
      bytes,
      growth:
        oldest && oldest.day < utcDay(now)
          ? { days: Math.round((utcDay(now) - oldest.day) / DAY_MS), bytes: bytes - oldest.bytes }
          : null,
    },
    backups: {
      schedule: settings.schedule ?? null,
      keep: settings.keep,
      last: runs[0] ? runSummary(runs[0]) : null,
      lastGood: good ? runSummary(good) : null,
    },
  };
}

export function registerAdmin(
  app: Hono<ApiEnv>,
  {
    storage,
    operators,
    clock,
    backupSettings = { schedule: undefined, keep: 0 },
  }: {
    storage: Storage;
    operators: Pick<Operators, 'isOperatorAccount'>;
    clock: Clock;
    backupSettings?: { schedule: string | undefined; keep: number };
  },
): void {
  // Every endpoint below: operators only, and for anyone else as if it did not exist. Checked on
  // each request, so removing an operator (or their email becoming unconfirmed) applies at once;
  // the account is the one the session middleware read for this very request.
  app.use('/admin/*', async (c, next) => {
    if (!(await operators.isOperatorAccount(c.get('auth')?.user))) {
      throw new ApiError('not_found', 'There is no such API endpoint.');
    }
    await next();
  });

  app.get('/admin/errors', async (c) => {
    const query = errorGroupsQuerySchema.safeParse(c.req.query());
    if (!query.success) {
      throw new ApiError('validation_failed', 'That page of errors does not exist.', {
        fields: fieldsOf(query.error),
      });
    }
    const { page } = query.data;
    const [{ groups, total }, dropped] = await Promise.all([
      storage.monitoring.listGroups({
        limit: ERROR_GROUPS_PAGE_SIZE,
        offset: (page - 1) * ERROR_GROUPS_PAGE_SIZE,
      }),
      droppedReports(storage),
    ]);
    const body: ErrorGroupsResponse = {
      groups,
      page,
      pageCount: Math.max(1, Math.ceil(total / ERROR_GROUPS_PAGE_SIZE)),
      total,
      dropped,
    };
    return c.json(body);
  });

  app.get('/admin/errors/:fingerprint', async (c) => {
    const sample = await storage.monitoring.sampleEvent(c.req.param('fingerprint'));
    const detail = sample ? await detailOf(storage, sample) : null;
    if (!detail) throw new ApiError('not_found', 'No error like this is stored (any more).');
    return c.json(detail);
  });

  app.get('/admin/digests/:digest', async (c) => {
    const digest = c.req.param('digest').trim().toLowerCase();
    if (!DIGEST_PATTERN.test(digest)) {
      throw new ApiError('validation_failed', 'A digest is 12 characters, 0–9 and a–f.', {
        fields: { digest: 'A digest is 12 characters, 0–9 and a–f.' },
      });
    }
    const sample = await storage.monitoring.findByDigest(digest);
    const detail = sample ? await detailOf(storage, sample) : null;
    if (!detail) {
      throw new ApiError(
        'not_found',
        'No stored error has this digest. It may be older than the retention period.',
      );
    }
    return c.json(detail);
  });

  // AI runs and tokens per UTC day and app (docs/product/ai.md, "Usage"): counts only.
  app.get('/admin/ai-usage', async (c) => {
    const today = utcDay(clock.now());
    const rows = await storage.aiUsage.dailyUsage(today - (AI_USAGE_DAYS - 1) * DAY_MS);
    const body: AiUsageResponse = {
      days: AI_USAGE_DAYS,
      rows: rows.map((row) => ({
        day: new Date(row.day).toISOString().slice(0, 10),
        appId: row.appId,
        appTitle: row.appTitle,
        people: row.people,
        runs: row.runs,
        promptTokens: row.promptTokens,
        completionTokens: row.completionTokens,
      })),
    };
    return c.json(body);
  });

  app.get('/admin/health', async (c) => {
    return c.json(await serverHealth(storage, clock.now(), backupSettings));
  });

  app.get('/admin/messages', async (c) => {
    const records = await storage.messages.list(MESSAGES_PAGE_SIZE);
    const ids = [...new Set(records.flatMap((m) => (m.userId ? [m.userId] : [])))];
    const users = await storage.users.findByIds(ids);
    const messages: AdminMessage[] = records.map((m) => ({
      id: m.id,
      kind: m.kind,
      email: m.email,
      username: (m.userId && users.get(m.userId)?.username) || null,
      body: m.body,
      page: m.page,
      createdAt: m.createdAt,
    }));
    return c.json({ messages });
  });
}
