import { sql } from 'kysely';
import type { ErrorEventRecord, ErrorGroupRecord, ErrorSource, MonitoringStore } from '../types';
import type { Database } from '../schema';
import type { Db } from './shared';

type GroupRow = Database['error_groups'];

/** How many routes and browsers a group lists (the inbox shows "a few"). */
const AFFECTED_SHOWN = 5;

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

export function createMonitoringStore(db: Db): MonitoringStore {
  /** Events with their group's identity, newest first. */
  const events = () =>
    db
      .selectFrom('error_events as e')
      .innerJoin('error_groups as g', 'g.fingerprint', 'e.fingerprint')
      .selectAll('e')
      .select(['g.source', 'g.type', 'g.message', 'g.top_frame'])
      .orderBy('e.received_at', 'desc')
      .orderBy('e.id', 'desc');

  /** The most recent distinct values of a column for each group, a few each. */
  async function recentValues(
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
  async function toGroups(rows: GroupRow[]): Promise<ErrorGroupRecord[]> {
    const fingerprints = rows.map((r) => r.fingerprint);
    const [routes, browsers] = await Promise.all([
      recentValues('route', fingerprints),
      recentValues('browser', fingerprints),
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
          .onConflict((oc) => oc.column('fingerprint').doNothing())
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
      return { groups: await toGroups(rows), total: Number(totalRow.n) };
    },

    async group(fingerprint) {
      const rows = await db
        .selectFrom('error_groups')
        .selectAll()
        .where('fingerprint', '=', fingerprint)
        .execute();
      return (await toGroups(rows))[0] ?? null;
    },

    async sampleEvent(fingerprint) {
      const row = await events().where('e.fingerprint', '=', fingerprint).executeTakeFirst();
      return row ? toEvent(row) : null;
    },

    async findByDigest(digest) {
      const row = await events().where('e.digest', '=', digest).executeTakeFirst();
      return row ? toEvent(row) : null;
    },

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
        return {
          events: Number(removedEvents.numDeletedRows),
          groups: Number(removedGroups.numDeletedRows),
        };
      });
    },
  };
}
