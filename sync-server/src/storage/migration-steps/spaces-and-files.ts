import { type Kysely, sql } from 'kysely';
import type { EngineMigration } from './engine-migration';

/**
 * Shared spaces and their members, checkpoint ids per app, document clients, upload ids and the
 * photos and files on records.
 */
export const SPACES_AND_FILES: Record<string, EngineMigration> = {
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
};
