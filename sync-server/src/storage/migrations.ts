import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { StorageEngine } from '@pipit/protocol';

/**
 * Versioned migrations, applied in name order at start-up. Never edit one that has shipped: add the
 * next. Each receives the engine for the few types that differ (BLOB vs BYTEA).
 */
type EngineMigration = (engine: StorageEngine) => Migration;

const MIGRATIONS: Record<string, EngineMigration> = {
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
  '0013_spaces': () => ({
    async up(db: Kysely<unknown>) {
      // Shared spaces (docs/product/spaces.md): the records live in the `space/{id}` document; who
      // belongs and with which role is kept here, never in the document its members write. A
      // deleted space keeps its row (deleted_at set): its id is never used again, and its document
      // is never stored again (DocumentStore.compact).
      await db.schema
        .createTable('spaces')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('deleted_at', 'bigint')
        .execute();
      await db.schema.createIndex('spaces_app_id').on('spaces').column('app_id').execute();
      await db.schema.createIndex('spaces_owner_id').on('spaces').column('owner_id').execute();
      // Everyone in a space, its owner included (role 'owner').
      await db.schema
        .createTable('space_members')
        .addColumn('space_id', 'text', (c) =>
          c.notNull().references('spaces.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('joined_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('space_members_pk', ['space_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('space_members_user_app')
        .on('space_members')
        .columns(['user_id', 'app_id'])
        .execute();
      // Invitation links: only the token's sha256 is kept; the token is in the link alone.
      await db.schema
        .createTable('space_invites')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('space_id', 'text', (c) =>
          c.notNull().references('spaces.id').onDelete('cascade'),
        )
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('space_invites_space_id')
        .on('space_invites')
        .column('space_id')
        .execute();
    },
  }),
  '0014_space_endings': () => ({
    async up(db: Kysely<unknown>) {
      // The people of a deleted space are told it ended, and why (docs/product/spaces.md): one row
      // for each person who was in it, but not for the person who deleted it. A person dismisses
      // theirs; the rest go after SPACE_ENDING_DAYS days, and with the person's account.
      await db.schema
        .createTable('space_endings')
        .addColumn('space_id', 'text', (c) =>
          c.notNull().references('spaces.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('why', 'text', (c) => c.notNull())
        .addColumn('ended_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('space_endings_pk', ['space_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('space_endings_user_app')
        .on('space_endings')
        .columns(['user_id', 'app_id'])
        .execute();
      await db.schema
        .createIndex('space_endings_ended_at')
        .on('space_endings')
        .column('ended_at')
        .execute();
    },
  }),
  '0015_space_removals': () => ({
    async up(db: Kysely<unknown>) {
      // Someone the owner removed from a space: invitation links no longer let them back in;
      // the owner adding them again clears it. Leaving by oneself leaves nothing.
      await db.schema
        .createTable('space_removals')
        .addColumn('space_id', 'text', (c) =>
          c.notNull().references('spaces.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('removed_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('space_removals_pk', ['space_id', 'user_id'])
        .execute();
    },
  }),
  '0016_checkpoint_ids_per_app_and_checked_remix_bases': (engine) => ({
    async up(db: Kysely<unknown>) {
      // A checkpoint's id is its app's: a device's id taken by another app's checkpoint
      // neither drops the device's checkpoint nor tells it that the other one exists.
      if (engine === 'postgres') {
        await sql`ALTER TABLE checkpoints DROP CONSTRAINT checkpoints_pkey`.execute(db);
        await sql`ALTER TABLE checkpoints ADD CONSTRAINT checkpoints_pk PRIMARY KEY (app_id, id)`.execute(
          db,
        );
      } else {
        // SQLite cannot change a table's primary key: the table is made again, rows and index.
        await db.schema
          .createTable('checkpoints_per_app')
          .addColumn('id', 'text', (c) => c.notNull())
          .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('name', 'text')
          .addColumn('version', 'integer')
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('author_ids', 'text', (c) => c.notNull().defaultTo('[]'))
          .addColumn('changes', 'text', (c) => c.notNull())
          .addColumn('definition_hash', 'text', (c) => c.notNull())
          .addColumn('definition', sql`blob`, (c) => c.notNull())
          .addColumn('size', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('checkpoints_pk', ['app_id', 'id'])
          .execute();
        const columns = sql.raw(
          'id, app_id, kind, name, version, created_at, created_by, author_ids, changes, definition_hash, definition, size',
        );
        await sql`INSERT INTO checkpoints_per_app (${columns}) SELECT ${columns} FROM checkpoints`.execute(
          db,
        );
        await db.schema.dropTable('checkpoints').execute();
        await db.schema.alterTable('checkpoints_per_app').renameTo('checkpoints').execute();
        await db.schema
          .createIndex('checkpoints_app_created')
          .on('checkpoints')
          .columns(['app_id', 'created_at'])
          .execute();
      }
      // When a remix's base (forked_from_version) was recorded as the version its original then
      // published for everyone, public or unlisted (a remix made or pulled). Null for a
      // version only the original's owner and collaborators read, and for every base recorded
      // before this column: such a base is given to nobody else (docs/product/history.md).
      await db.schema.alterTable('apps').addColumn('forked_from_public_at', 'bigint').execute();
    },
  }),
  '0017_document_clients': () => ({
    async up(db: Kysely<unknown>) {
      // Who writes under each Yjs client id of a shared document: the first account to
      // write new parts under it. Yjs client ids are chosen by the client, so without this anyone
      // could write at another person's next clocks, and their own edits there would be dropped.
      // Client ids are 32-bit unsigned (Yjs's own), so a bigint.
      await db.schema
        .createTable('document_clients')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('client', 'bigint', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('document_clients_pk', ['name', 'client'])
        .execute();
    },
  }),
  '0018_upload_ids': () => ({
    async up(db: Kysely<unknown>) {
      // Every upload id ever stored, kept when the upload is deleted (its app deleted, an avatar
      // replaced, an account deleted): a remix keeps its original's image urls, so an id that was
      // free again could be taken by an import and serve someone else's image at those urls
      // (docs/product/portable-file.md#importing). An import keeps an image's id only when it is
      // not here; the primary key makes two claims of one id conflict on either engine.
      await db.schema
        .createTable('upload_ids')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('registered_at', 'bigint', (c) => c.notNull())
        .execute();
      await sql`
        INSERT INTO upload_ids (id, registered_at)
        SELECT id, created_at FROM uploads
      `.execute(db);
      // Uploads deleted before this table left no row; those that published versions and apps'
      // icons still point at (a remix of a deleted app, its listing) are the ones an import could
      // take over, so they are registered too. Read a page at a time.
      const reference = /\/api\/uploads\/([a-z2-7]{26})/g;
      const register = async (texts: Array<string | null>, at: number) => {
        const ids = new Set<string>();
        for (const text of texts) {
          for (const match of (text ?? '').matchAll(reference)) ids.add(match[1]!);
        }
        for (const id of ids) {
          await sql`
            INSERT INTO upload_ids (id, registered_at) VALUES (${id}, ${at})
            ON CONFLICT (id) DO NOTHING
          `.execute(db);
        }
      };
      type VersionRow = {
        app_id: string;
        number: number;
        definition: string;
        published_at: number;
      };
      const PAGE = 200;
      let after: VersionRow | undefined;
      for (;;) {
        const { rows }: { rows: VersionRow[] } = await sql<VersionRow>`
          SELECT app_id, number, definition, published_at FROM app_versions
          WHERE definition LIKE '%/api/uploads/%'
          ${after ? sql`AND (app_id > ${after.app_id} OR (app_id = ${after.app_id} AND number > ${after.number}))` : sql``}
          ORDER BY app_id, number
          LIMIT ${PAGE}
        `.execute(db);
        for (const row of rows) await register([row.definition], Number(row.published_at));
        after = rows.at(-1);
        if (!after || rows.length < PAGE) break;
      }
      const icons = await sql<{ icon: string; created_at: number }>`
        SELECT icon, created_at FROM apps WHERE icon LIKE '%/api/uploads/%'
      `.execute(db);
      for (const row of icons.rows) await register([row.icon], Number(row.created_at));
    },
  }),
  '0019_record_files': (engine) => ({
    async up(db: Kysely<unknown>) {
      // Photos and files on records (docs/product/records.md#photos-and-files-on-records): kept
      // apart from the records' document, by the SHA-256 of the bytes a device picked, once per
      // scope (`data/{appId}/{userId}` or `space/{spaceId}`, the document whose records hold them).
      // `owner_id` is whose upload quota they count against; `size` is what is kept, the
      // thumbnail included.
      const bytes = engine === 'postgres' ? sql`bytea` : sql`blob`;
      await db.schema
        .createTable('record_files')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('space_id', 'text')
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('uploaded_by', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('bytes', bytes, (c) => c.notNull())
        .addColumn('thumbnail', bytes)
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('record_files_pk', ['scope', 'hash'])
        .execute();
      await db.schema
        .createIndex('record_files_owner_id')
        .on('record_files')
        .column('owner_id')
        .execute();
      await db.schema
        .createIndex('record_files_app_id')
        .on('record_files')
        .column('app_id')
        .execute();
      await db.schema
        .createIndex('record_files_created_at')
        .on('record_files')
        .column('created_at')
        .execute();
    },
  }),
  '0020_push_subscriptions': () => ({
    async up(db: Kysely<unknown>) {
      // Web Push subscriptions (docs/decisions/0012-web-push-and-scheduler.md#subscriptions): one
      // row per browser subscription and app (installed apps on one browser share its one service
      // worker, so its one subscription; each app asks for itself), and one per person, app and
      // device. The app's row is deleted
      // with the app, so they go with it; a deleted account keeps its row (marked deleted), so
      // DataRemoval.account deletes them.
      await db.schema
        .createTable('push_subscriptions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('endpoint', 'text', (c) => c.notNull())
        .addColumn('p256dh', 'text', (c) => c.notNull())
        .addColumn('auth', 'text', (c) => c.notNull())
        // The application server key it was made with: a key change finds what it invalidates.
        .addColumn('vapid_public_key', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_success_at', 'bigint')
        .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('disabled_at', 'bigint')
        .addUniqueConstraint('push_subscriptions_device', ['user_id', 'app_id', 'device_id'])
        .addUniqueConstraint('push_subscriptions_endpoint_app', ['endpoint', 'app_id'])
        .execute();
      await db.schema
        .createIndex('push_subscriptions_app_id')
        .on('push_subscriptions')
        .column('app_id')
        .execute();
    },
  }),
  '0021_scheduled_jobs': () => ({
    async up(db: Kysely<unknown>) {
      // Reminders are delivered once per occurrence whatever the queue does
      // (docs/decisions/0012-web-push-and-scheduler.md): the occurrence is the UTC instant it was
      // due, and the primary key is what refuses a second delivery. `claimed_by` is the job that
      // holds a `sending` row, so a retry of that job (after a 429 or a killed worker) may send,
      // and another job for the same occurrence may not.
      await db.schema
        .createTable('reminder_deliveries')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        // Reminder ids are unique within an app only (a remix keeps its original's ids).
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('reminder_id', 'text', (c) => c.notNull())
        .addColumn('occurrence', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('claimed_by', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('reminder_deliveries_pk', [
          'user_id',
          'app_id',
          'reminder_id',
          'occurrence',
        ])
        .execute();

      // The in-process scheduler's queue. Only SQLite runs it (PostgreSQL runs pg-boss in its own
      // schema), but the table is made on both engines: `Storage` is one interface whose queries
      // are written once, and a `jobs` store that exists on one engine only would be a method
      // that throws on the other. An empty table on PostgreSQL costs nothing.
      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull().unique())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('run_at', 'bigint', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('lease_until', 'bigint')
        .addColumn('leased_by', 'text')
        .addColumn('last_error', 'text')
        .addColumn('done_at', 'bigint')
        // A job whose retries ran out: kept, not run again, and no longer holding its key.
        .addColumn('failed_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('jobs_due')
        .on('jobs')
        .columns(['kind', 'run_at'])
        .where(sql.ref('done_at'), 'is', null)
        .execute();
    },
  }),
  '0022_reminder_preferences': () => ({
    async up(db: Kysely<unknown>) {
      // A person's choices for an app's reminder (docs/product/reminders.md): on or off, their
      // time, zone and quiet hours, as JSON the reminders' schema reads back. `enabled` is a
      // column of its own for the sweep that queues every turned-on reminder's next occurrence.
      await db.schema
        .createTable('reminder_preferences')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('reminder_id', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('preferences', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('reminder_preferences_pk', ['user_id', 'app_id', 'reminder_id'])
        .execute();
      await db.schema
        .createIndex('reminder_preferences_enabled')
        .on('reminder_preferences')
        .columns(['enabled', 'user_id', 'app_id', 'reminder_id'])
        .execute();
    },
  }),
};

export const MIGRATION_NAMES = Object.keys(MIGRATIONS).sort();

/** Every migration, for `engine`; tests use it to stop at an older version. */
export function migrationProvider(engine: StorageEngine): MigrationProvider {
  return {
    getMigrations: () =>
      Promise.resolve(
        Object.fromEntries(Object.entries(MIGRATIONS).map(([name, m]) => [name, m(engine)])),
      ),
  };
}

export class MigrationError extends Error {}

/** Applies every pending migration; several instances starting at once take turns (Kysely's lock). */
export async function migrateToLatest(db: Kysely<unknown>, engine: StorageEngine): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider(engine) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new MigrationError(
      `Migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(error)}`,
      { cause: error },
    );
  }
}

export async function appliedMigrations(
  db: Kysely<unknown>,
  engine: StorageEngine,
): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider(engine) });
  const all = await migrator.getMigrations();
  return all.filter((m) => m.executedAt !== undefined).map((m) => m.name);
}
