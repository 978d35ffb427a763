import type { Selectable } from 'kysely';
import type { Database } from '../schema';
import type { JobRecord, JobStore } from '../types/jobs';
import type { Db } from './shared';

function toRecord(row: Selectable<Database['jobs']>): JobRecord {
  const orNull = (value: number | null) => (value === null ? null : Number(value));
  return {
    id: row.id,
    kind: row.kind,
    key: row.key,
    payload: row.payload,
    runAt: Number(row.run_at),
    attempts: Number(row.attempts),
    leaseUntil: orNull(row.lease_until),
    leasedBy: row.leased_by,
    lastError: row.last_error,
    doneAt: orNull(row.done_at),
    failedAt: orNull(row.failed_at),
  };
}

export function createJobStore(db: Db): JobStore {
  return {
    async enqueue(job) {
      // A finished job (done or failed) gives its key up: the same key starts afresh on its row.
      // A queued or running one keeps it, and the conflict's WHERE makes the upsert a no-op.
      const row = await db
        .insertInto('jobs')
        .values({
          id: job.id,
          kind: job.kind,
          key: job.key,
          payload: job.payload,
          run_at: job.runAt,
          attempts: 0,
        })
        .onConflict((oc) =>
          oc
            .column('key')
            .doUpdateSet({
              id: job.id,
              kind: job.kind,
              payload: job.payload,
              run_at: job.runAt,
              attempts: 0,
              lease_until: null,
              leased_by: null,
              last_error: null,
              done_at: null,
              failed_at: null,
            })
            .where((eb) =>
              eb.or([eb('jobs.done_at', 'is not', null), eb('jobs.failed_at', 'is not', null)]),
            ),
        )
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },
    async claim(kind, limit, worker, now, leaseMs) {
      // The conditions are repeated outside the subquery: SQLite runs one writer at a time, and
      // on PostgreSQL a second claimer that waited for the row's lock re-checks them against the
      // row as the first one left it, so it skips a row that was just leased.
      const rows = await db
        .updateTable('jobs')
        .set((eb) => ({
          lease_until: now + leaseMs,
          leased_by: worker,
          attempts: eb('attempts', '+', 1),
        }))
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('jobs')
            .select('id')
            .where('kind', '=', kind)
            .where('done_at', 'is', null)
            .where('failed_at', 'is', null)
            .where('run_at', '<=', now)
            .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<', now)]))
            .orderBy('run_at')
            .limit(limit),
        )
        .where('done_at', 'is', null)
        .where('failed_at', 'is', null)
        .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<', now)]))
        .returningAll()
        .execute();
      return rows.map(toRecord);
    },
    async extendLease(id, worker, leaseUntil) {
      const result = await db
        .updateTable('jobs')
        .set({ lease_until: leaseUntil })
        .where('id', '=', id)
        .where('leased_by', '=', worker)
        .where('done_at', 'is', null)
        .where('failed_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async complete(id, worker, now) {
      const result = await db
        .updateTable('jobs')
        .set({ done_at: now, lease_until: null, leased_by: null })
        .where('id', '=', id)
        .where('leased_by', '=', worker)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async retry(id, worker, runAt, error) {
      const result = await db
        .updateTable('jobs')
        .set({ run_at: runAt, lease_until: null, leased_by: null, last_error: error })
        .where('id', '=', id)
        .where('leased_by', '=', worker)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async fail(id, worker, now, error) {
      const result = await db
        .updateTable('jobs')
        .set({ failed_at: now, lease_until: null, leased_by: null, last_error: error })
        .where('id', '=', id)
        .where('leased_by', '=', worker)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async get(key) {
      const row = await db.selectFrom('jobs').selectAll().where('key', '=', key).executeTakeFirst();
      return row ? toRecord(row) : null;
    },
    async prune(before) {
      const result = await db
        .deleteFrom('jobs')
        .where((eb) => eb.or([eb('done_at', '<', before), eb('failed_at', '<', before)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
