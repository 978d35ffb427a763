import { type Kysely, sql } from 'kysely';
import type { EngineMigration } from './engine-migration';

/**
 * People and their sessions, documents and their update log, apps, publishing, error reports,
 * operators, AI usage, history's checkpoints and uploads: the first waves' tables.
 */
export const ACCOUNTS_APPS_AND_PUBLISHING: Record<string, EngineMigration> = {
  '0001_users_and_documents': (engine) => ({
    async up(db: Kysely<unknown>) {
      const bytes = engine === 'postgres' ? sql`bytea` : sql`blob`;
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('email_verified_at', 'bigint')
        .addColumn('pending_email', 'text')
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('display_name', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('bio', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('avatar', 'text', (c) => c.notNull())
        .addColumn('links', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('pinned_app_ids', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('deleted_at', 'bigint')
        .execute();
      await db.schema
        .createTable('documents')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('state', bytes, (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  }),
  '0002_accounts': (engine) => ({
    async up(db: Kysely<unknown>) {
      const bytes = engine === 'postgres' ? sql`bytea` : sql`blob`;
      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('user_agent', 'text')
        .addColumn('ip', 'text')
        .execute();
      await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('tokens')
        .addColumn('hash', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('email', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('tokens_user_id').on('tokens').column('user_id').execute();

      await db.schema
        .createTable('rate_limits')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('window_start', 'bigint', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('human_check_uses')
        .addColumn('signature', 'text', (c) => c.primaryKey())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('server_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('email', 'text')
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('page', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('uploads')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('bytes', bytes, (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('uploads_user_id').on('uploads').column('user_id').execute();
    },
  }),
  '0003_apps_and_update_log': (engine) => ({
    async up(db: Kysely<unknown>) {
      const bytes = engine === 'postgres' ? sql`bytea` : sql`blob`;
      await db.schema
        .createTable('apps')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_id', 'text', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('icon', 'text')
        .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('private'))
        .addColumn('archived_at', 'bigint')
        .addColumn('forked_from', 'text')
        .addColumn('published_version', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('apps_owner_id').on('apps').column('owner_id').execute();

      await db.schema
        .createTable('collaborators')
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('invited_by', 'text', (c) => c.notNull())
        .addColumn('added_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('collaborators_pk', ['app_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('collaborators_user_id')
        .on('collaborators')
        .column('user_id')
        .execute();

      // Every update the server acknowledges is appended here first
      // (docs/decisions/0001-durable-log-before-ack.md) and folded into `documents.state` by the
      // debounced store.
      await db.schema
        .createTable('document_updates')
        .addColumn('seq', engine === 'postgres' ? 'bigserial' : 'integer', (c) =>
          engine === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('update', bytes, (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('document_updates_name_seq')
        .on('document_updates')
        .columns(['name', 'seq'])
        .execute();
    },
  }),
  '0004_publishing': () => ({
    async up(db: Kysely<unknown>) {
      // `published_version` (0003) is the version visitors are served; `published_at` says since
      // when, and both are null while the app is not published (a draft, or unpublished).
      await db.schema.alterTable('apps').addColumn('published_at', 'bigint').execute();
      await db.schema.alterTable('apps').addColumn('forked_from_version', 'integer').execute();
      // Popularity, counted once per visitor and kind when app_events gains a row.
      await db.schema
        .alterTable('apps')
        .addColumn('opens', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('apps')
        .addColumn('installs', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('apps_explore')
        .on('apps')
        .columns(['visibility', 'published_at'])
        .execute();
      await db.schema.createIndex('apps_forked_from').on('apps').column('forked_from').execute();

      // Immutable published versions. The listing fields are copied out of the definition so that
      // cards and search show what visitors are served, never the live document.
      await db.schema
        .createTable('app_versions')
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('definition', 'text', (c) => c.notNull())
        .addColumn('publisher_id', 'text', (c) => c.notNull())
        .addColumn('published_at', 'bigint', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('icon', 'text')
        .addColumn('tags', 'text', (c) => c.notNull())
        // Lowercased in JavaScript (SQLite's lower() knows only ASCII): title, description, tags.
        .addColumn('search_text', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('app_versions_pk', ['app_id', 'number'])
        .execute();
      await db.schema
        .createTable('app_version_tags')
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('tag', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('app_version_tags_pk', ['app_id', 'number', 'tag'])
        .addForeignKeyConstraint(
          'app_version_tags_version',
          ['app_id', 'number'],
          'app_versions',
          ['app_id', 'number'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createIndex('app_version_tags_tag')
        .on('app_version_tags')
        .column('tag')
        .execute();

      await db.schema
        .createTable('app_events')
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        // A signed-in person's id, or a keyed hash of an anonymous browser: never a raw address.
        .addColumn('visitor', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('app_events_pk', ['app_id', 'kind', 'visitor'])
        .execute();
    },
  }),
  '0005_monitoring': () => ({
    async up(db: Kysely<unknown>) {
      // Error reports (docs/product/error-reporting.md), one row per kind of error, counted as occurrences arrive.
      await db.schema
        .createTable('error_groups')
        .addColumn('fingerprint', 'text', (c) => c.primaryKey())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('top_frame', 'text')
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('first_seen', 'bigint', (c) => c.notNull())
        .addColumn('last_seen', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('error_groups_last_seen')
        .on('error_groups')
        .column('last_seen')
        .execute();
      // Each occurrence, with the report itself (redacted and capped) as JSON text.
      await db.schema
        .createTable('error_events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('fingerprint', 'text', (c) =>
          c.notNull().references('error_groups.fingerprint').onDelete('cascade'),
        )
        .addColumn('received_at', 'bigint', (c) => c.notNull())
        .addColumn('digest', 'text')
        .addColumn('route', 'text')
        .addColumn('url', 'text')
        .addColumn('browser', 'text')
        .addColumn('release', 'text')
        .addColumn('environment', 'text')
        .addColumn('level', 'text', (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('error_events_fingerprint_received')
        .on('error_events')
        .columns(['fingerprint', 'received_at'])
        .execute();
      await db.schema
        .createIndex('error_events_received_at')
        .on('error_events')
        .column('received_at')
        .execute();
      await db.schema
        .createIndex('error_events_digest')
        .on('error_events')
        .column('digest')
        .execute();
    },
  }),
  '0007_operators': () => ({
    async up(db: Kysely<unknown>) {
      // Operators are accounts, by id: renaming an account, or taking a name an operator once had,
      // moves no rights. Rows are added and removed by `npm run operator`.
      await db.schema
        .createTable('operators')
        .addColumn('user_id', 'text', (c) =>
          c.primaryKey().references('users.id').onDelete('cascade'),
        )
        .addColumn('added_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  }),
  '0007_username_holds': () => ({
    async up(db: Kysely<unknown>) {
      // A username an account gave up, by renaming itself or by being deleted, stays unavailable to
      // everyone else until the hold passes (links and mentions of the old name keep pointing at no
      // one rather than at a newcomer). Until now a deleted account held its name in its own row;
      // that name moves here, and the row keeps a placeholder no username can equal ("~").
      await db.schema
        .createTable('username_holds')
        .addColumn('username', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('held_at', 'bigint', (c) => c.notNull())
        .execute();
      await sql`
        INSERT INTO username_holds (username, user_id, held_at)
        SELECT username, id, deleted_at FROM users
        WHERE deleted_at IS NOT NULL AND username NOT LIKE '~%'
      `.execute(db);
      await sql`
        UPDATE users SET username = '~deleted~' || id
        WHERE deleted_at IS NOT NULL AND username NOT LIKE '~%'
      `.execute(db);
    },
  }),
  '0008_report_budgets_and_event_caps': (engine) => ({
    async up(db: Kysely<unknown>) {
      // A rate-limit row may count bytes (an address's daily budget of stored error reports), which
      // can pass 2^31 in a day; SQLite's integer is 64-bit already.
      if (engine === 'postgres') {
        await sql`ALTER TABLE rate_limits ALTER COLUMN count TYPE bigint`.execute(db);
      }
      // Error reports the server did not keep, counted per UTC day and reason, for the inbox.
      await db.schema
        .createTable('report_drops')
        .addColumn('day', 'bigint', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('count', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('report_drops_pk', ['day', 'reason'])
        .execute();
      // The caps on stored reports remove the oldest first: an index in exactly that order.
      await db.schema.dropIndex('error_events_received_at').execute();
      await db.schema
        .createIndex('error_events_received_at_id')
        .on('error_events')
        .columns(['received_at', 'id'])
        .execute();
      await db.schema.dropIndex('error_groups_last_seen').execute();
      await db.schema
        .createIndex('error_groups_last_seen_fingerprint')
        .on('error_groups')
        .columns(['last_seen', 'fingerprint'])
        .execute();
      // Popularity remembers a visitor for a while, then forgets them, oldest first.
      await db.schema
        .createIndex('app_events_created_at')
        .on('app_events')
        .column('created_at')
        .execute();
    },
  }),
  '0009_app_ids': () => ({
    async up(db: Kysely<unknown>) {
      // Every app id ever registered, kept after the app is deleted: a deleted app's id is never
      // registered again, or installs, library entries, links and visitors' local data for it
      // would point at someone else's app. Its primary key is the lock that makes registering and
      // deleting the same id at once safe on either engine.
      await db.schema
        .createTable('app_ids')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('registered_at', 'bigint', (c) => c.notNull())
        .addColumn('deleted_at', 'bigint')
        .execute();
      await sql`
        INSERT INTO app_ids (id, owner_id, registered_at)
        SELECT id, owner_id, created_at FROM apps
      `.execute(db);
    },
  }),
  '0010_ai_usage': () => ({
    async up(db: Kysely<unknown>) {
      // AI runs per person per UTC day (the quota), reserved before the provider is asked: the
      // primary key is the row a reservation locks (docs/product/ai.md).
      await db.schema
        .createTable('ai_quota')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('day', 'bigint', (c) => c.notNull())
        .addColumn('runs', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('ai_quota_pk', ['user_id', 'day'])
        .execute();
      // What runs cost, per UTC day, app and person, for the operator's /admin. Never a prompt or
      // an answer.
      await db.schema
        .createTable('ai_usage')
        .addColumn('day', 'bigint', (c) => c.notNull())
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('runs', 'integer', (c) => c.notNull())
        .addColumn('prompt_tokens', 'bigint', (c) => c.notNull())
        .addColumn('completion_tokens', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('ai_usage_pk', ['day', 'app_id', 'user_id'])
        .execute();
      await db.schema.createIndex('ai_usage_app_id').on('ai_usage').column('app_id').execute();
      await db.schema.createIndex('ai_usage_user_id').on('ai_usage').column('user_id').execute();
    },
  }),
  '0011_checkpoints': (engine) => ({
    async up(db: Kysely<unknown>) {
      const bytes = engine === 'postgres' ? sql`bytea` : sql`blob`;
      // An app's history (docs/product/history.md): its definition at a moment, gzipped JSON, with
      // what changed since the checkpoint before it. Gone with the app; the author's name is
      // forgotten with their account.
      await db.schema
        .createTable('checkpoints')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('version', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('author_ids', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('changes', 'text', (c) => c.notNull())
        .addColumn('definition_hash', 'text', (c) => c.notNull())
        .addColumn('definition', bytes, (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('checkpoints_app_created')
        .on('checkpoints')
        .columns(['app_id', 'created_at'])
        .execute();
    },
  }),
  '0012_app_uploads_and_imports': () => ({
    async up(db: Kysely<unknown>) {
      // An uploaded image may belong to an app (docs/product/portable-file.md): an export finds
      // the app's images by it, and deleting the app deletes them. Avatars have none.
      await db.schema
        .alterTable('uploads')
        .addColumn('app_id', 'text', (c) => c.references('apps.id').onDelete('cascade'))
        .execute();
      await db.schema.createIndex('uploads_app_id').on('uploads').column('app_id').execute();
      // Each app a person imported, by the file it came from: importing the same file again is
      // recognised (and answered with the app it made) while that app exists; a copy imported on
      // purpose is one more row.
      await db.schema
        .createTable('app_imports')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('export_id', 'text', (c) => c.notNull())
        .addColumn('source_app_id', 'text', (c) => c.notNull())
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('origin', 'text', (c) => c.notNull())
        .addColumn('imported_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('app_imports_pk', [
          'user_id',
          'export_id',
          'source_app_id',
          'app_id',
        ])
        .execute();
      await db.schema
        .createIndex('app_imports_app_id')
        .on('app_imports')
        .column('app_id')
        .execute();
    },
  }),
};
