import { sql } from 'kysely';
import type { AiUsageStore } from '../types/ai-usage';
import type { Db } from './shared';

/*
 * Usage with no app (apps made from a description) is stored under the app id '' — never an app's
 * id — because the app id is part of the primary key, which cannot hold null, and the upsert must
 * find the row again. Callers see null.
 */
const NO_APP = '';

export function createAiUsageStore(db: Db): AiUsageStore {
  return {
    async reserveRun(userId, day, limit) {
      if (limit <= 0) return { taken: false, used: await this.runsUsed(userId, day) };
      // One statement: the insert takes the first run; on conflict the row is locked (PostgreSQL)
      // or the database is (SQLite), and the update happens only while runs < limit, judged on
      // the row as it is now. Two racing runs cannot both take the last one.
      const row = await db
        .insertInto('ai_quota')
        .values({ user_id: userId, day, runs: 1 })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'day'])
            .doUpdateSet({ runs: sql<number>`${sql.ref('ai_quota.runs')} + 1` })
            .where('ai_quota.runs', '<', limit),
        )
        .returning('runs')
        .executeTakeFirst();
      if (row) return { taken: true, used: Number(row.runs) };
      return { taken: false, used: await this.runsUsed(userId, day) };
    },

    async releaseRun(userId, day) {
      await db
        .updateTable('ai_quota')
        .set({ runs: sql<number>`${sql.ref('runs')} - 1` })
        .where('user_id', '=', userId)
        .where('day', '=', day)
        .where('runs', '>', 0)
        .execute();
    },

    async runsUsed(userId, day) {
      const row = await db
        .selectFrom('ai_quota')
        .select('runs')
        .where('user_id', '=', userId)
        .where('day', '=', day)
        .executeTakeFirst();
      return row ? Number(row.runs) : 0;
    },

    async record(usage) {
      await db
        .insertInto('ai_usage')
        .values({
          day: usage.day,
          app_id: usage.appId ?? NO_APP,
          user_id: usage.userId,
          runs: usage.runs,
          prompt_tokens: usage.promptTokens,
          completion_tokens: usage.completionTokens,
        })
        .onConflict((oc) =>
          oc.columns(['day', 'app_id', 'user_id']).doUpdateSet({
            runs: sql<number>`${sql.ref('ai_usage.runs')} + ${usage.runs}`,
            prompt_tokens: sql<number>`${sql.ref('ai_usage.prompt_tokens')} + ${usage.promptTokens}`,
            completion_tokens: sql<number>`${sql.ref('ai_usage.completion_tokens')} + ${usage.completionTokens}`,
          }),
        )
        .execute();
    },

    async dailyUsage(sinceDay) {
      const rows = await db
        .selectFrom('ai_usage')
        .leftJoin('apps', 'apps.id', 'ai_usage.app_id')
        .select((eb) => [
          'ai_usage.day',
          'ai_usage.app_id',
          eb.fn.max('apps.title').as('app_title'),
          eb.fn.count<number>('ai_usage.user_id').as('people'),
          eb.fn.sum<number>('ai_usage.runs').as('runs'),
          eb.fn.sum<number>('ai_usage.prompt_tokens').as('prompt_tokens'),
          eb.fn.sum<number>('ai_usage.completion_tokens').as('completion_tokens'),
        ])
        .where('ai_usage.day', '>=', sinceDay)
        .groupBy(['ai_usage.day', 'ai_usage.app_id'])
        .orderBy('ai_usage.day', 'desc')
        .orderBy('runs', 'desc')
        .orderBy('ai_usage.app_id')
        .execute();
      return rows.map((r) => ({
        day: Number(r.day),
        appId: r.app_id === NO_APP ? null : r.app_id,
        appTitle: r.app_title ?? null,
        people: Number(r.people),
        runs: Number(r.runs),
        promptTokens: Number(r.prompt_tokens),
        completionTokens: Number(r.completion_tokens),
      }));
    },

    async prune(beforeDay) {
      await db.deleteFrom('ai_quota').where('day', '<', beforeDay).execute();
      await db.deleteFrom('ai_usage').where('day', '<', beforeDay).execute();
    },

    async deleteForUser(userId) {
      await db.deleteFrom('ai_quota').where('user_id', '=', userId).execute();
      await db.deleteFrom('ai_usage').where('user_id', '=', userId).execute();
    },

    async deleteForApp(appId) {
      await db.deleteFrom('ai_usage').where('app_id', '=', appId).execute();
    },
  };
}
