import { type Selectable, type SqlBool, sql } from 'kysely';
import { appIconSchema, avatarSchema } from '@pipit/protocol';
import type { Database } from '../schema';
import type { AppCardRecord, ExploreSearch, PublishingStore } from '../types/publishing';
import type { Db } from './shared';
import { DEFAULT_AVATAR } from './users';

/** Explore shows this many tags. */
export const TOP_TAGS = 20;
/** An app page lists at most this many remixes. */
export const REMIXES_SHOWN = 50;

/** A LIKE pattern that finds `text` anywhere, its own `%`, `_` and `\` taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const like = (column: string, pattern: string) =>
  sql<SqlBool>`${sql.ref(column)} like ${pattern} escape '\\'`;

/**
 * Listed apps (public, published, not archived, by a live account) joined with the version they
 * serve: everything a card shows comes from that version, never from the live document.
 */
function listed(db: Db) {
  return db
    .selectFrom('apps')
    .innerJoin('users', 'users.id', 'apps.owner_id')
    .innerJoin('app_versions as v', (join) =>
      join.onRef('v.app_id', '=', 'apps.id').onRef('v.number', '=', 'apps.published_version'),
    )
    .where('apps.visibility', '=', 'public')
    .where('apps.published_at', 'is not', null)
    .where('apps.archived_at', 'is', null)
    .where('users.deleted_at', 'is', null);
}

type ListedQuery = ReturnType<typeof listed>;

function selectCards(query: ListedQuery) {
  return query.select([
    'apps.id',
    'apps.opens',
    'apps.installs',
    'v.number',
    'v.published_at',
    'v.title',
    'v.description',
    'v.icon',
    'v.tags',
    'users.id as author_id',
    'users.username',
    'users.display_name',
    'users.avatar',
  ]);
}

type CardRow = Pick<Selectable<Database['apps']>, 'id' | 'opens' | 'installs'> &
  Pick<
    Selectable<Database['app_versions']>,
    'number' | 'published_at' | 'title' | 'description' | 'icon' | 'tags'
  > & { author_id: string; username: string; display_name: string; avatar: string };

function parseJson(text: string | null): unknown {
  try {
    return text === null ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

function toCard(row: CardRow): AppCardRecord {
  const icon = appIconSchema.safeParse(parseJson(row.icon));
  const avatar = avatarSchema.safeParse(parseJson(row.avatar));
  const tags = parseJson(row.tags);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    icon: icon.success ? icon.data : null,
    tags: Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [],
    version: Number(row.number),
    publishedAt: Number(row.published_at),
    opens: Number(row.opens),
    installs: Number(row.installs),
    author: {
      id: row.author_id,
      username: row.username,
      displayName: row.display_name,
      avatar: avatar.success ? avatar.data : DEFAULT_AVATAR,
    },
  };
}

function matching(db: Db, search: Pick<ExploreSearch, 'q' | 'tag' | 'author'>): ListedQuery {
  let query = listed(db);
  const q = search.q.trim().toLowerCase();
  if (q) {
    const pattern = containsPattern(q);
    query = query.where((eb) =>
      eb.or([
        like('v.search_text', pattern),
        like('users.username', pattern),
        sql<SqlBool>`lower(${sql.ref('users.display_name')}) like ${pattern} escape '\\'`,
      ]),
    );
  }
  if (search.tag) {
    const tag = search.tag;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('app_version_tags as t')
          .select('t.tag')
          .whereRef('t.app_id', '=', 'apps.id')
          .whereRef('t.number', '=', 'apps.published_version')
          .where('t.tag', '=', tag),
      ),
    );
  }
  if (search.author) query = query.where('users.username', '=', search.author.toLowerCase());
  return query;
}

/** Explore, profiles and remix lists: the queries over listed apps. */
export function createAppCardQueries(
  db: Db,
): Pick<PublishingStore, 'explore' | 'listPublicForOwner' | 'remixes' | 'countRemixes'> {
  return {
    async explore(search) {
      const query = matching(db, search);
      const counted = await query
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      let page = selectCards(query);
      page =
        search.sort === 'popular'
          ? page
              .orderBy(sql`${sql.ref('apps.opens')} + ${sql.ref('apps.installs')}`, 'desc')
              .orderBy('apps.published_at', 'desc')
          : page.orderBy('apps.published_at', 'desc');
      const rows = await page
        .orderBy('apps.id')
        .limit(search.pageSize)
        .offset((search.page - 1) * search.pageSize)
        .execute();
      const tags = await db
        .selectFrom('app_version_tags as t')
        .innerJoin('apps', (join) =>
          join.onRef('apps.id', '=', 't.app_id').onRef('apps.published_version', '=', 't.number'),
        )
        .innerJoin('users', 'users.id', 'apps.owner_id')
        .where('apps.visibility', '=', 'public')
        .where('apps.published_at', 'is not', null)
        .where('apps.archived_at', 'is', null)
        .where('users.deleted_at', 'is', null)
        .select(['t.tag', (eb) => eb.fn.countAll<number>().as('count')])
        .groupBy('t.tag')
        .orderBy('count', 'desc')
        .orderBy('t.tag')
        .limit(TOP_TAGS)
        .execute();
      return {
        apps: rows.map(toCard),
        total: Number(counted.count),
        tags: tags.map((t) => ({ tag: t.tag, count: Number(t.count) })),
      };
    },

    async listPublicForOwner(ownerId) {
      const rows = await selectCards(listed(db).where('apps.owner_id', '=', ownerId))
        .select('users.pinned_app_ids')
        .orderBy('apps.published_at', 'desc')
        .orderBy('apps.id')
        .execute();
      const pinned = parseJson(rows[0]?.pinned_app_ids ?? '[]');
      const rank = new Map(
        (Array.isArray(pinned) ? pinned : []).map((id, index) => [String(id), index]),
      );
      const place = (id: string) => rank.get(id) ?? Number.POSITIVE_INFINITY;
      // A stable sort keeps the newest-first order among the apps that are not pinned.
      return rows.sort((a, b) => place(a.id) - place(b.id) || 0).map(toCard);
    },

    async remixes(appId) {
      const rows = await selectCards(listed(db).where('apps.forked_from', '=', appId))
        .orderBy('apps.published_at', 'desc')
        .orderBy('apps.id')
        .limit(REMIXES_SHOWN)
        .execute();
      return rows.map(toCard);
    },

    async countRemixes(appId) {
      const row = await listed(db)
        .where('apps.forked_from', '=', appId)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },
  };
}
