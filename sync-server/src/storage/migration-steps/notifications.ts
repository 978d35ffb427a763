import { type Kysely, sql } from 'kysely';
import type { EngineMigration } from './engine-migration';

/**
 * Web Push subscriptions, the job scheduler's queue with reminders' once-per-occurrence table, and
 * people's choices for apps' reminders, and space activity: who is told of what others do in a
 * space, and what waits to be told (docs/product/reminders.md).
 */
export const NOTIFICATIONS: Record<string, EngineMigration> = {
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
  '0024_space_activity': () => ({
    async up(db: Kysely<unknown>) {
      // A person's choice to be told what others add and complete in a space
      // (docs/product/reminders.md#space-activity). It belongs to their membership: leaving, being
      // taken out, the space's deletion and the account's all delete the membership row, and the
      // choice goes with it.
      await db.schema
        .createTable('space_activity_preferences')
        .addColumn('space_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('show_names', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('space_activity_preferences_pk', ['space_id', 'user_id'])
        .addForeignKeyConstraint(
          'space_activity_preferences_member',
          ['space_id', 'user_id'],
          'space_members',
          ['space_id', 'user_id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createIndex('space_activity_preferences_user')
        .on('space_activity_preferences')
        .column('user_id')
        .execute();
      // What waits to be told, one row per recipient and change, until the batch that holds it
      // is sent: in the database, so a restart or another instance loses none of it. Tied to the
      // recipient's membership like their choice. `window_end` is the end of the batch the change
      // fell in; `claimed_by` the job sending it, so a retry of that job sends the same rows and
      // no other job does. `name` is kept only for a recipient who sees item names.
      await db.schema
        .createTable('space_activity_items')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('space_id', 'text', (c) => c.notNull())
        .addColumn('recipient_id', 'text', (c) => c.notNull())
        .addColumn('author_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('record_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('window_end', 'bigint', (c) => c.notNull())
        .addColumn('claimed_by', 'text')
        .addForeignKeyConstraint(
          'space_activity_items_recipient',
          ['space_id', 'recipient_id'],
          'space_members',
          ['space_id', 'user_id'],
          (fk) => fk.onDelete('cascade'),
        )
        .execute();
      await db.schema
        .createIndex('space_activity_items_batch')
        .on('space_activity_items')
        .columns(['space_id', 'recipient_id', 'window_end'])
        .execute();
    },
  }),
  '0025_creator_notifications': () => ({
    async up(db: Kysely<unknown>) {
      // The Pipit platform's own push subscriptions (docs/product/reminders.md#creators-notifications):
      // a table of their own rather than a reserved app id in push_subscriptions, whose app_id is
      // a foreign key to apps that no reserved value could meet, and whose rows every app route
      // reads as an app's. One row per person and device, one per browser subscription.
      await db.schema
        .createTable('platform_push_subscriptions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('endpoint', 'text', (c) => c.notNull().unique())
        .addColumn('p256dh', 'text', (c) => c.notNull())
        .addColumn('auth', 'text', (c) => c.notNull())
        .addColumn('vapid_public_key', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_success_at', 'bigint')
        .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('disabled_at', 'bigint')
        .addUniqueConstraint('platform_push_subscriptions_device', ['user_id', 'device_id'])
        .execute();

      // What happened to a creator's apps, for them. `dedupe_key` makes an event that two
      // instances see at once (the first visitor of a day) one notification. `digest_pending`
      // marks the ones the next email digest carries: kept here, so a restart loses none.
      await db.schema
        .createTable('creator_notifications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('app_id', 'text', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('dedupe_key', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('digest_pending', 'integer', (c) => c.notNull())
        .addColumn('digested_at', 'bigint')
        .addUniqueConstraint('creator_notifications_once', ['user_id', 'dedupe_key'])
        .execute();
      await db.schema
        .createIndex('creator_notifications_pending')
        .on('creator_notifications')
        .columns(['digest_pending', 'user_id', 'created_at'])
        .execute();

      // A creator's choice of email digest; no row is the default.
      await db.schema
        .createTable('creator_notification_settings')
        .addColumn('user_id', 'text', (c) =>
          c.primaryKey().references('users.id').onDelete('cascade'),
        )
        .addColumn('email_digest', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      // One digest per person and UTC day, whatever the queue runs twice: the primary key refuses
      // a second, and `claimed_by` lets a retry of the same job finish one it started.
      await db.schema
        .createTable('creator_digests')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('claimed_by', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('creator_digests_pk', ['user_id', 'day'])
        .execute();
    },
  }),
  '0026_digest_time_zone': () => ({
    async up(db: Kysely<unknown>) {
      // The zone a creator's daily digest keeps to (its 17:00 is theirs); null: not told yet.
      await db.schema
        .alterTable('creator_notification_settings')
        .addColumn('time_zone', 'text')
        .execute();
    },
  }),
};
