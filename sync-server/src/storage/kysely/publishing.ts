import { type Selectable, sql } from 'kysely';
import { appIconSchema } from '@pipit/protocol';
import type { Database } from '../schema';
import { NotFoundError } from '../types/errors';
import type { AppVersionRecord, PublishingStore } from '../types/publishing';
import { createAppCardQueries } from './app-cards';
import type { Db } from './shared';

function toVersion(row: Selectable<Database['app_versions']>): AppVersionRecord {
  const icon = row.icon ? appIconSchema.safeParse(JSON.parse(row.icon)) : null;
  return {
    appId: row.app_id,
    number: Number(row.number),
    definitionJson: row.definition,
    publisherId: row.publisher_id,
    publishedAt: Number(row.published_at),
    title: row.title,
    description: row.description,
    icon: icon?.success ? icon.data : null,
    tags: JSON.parse(row.tags) as string[],
  };
}

/**
 * Publishing (docs/product/records.md): the cards of published apps, their versions, whether and to
 * whom an app is published, and how many people opened and installed it.
 */
export function createPublishingStore(db: Db): PublishingStore {
  return {
    ...createAppCardQueries(db),
    ...publishedVersions(db),
    ...publication(db),
    ...popularity(db),
  };
}

/** Publishing a version (numbers never reused), and reading an app's versions. */
function publishedVersions(db: Db): Pick<PublishingStore, 'publish' | 'version' | 'versions'> {
  return {
    async publish({ appId, definitionJson, listing, publisherId, publishedAt, visibility }) {
      return db.transaction().execute(async (trx) => {
        // The app's row is written first: on PostgreSQL that locks it, so a concurrent publish
        // waits here and then reads the version this one adds (SQLite runs one transaction at a
        // time). Numbers are never reused.
        const app = await trx
          .updateTable('apps')
          .set({ visibility, published_at: publishedAt })
          .where('id', '=', appId)
          .returning('id')
          .executeTakeFirst();
        if (!app) throw new NotFoundError(`No app ${appId}`);
        const last = await trx
          .selectFrom('app_versions')
          .select((eb) => eb.fn.max('number').as('number'))
          .where('app_id', '=', appId)
          .executeTakeFirst();
        const number = Number(last?.number ?? 0) + 1;
        const tags = [...new Set(listing.tags)];
        await trx
          .insertInto('app_versions')
          .values({
            app_id: appId,
            number,
            definition: definitionJson,
            publisher_id: publisherId,
            published_at: publishedAt,
            title: listing.title,
            description: listing.description,
            icon: listing.icon ? JSON.stringify(listing.icon) : null,
            tags: JSON.stringify(tags),
            search_text: [listing.title, listing.description, ...tags].join('\n').toLowerCase(),
          })
          .execute();
        if (tags.length > 0) {
          await trx
            .insertInto('app_version_tags')
            .values(tags.map((tag) => ({ app_id: appId, number, tag })))
            .execute();
        }
        await trx
          .updateTable('apps')
          .set({ published_version: number })
          .where('id', '=', appId)
          .execute();
        return { number };
      });
    },

    async version(appId, number) {
      const row = await db
        .selectFrom('app_versions')
        .selectAll()
        .where('app_id', '=', appId)
        .where('number', '=', number)
        .executeTakeFirst();
      return row ? toVersion(row) : null;
    },

    async versions(appId) {
      const rows = await db
        .selectFrom('app_versions as v')
        .leftJoin('users', 'users.id', 'v.publisher_id')
        .select([
          'v.number',
          'v.published_at',
          'users.username',
          'users.display_name',
          'users.deleted_at',
        ])
        .where('v.app_id', '=', appId)
        .orderBy('v.number', 'desc')
        .execute();
      return rows.map((row) => ({
        number: Number(row.number),
        publishedAt: Number(row.published_at),
        publisher:
          row.username !== null && row.deleted_at === null
            ? { username: row.username, displayName: row.display_name || row.username }
            : null,
      }));
    },
  };
}

/** Whether an app is published, and who may see it. */
function publication(
  db: Db,
): Pick<PublishingStore, 'unpublish' | 'setVisibility' | 'countPublished'> {
  return {
    async unpublish(appId) {
      const result = await db
        .updateTable('apps')
        .set({ published_version: null, published_at: null })
        .where('id', '=', appId)
        .where('published_at', 'is not', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async setVisibility(appId, visibility) {
      await db.updateTable('apps').set({ visibility }).where('id', '=', appId).execute();
    },

    async countPublished(ownerId) {
      const row = await db
        .selectFrom('apps')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('owner_id', '=', ownerId)
        .where('published_at', 'is not', null)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
  };
}

/** Opens and installs, each visitor counted once, and the visitors forgotten after a while. */
function popularity(
  db: Db,
): Pick<PublishingStore, 'recordEvent' | 'forgetVisitors' | 'eventCounts'> {
  return {
    async recordEvent(appId, kind, visitor, at) {
      return db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('app_events')
          .values({ app_id: appId, kind, visitor, created_at: at })
          .onConflict((oc) => oc.columns(['app_id', 'kind', 'visitor']).doNothing())
          .returning('visitor')
          .executeTakeFirst();
        if (!inserted) return false;
        const counter = kind === 'open' ? 'opens' : 'installs';
        await trx
          .updateTable('apps')
          .set({ [counter]: sql<number>`${sql.ref(counter)} + 1` })
          .where('id', '=', appId)
          .execute();
        return true;
      });
    },

    async forgetVisitors(countedBefore, keepAtMost) {
      return db.transaction().execute(async (trx) => {
        const old = await trx
          .deleteFrom('app_events')
          .where('created_at', '<', countedBefore)
          .executeTakeFirst();
        const newestOver = await trx
          .selectFrom('app_events')
          .select('created_at')
          .orderBy('created_at', 'desc')
          .offset(keepAtMost)
          .limit(1)
          .executeTakeFirst();
        let over = 0;
        if (newestOver) {
          const removed = await trx
            .deleteFrom('app_events')
            .where('created_at', '<=', newestOver.created_at)
            .executeTakeFirst();
          over = Number(removed.numDeletedRows);
        }
        return Number(old.numDeletedRows) + over;
      });
    },

    async eventCounts(appId) {
      const row = await db
        .selectFrom('apps')
        .select(['opens', 'installs'])
        .where('id', '=', appId)
        .executeTakeFirst();
      return { opens: Number(row?.opens ?? 0), installs: Number(row?.installs ?? 0) };
    },
  };
}
