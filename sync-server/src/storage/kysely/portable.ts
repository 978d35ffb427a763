import type { Transaction } from 'kysely';
import type { Database } from '../schema';
import { ConflictError } from '../types/errors';
import type { CommitOutcome, ImportedApp, PortableStore } from '../types/portable';
import { type Db, type EngineSpecifics, holdRow } from './shared';
import { countOwnedApps } from './apps';
import { uploadBytesOf, writeUpload } from './upload-quota';

/** Rows per insert statement: far below either engine's limit on parameters. */
const ROWS_PER_INSERT = 100;

/**
 * An id taken meanwhile, as a ConflictError: a unique violation on either engine, and SQLite's
 * primary-key violation, which it reports apart from unique ones.
 */
async function asConflict<T>(specifics: EngineSpecifics, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const conflict = specifics.uniqueViolation(error);
    if (conflict) throw new ConflictError(conflict.field);
    if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
      throw new ConflictError(undefined);
    }
    throw error;
  }
}

function chunks<T>(items: readonly T[], size = ROWS_PER_INSERT): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Importing apps (docs/product/portable-file.md): which ids are taken already, an import made
 * before, and committing an import whole or not at all.
 */
export function createPortableStore(db: Db, specifics: EngineSpecifics): PortableStore {
  return { ...portableLookups(db), ...portableCommit(db, specifics) };
}

/** Ids taken already here, and the app an earlier import of the same file made. */
function portableLookups(
  db: Db,
): Pick<PortableStore, 'takenAppIds' | 'takenUploadIds' | 'findImport'> {
  return {
    async takenAppIds(ids) {
      const taken = new Set<string>();
      if (ids.length === 0) return taken;
      const claimed = await db.selectFrom('app_ids').select('id').where('id', 'in', ids).execute();
      for (const row of claimed) taken.add(row.id);
      // A document of an id never registered (it cannot be opened) is still never written over.
      for (const table of ['documents', 'document_updates'] as const) {
        const rows = await db
          .selectFrom(table)
          .select('name')
          .where((eb) =>
            eb.or(
              ids.flatMap((id) => [
                eb('name', '=', `app/${id}`),
                eb('name', 'like', `data/${id}/%`),
              ]),
            ),
          )
          .execute();
        for (const { name } of rows) {
          const id = name.split('/')[1];
          if (id) taken.add(id);
        }
      }
      return taken;
    },

    async takenUploadIds(ids) {
      const taken = new Set<string>();
      if (ids.length === 0) return taken;
      // Registered ids include every deleted upload's: a remix still points at its original's
      // images after the original is deleted, and an import must not serve its own bytes there.
      for (const table of ['upload_ids', 'uploads'] as const) {
        const rows = await db.selectFrom(table).select('id').where('id', 'in', ids).execute();
        for (const row of rows) taken.add(row.id);
      }
      return taken;
    },

    async findImport(userId, exportId, sourceAppId) {
      const row = await db
        .selectFrom('app_imports')
        .innerJoin('apps', 'apps.id', 'app_imports.app_id')
        .select('app_imports.app_id')
        .where('app_imports.user_id', '=', userId)
        .where('app_imports.export_id', '=', exportId)
        .where('app_imports.source_app_id', '=', sourceAppId)
        // Imported again as copies: the first that still exists is the one to open.
        .orderBy('app_imports.imported_at')
        .orderBy('app_imports.app_id')
        .limit(1)
        .executeTakeFirst();
      return row?.app_id ?? null;
    },
  };
}

/** An import written in one transaction: every app, or none when an owner has no room. */
function portableCommit(db: Db, specifics: EngineSpecifics): Pick<PortableStore, 'commitImport'> {
  return {
    async commitImport(apps, at, { quotaBytes, maxApps }) {
      return asConflict(specifics, () =>
        db.transaction().execute(async (trx): Promise<CommitOutcome> => {
          const full = await holdOwnersWithin(trx, specifics, apps, { quotaBytes, maxApps });
          if (full) return full;
          for (const app of apps) await writeImportedApp(trx, app, at);
          return { committed: true };
        }),
      );
    },
  };
}

/** The owners' room, held until the import is written; the first owner without room, if any. */
async function holdOwnersWithin(
  trx: Transaction<Database>,
  specifics: EngineSpecifics,
  apps: readonly ImportedApp[],
  { quotaBytes, maxApps }: { quotaBytes: number; maxApps: number },
): Promise<CommitOutcome | null> {
  // The quota first, holding each owner until everything is written (owners in one
  // order, so that two transactions never wait on each other in a circle): imports and
  // uploads sent together take turns, and only what fits is written
  // (docs/product/quotas.md).
  const owners = new Map<string, { bytes: number; apps: number }>();
  for (const app of apps) {
    const bytes = app.images.reduce((sum, image) => sum + image.bytes.byteLength, 0);
    const owner = owners.get(app.ownerId) ?? { bytes: 0, apps: 0 };
    owners.set(app.ownerId, { bytes: owner.bytes + bytes, apps: owner.apps + 1 });
  }
  for (const [ownerId, adds] of [...owners].sort(([a], [b]) => (a < b ? -1 : 1))) {
    await holdRow(trx, specifics.engine, 'users', ownerId);
    // The plan's apps, as registrations count them under the same hold (apps.insert).
    const ownedApps = await countOwnedApps(trx, ownerId);
    if (ownedApps + adds.apps > maxApps) return { committed: false, ownerId, ownedApps };
    const usedBytes = await uploadBytesOf(trx, ownerId);
    if (usedBytes + adds.bytes > quotaBytes) {
      return { committed: false, ownerId, usedBytes };
    }
  }
  return null;
}

/** One imported app: its id claimed, its row, versions, documents, checkpoints and images. */
async function writeImportedApp(
  trx: Transaction<Database>,
  app: ImportedApp,
  at: number,
): Promise<void> {
  // Claimed first, as a registration does: a concurrent registration of the same id
  // fails here (a unique violation), and nothing of this import stays.
  await trx
    .insertInto('app_ids')
    .values({ id: app.id, owner_id: app.ownerId, registered_at: at })
    .execute();
  await trx
    .insertInto('apps')
    .values({
      id: app.id,
      owner_id: app.ownerId,
      title: app.title,
      description: app.description,
      icon: app.icon ? JSON.stringify(app.icon) : null,
      tags: JSON.stringify(app.tags),
      created_at: app.createdAt,
      updated_at: at,
    })
    .execute();
  await writeVersions(trx, app);
  for (const document of app.documents) {
    await trx
      .insertInto('documents')
      .values({ name: document.name, state: document.state, updated_at: at })
      .execute();
  }
  for (const checkpoint of app.checkpoints) {
    await trx
      .insertInto('checkpoints')
      .values({
        id: checkpoint.id,
        app_id: app.id,
        kind: checkpoint.kind,
        name: checkpoint.name,
        version: checkpoint.version,
        created_at: checkpoint.createdAt,
        created_by: null,
        author_ids: '[]',
        changes: checkpoint.changesJson,
        definition_hash: checkpoint.definitionHash,
        definition: checkpoint.definition,
        size: checkpoint.definition.byteLength,
      })
      .execute();
  }
  for (const image of app.images) {
    await writeUpload(trx, {
      id: image.id,
      userId: app.ownerId,
      appId: app.id,
      contentType: image.contentType,
      bytes: image.bytes,
      createdAt: at,
    });
  }
  await trx
    .insertInto('app_imports')
    .values({
      user_id: app.ownerId,
      export_id: app.source.exportId,
      source_app_id: app.source.appId,
      app_id: app.id,
      origin: app.source.origin,
      imported_at: at,
    })
    .execute();
}

/** An imported app's published versions, and the tags each is found by. */
async function writeVersions(trx: Transaction<Database>, app: ImportedApp): Promise<void> {
  for (const part of chunks(app.versions)) {
    await trx
      .insertInto('app_versions')
      .values(
        part.map((v) => {
          const tags = [...new Set(v.listing.tags)];
          return {
            app_id: app.id,
            number: v.number,
            definition: v.definitionJson,
            publisher_id: app.ownerId,
            published_at: v.publishedAt,
            title: v.listing.title,
            description: v.listing.description,
            icon: v.listing.icon ? JSON.stringify(v.listing.icon) : null,
            tags: JSON.stringify(tags),
            search_text: [v.listing.title, v.listing.description, ...tags].join('\n').toLowerCase(),
          };
        }),
      )
      .execute();
    const tagRows = part.flatMap((v) =>
      [...new Set(v.listing.tags)].map((tag) => ({
        app_id: app.id,
        number: v.number,
        tag,
      })),
    );
    for (const rows of chunks(tagRows)) {
      await trx.insertInto('app_version_tags').values(rows).execute();
    }
  }
}
