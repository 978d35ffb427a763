import { type Kysely, sql } from 'kysely';
import type { EngineMigration } from './engine-migration';

/**
 * Who changed what in an app (docs/product/history.md#who-changed-what), and Ask AI's suggestions
 * kept for review (docs/product/ai-builder.md#suggestions-kept-for-review), and drafts of an app
 * (docs/product/drafts.md).
 */
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
  '0028_app_suggestions': (engine) => ({
    async up(db: Kysely<unknown>) {
      const bytes = engine === 'postgres' ? sql`bytea` : sql`blob`;
      // One row per suggestion: the app when it was made and as the AI would make it (gzipped
      // JSON, emptied once it is decided), the conversation, and what became of it. Gone with the app; who asked and who
      // closed it are forgotten with their accounts.
      await db.schema
        .createTable('app_suggestions')
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('asked', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('earlier', 'text', (c) => c.notNull())
        .addColumn('base', bytes, (c) => c.notNull())
        .addColumn('proposed', bytes, (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('closed_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('closed_at', 'bigint')
        .addPrimaryKeyConstraint('app_suggestions_pk', ['app_id', 'id'])
        .execute();
      await db.schema
        .createIndex('app_suggestions_app_status')
        .on('app_suggestions')
        .columns(['app_id', 'status', 'created_at'])
        .execute();
    },
  }),
  '0029_app_drafts': (engine) => ({
    async up(db: Kysely<unknown>) {
      const bytes = engine === 'postgres' ? sql`bytea` : sql`blob`;
      // One row per draft: its name, the app's definition it compares against (gzipped JSON,
      // emptied once it is closed) and when it took that in, and what became of it. Its document
      // is `draft/{appId}/{id}` in `documents`. Gone with the app; who started and who closed it
      // are forgotten with their accounts.
      await db.schema
        .createTable('app_drafts')
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('base', bytes, (c) => c.notNull())
        .addColumn('base_at', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('closed_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('closed_at', 'bigint')
        .addPrimaryKeyConstraint('app_drafts_pk', ['app_id', 'id'])
        .execute();
      await db.schema
        .createIndex('app_drafts_app_status')
        .on('app_drafts')
        .columns(['app_id', 'status', 'created_at'])
        .execute();
    },
  }),
};
