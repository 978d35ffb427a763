import { sql } from 'kysely';
import type { ReportDropReason } from '@pipit/protocol';
import {
  ERROR_SOURCES,
  type ErrorEventRecord,
  type ErrorGroupRecord,
  type ErrorSource,
  type MonitoringStore,
} from '../types/monitoring';
import type { Database } from '../schema';
import type { Db } from './shared';

type GroupRow = Database['error_groups'];

/** How many routes and browsers a group lists (the inbox shows "a few"). */
const AFFECTED_SHOWN = 5;
const DAY_MS = 24 * 60 * 60 * 1000;

/** An occurrence with its group's identity (events() below joins them). */
type EventRow = Database['error_events'] &
  Pick<GroupRow, 'source' | 'type' | 'message' | 'top_frame'>;

function toEvent(row: EventRow): ErrorEventRecord {
  return {
    id: row.id,
    fingerprint: row.fingerprint,
    source: row.source as ErrorSource,
    type: row.type,
    message: row.message,
    topFrame: row.top_frame,
    receivedAt: Number(row.received_at),
    digest: row.digest,
    route: row.route,
    url: row.url,
    browser: row.browser,
    release: row.release,
    environment: row.environment,
    level: row.level,
    eventJson: row.event,
  };
}

/** Events with their group's identity, newest first. */
const events = (db: Db) =>
  db
    .selectFrom('error_events as e')
    .innerJoin('error_groups as g', 'g.fingerprint', 'e.fingerprint')
    .selectAll('e')
    .select(['g.source', 'g.type', 'g.message', 'g.top_frame'])
    .orderBy('e.received_at', 'desc')
    .orderBy('e.id', 'desc');

/** The most recent distinct values of a column for each group, a few each. */
async function recentValues(
  db: Db,
  column: 'route' | 'browser',
  fingerprints: string[],
): Promise<Map<string, string[]>> {
  const byGroup = new Map<string, string[]>();
  if (fingerprints.length === 0) return byGroup;
  const ranked = db
    .selectFrom('error_events')
    .select([
      'fingerprint',
      sql<string>`${sql.ref(column)}`.as('value'),
      sql<number>`row_number() over (partition by ${sql.ref('fingerprint')} order by max(${sql.ref('received_at')}) desc)`.as(
        'rank',
      ),
    ])
    .where('fingerprint', 'in', fingerprints)
    .where(column, 'is not', null)
    .groupBy(['fingerprint', column]);
  const rows = await db
    .selectFrom(ranked.as('r'))
    .select(['fingerprint', 'value'])
    .where('rank', '<=', AFFECTED_SHOWN)
    .orderBy('fingerprint')
    .orderBy('rank')
    .execute();
  for (const row of rows) {
    const values = byGroup.get(row.fingerprint) ?? [];
    values.push(row.value);
    byGroup.set(row.fingerprint, values);
  }
  return byGroup;
}

/** Group rows with a few of their recent routes and browsers. */
async function toGroups(db: Db, rows: GroupRow[]): Promise<ErrorGroupRecord[]> {
  const fingerprints = rows.map((r) => r.fingerprint);
  const [routes, browsers] = await Promise.all([
    recentValues(db, 'route', fingerprints),
    recentValues(db, 'browser', fingerprints),
  ]);
  return rows.map((r) => ({
    fingerprint: r.fingerprint,
    source: r.source as ErrorSource,
    type: r.type,
    message: r.message,
    topFrame: r.top_frame,
    count: Number(r.count),
    firstSeen: Number(r.first_seen),
    lastSeen: Number(r.last_seen),
    routes: routes.get(r.fingerprint) ?? [],
    browsers: browsers.get(r.fingerprint) ?? [],
  }));
}

/**
 * Error reports (docs/product/error-reporting.md): occurrences grouped by fingerprint, read by the
 * operator's inbox, kept within their age and caps, and the count of reports refused unread.
 */
export function createMonitoringStore(db: Db): MonitoringStore {
  return {
    ...errorRecording(db),
    ...errorReads(db),
    ...errorRetention(db),
    ...reportDrops(db),
  };
}

/** Recording an occurrence in its group. */
function errorRecording(db: Db): Pick<MonitoringStore, 'record'> {
  return {
    async record(e) {
      return db.transaction().execute(async (trx) => {
        await trx
          .insertInto('error_groups')
          .values({
            fingerprint: e.fingerprint,
            source: e.source,
            type: e.type,
            message: e.message,
            top_frame: e.topFrame,
            count: 0,
            first_seen: e.receivedAt,
            last_seen: e.receivedAt,
          })
          // A no-op update rather than nothing: on PostgreSQL it locks the group's row, so an
          // eviction of that group (evict below) waits for this occurrence instead of the
          // occurrence failing on a group deleted under it.
          .onConflict((oc) =>
            oc.column('fingerprint').doUpdateSet({ fingerprint: sql.ref('excluded.fingerprint') }),
          )
          .execute();
        const inserted = await trx
          .insertInto('error_events')
          .values({
            id: e.id,
            fingerprint: e.fingerprint,
            received_at: e.receivedAt,
            digest: e.digest,
            route: e.route,
            url: e.url,
            browser: e.browser,
            release: e.release,
            environment: e.environment,
            level: e.level,
            event: e.eventJson,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!inserted) {
          // A report sent again (the SDK retries after being offline): the group it may have just
          // created for it goes too.
          await trx
            .deleteFrom('error_groups')
            .where('fingerprint', '=', e.fingerprint)
            .where('count', '=', 0)
            .execute();
          return false;
        }
        const at = e.receivedAt;
        await trx
          .updateTable('error_groups')
          .set({
            count: sql<number>`${sql.ref('count')} + 1`,
            first_seen: sql<number>`CASE WHEN ${sql.ref('first_seen')} > ${at} THEN ${at} ELSE ${sql.ref('first_seen')} END`,
            last_seen: sql<number>`CASE WHEN ${sql.ref('last_seen')} < ${at} THEN ${at} ELSE ${sql.ref('last_seen')} END`,
          })
          .where('fingerprint', '=', e.fingerprint)
          .execute();
        return true;
      });
    },
  };
}

/** The groups and occurrences, as the operator's inbox reads them. */
function errorReads(
  db: Db,
): Pick<MonitoringStore, 'listGroups' | 'group' | 'sampleEvent' | 'findByDigest'> {
  return {
    async listGroups({ limit, offset }) {
      const [rows, totalRow] = await Promise.all([
        db
          .selectFrom('error_groups')
          .selectAll()
          .orderBy('last_seen', 'desc')
          .orderBy('fingerprint')
          .limit(limit)
          .offset(offset)
          .execute(),
        db
          .selectFrom('error_groups')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { groups: await toGroups(db, rows), total: Number(totalRow.n) };
    },

    async group(fingerprint) {
      const rows = await db
        .selectFrom('error_groups')
        .selectAll()
        .where('fingerprint', '=', fingerprint)
        .execute();
      return (await toGroups(db, rows))[0] ?? null;
    },

    async sampleEvent(fingerprint) {
      const row = await events(db).where('e.fingerprint', '=', fingerprint).executeTakeFirst();
      return row ? toEvent(row) : null;
    },

    async findByDigest(digest) {
      const row = await events(db).where('e.digest', '=', digest).executeTakeFirst();
      return row ? toEvent(row) : null;
    },
  };
}

/** Forgetting old reports, and keeping each source within its caps. */
function errorRetention(db: Db): Pick<MonitoringStore, 'prune' | 'evict'> {
  return {
    async prune(olderThan) {
      return db.transaction().execute(async (trx) => {
        const removedEvents = await trx
          .deleteFrom('error_events')
          .where('received_at', '<', olderThan)
          .executeTakeFirst();
        // `last_seen` first: a group that has just been seen again is never a candidate, even while
        // its new occurrence is not yet committed.
        const removedGroups = await trx
          .deleteFrom('error_groups')
          .where('last_seen', '<', olderThan)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('error_events')
                  .select('error_events.id')
                  .whereRef('error_events.fingerprint', '=', 'error_groups.fingerprint'),
              ),
            ),
          )
          .executeTakeFirst();
        await trx.deleteFrom('report_drops').where('day', '<', dayOf(olderThan)).execute();
        return {
          events: Number(removedEvents.numDeletedRows),
          groups: Number(removedGroups.numDeletedRows),
        };
      });
    },

    async evict({ maxEvents, maxGroups }, sources = ERROR_SOURCES) {
      return db.transaction().execute(async (trx) => {
        let events = 0;
        let groups = 0;
        // Each source within its own caps: a flood of anonymous browser reports never pushes out
        // the server's own failures.
        for (const source of sources) {
          const groupsOf = trx
            .selectFrom('error_groups')
            .select('fingerprint')
            .where('source', '=', source);
          // The newest group past the cap: it and every group seen before it go.
          const lastGroup = await trx
            .selectFrom('error_groups')
            .select(['last_seen', 'fingerprint'])
            .where('source', '=', source)
            .orderBy('last_seen', 'desc')
            .orderBy('fingerprint', 'desc')
            .offset(maxGroups)
            .limit(1)
            .executeTakeFirst();
          if (lastGroup) {
            const evicted = groupsOf.where((eb) =>
              eb.or([
                eb('last_seen', '<', lastGroup.last_seen),
                eb.and([
                  eb('last_seen', '=', lastGroup.last_seen),
                  eb('fingerprint', '<=', lastGroup.fingerprint),
                ]),
              ]),
            );
            const removedEvents = await trx
              .deleteFrom('error_events')
              .where('fingerprint', 'in', evicted)
              .executeTakeFirst();
            const removedGroups = await trx
              .deleteFrom('error_groups')
              .where('fingerprint', 'in', evicted)
              .executeTakeFirst();
            events += Number(removedEvents.numDeletedRows);
            groups += Number(removedGroups.numDeletedRows);
          }
          // Likewise the newest occurrence past the cap, and every older one.
          const lastEvent = await trx
            .selectFrom('error_events')
            .select(['received_at', 'id'])
            .where('fingerprint', 'in', groupsOf)
            .orderBy('received_at', 'desc')
            .orderBy('id', 'desc')
            .offset(maxEvents)
            .limit(1)
            .executeTakeFirst();
          if (lastEvent) {
            const removed = await trx
              .deleteFrom('error_events')
              .where('fingerprint', 'in', groupsOf)
              .where((eb) =>
                eb.or([
                  eb('received_at', '<', lastEvent.received_at),
                  eb.and([
                    eb('received_at', '=', lastEvent.received_at),
                    eb('id', '<=', lastEvent.id),
                  ]),
                ]),
              )
              .executeTakeFirst();
            events += Number(removed.numDeletedRows);
          }
        }
        return { events, groups };
      });
    },
  };
}

/** Reports refused before they were read, counted per day and reason. */
function reportDrops(db: Db): Pick<MonitoringStore, 'countDrops' | 'drops'> {
  return {
    async countDrops(reason, at, count) {
      if (count <= 0) return;
      await db
        .insertInto('report_drops')
        .values({ day: dayOf(at), reason, count })
        .onConflict((oc) =>
          oc.columns(['day', 'reason']).doUpdateSet({
            count: sql<number>`${sql.ref('report_drops.count')} + ${count}`,
          }),
        )
        .execute();
    },

    async drops() {
      const rows = await db
        .selectFrom('report_drops')
        .select((eb) => [
          'reason',
          eb.fn.sum<number | string>('count').as('count'),
          eb.fn.min<number>('day').as('since'),
        ])
        .groupBy('reason')
        .orderBy('reason')
        .execute();
      return rows.map((row) => ({
        reason: row.reason as ReportDropReason,
        count: Number(row.count),
        since: Number(row.since),
      }));
    },
  };
}

/** The start of the UTC day of `at`, as drops are counted. */
function dayOf(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS;
}
