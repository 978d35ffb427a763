import { ConflictError } from '../types/errors';
import type { PortableStore } from '../types/portable';
import type { Db, EngineSpecifics } from './shared';

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

export function createPortableStore(db: Db, specifics: EngineSpecifics): PortableStore {
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
      if (ids.length === 0) return new Set();
      const rows = await db.selectFrom('uploads').select('id').where('id', 'in', ids).execute();
      return new Set(rows.map((row) => row.id));
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

    async commitImport(apps, at) {
      await asConflict(specifics, () =>
        db.transaction().execute(async (trx) => {
          for (const app of apps) {
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
                      search_text: [v.listing.title, v.listing.description, ...tags]
                        .join('\n')
                        .toLowerCase(),
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
              await trx
                .insertInto('uploads')
                .values({
                  id: image.id,
                  user_id: app.ownerId,
                  app_id: app.id,
                  content_type: image.contentType,
                  bytes: image.bytes,
                  size: image.bytes.byteLength,
                  created_at: at,
                })
                .execute();
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
        }),
      );
    },
  };
}
