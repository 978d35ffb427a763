import type { Kysely } from 'kysely';
import type { EngineMigration } from './engine-migration';

/** Who changed what in an app (docs/product/history.md#who-changed-what). */
export const HISTORY: Record<string, EngineMigration> = {
  '0027_app_changes': () => ({
    async up(db: Kysely<unknown>) {
      // One row per entity, author and store: what of the entity that author changed (paths as
      // JSON), and when the server had it. Gone with the app; the author's name is forgotten with
      // their account (the row stays, said as "someone").
      await db.schema
        .createTable('app_changes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'text', (c) => c.notNull())
        .addColumn('paths', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('author_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('app_changes_app_at')
        .on('app_changes')
        .columns(['app_id', 'at'])
        .execute();
      await db.schema
        .createIndex('app_changes_app_entity_at')
        .on('app_changes')
        .columns(['app_id', 'entity', 'entity_id', 'at'])
        .execute();
    },
  }),
};
