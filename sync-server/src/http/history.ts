import type { Hono } from 'hono';
import {
  type AppChange,
  type AppChangeList,
  appChangeQuerySchema,
  type AppRole,
  ATTRIBUTION_LIMITS,
  createCheckpointRequestSchema,
  HISTORY_LIMITS,
  isId,
  pulledVersionRequestSchema,
  type Upstream,
} from '@pipit/protocol';
import { findVisibleApp } from '../publishing/visibility';
import {
  CHECKPOINT_DEFINITION_MAX_BYTES,
  checkpointDefinition,
  checkpointTimeProblem,
  HistoryFullError,
} from '../history/checkpoints';
import { isPublicVersion, mayReadVersion, readableBase } from '../history/remix';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import { appFor } from './apps';
import { fieldsOf, readJsonBody } from './body';
import { type ApiEnv, namedPerson } from './context';
import type { Storage } from '../storage/types';

/** The largest checkpoint body: a whole app definition, as large as a document may be. */
export const CHECKPOINT_BODY_LIMIT_BYTES = CHECKPOINT_DEFINITION_MAX_BYTES;

/** The one JSON endpoint allowed a body over API_BODY_LIMIT_BYTES. */
export const isCheckpointPost = (method: string, path: string) =>
  method === 'POST' && /^\/api\/apps\/[a-z2-7]{26}\/checkpoints$/.test(path);

const notFound = () =>
  new ApiError(
    'not_found',
    'That checkpoint does not exist any more. Its history may have been thinned.',
  );

/** A definition as a device sends it: components the reader could not use are left out. */
function definitionFrom(value: unknown) {
  const checked = checkpointDefinition(value);
  if ('problem' in checked) {
    throw new ApiError(
      'validation_failed',
      'That checkpoint is not a valid app definition, so it was not saved.',
      { fields: { definition: checked.problem } },
    );
  }
  return checked.definition;
}

/**
 * An app's history (docs/product/history.md): its owner and collaborators read checkpoints; the
 * owner and editors make them by hand (or before a restore) and delete named ones they made.
 */
export function registerHistory(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  registerCheckpoints(app, deps);
  registerChanges(app, deps);
  registerUpstream(app, deps);
}

/** Checkpoints: listing and reading them, saving one, deleting a named one. */
function registerCheckpoints(
  app: Hono<ApiEnv>,
  { storage, history, rateLimiter, clock }: ApiDependencies,
): void {
  app.get('/apps/:id/checkpoints', async (c) => {
    const { app: found } = await appFor(c, storage);
    return c.json(await history.list(found.id));
  });

  app.get('/apps/:id/checkpoints/:checkpointId', async (c) => {
    const { app: found } = await appFor(c, storage);
    const id = c.req.param('checkpointId');
    const checkpoint = isId(id) ? await history.get(found.id, id) : null;
    if (!checkpoint) throw notFound();
    return c.json(checkpoint);
  });

  app.post('/apps/:id/checkpoints', async (c) => {
    const { auth, app: found, role } = await appFor(c, storage);
    if (role === 'viewer') {
      throw new ApiError('forbidden', 'Only the app’s owner and editors can save checkpoints.');
    }
    const input = await readJsonBody(
      c.req.raw,
      createCheckpointRequestSchema,
      CHECKPOINT_BODY_LIMIT_BYTES,
    );
    const definition = definitionFrom(input.definition);
    // Sent again by a device that did not hear the answer: nothing new, nothing counted. Ids are
    // the app's own: another app's checkpoint of this id is neither found nor touched.
    const known = await storage.checkpoints.get(found.id, input.id);
    if (!known) {
      const problem =
        input.createdAt === undefined ? null : checkpointTimeProblem(input.createdAt, clock.now());
      if (problem) {
        throw new ApiError('validation_failed', problem, { fields: { createdAt: problem } });
      }
      await rateLimiter.enforce('checkpointsPerAccount', auth.user.id);
    }
    let result;
    try {
      result = await history.record({
        appId: found.id,
        kind: input.kind,
        name: input.name,
        definition,
        id: input.id,
        createdById: auth.user.id,
        authorIds: [auth.user.id],
        ...(input.createdAt !== undefined ? { createdAt: input.createdAt } : {}),
      });
    } catch (error) {
      if (error instanceof HistoryFullError) {
        throw new ApiError(
          'limit_reached',
          `This app’s history is full: named checkpoints and published versions fill its ${HISTORY_LIMITS.checkpointsPerApp} places or ${HISTORY_LIMITS.bytesPerApp / 1024 / 1024} MB. Delete a named checkpoint you no longer need, then try again.`,
        );
      }
      throw error;
    }
    // A restore of an app that did not change since its newest checkpoint needs no new one.
    if (!result) return c.json({ checkpoint: null }, 200);
    const people = await storage.users.findByIds(result.checkpoint.authorIds);
    return c.json(
      { checkpoint: history.toCheckpoint(result.checkpoint, people) },
      result.created ? 201 : 200,
    );
  });

  app.delete('/apps/:id/checkpoints/:checkpointId', async (c) => {
    const { auth, app: found, role } = await appFor(c, storage);
    const id = c.req.param('checkpointId');
    const checkpoint = isId(id) ? await storage.checkpoints.get(found.id, id) : null;
    if (!checkpoint) throw notFound();
    if (checkpoint.kind !== 'manual') {
      throw new ApiError(
        'forbidden',
        'Only named checkpoints can be deleted; automatic ones thin out by themselves.',
      );
    }
    if (role !== 'owner' && checkpoint.createdBy?.id !== auth.user.id) {
      throw new ApiError(
        'forbidden',
        'Only the app’s owner or the person who saved it can delete this checkpoint.',
      );
    }
    await storage.checkpoints.delete(found.id, [checkpoint.id]);
    return c.body(null, 204);
  });
}

/**
 * Who changed what (docs/product/history.md#who-changed-what): the app's changes in a range of
 * time, or one entity's, newest first, for everyone who may read its history.
 */
function registerChanges(app: Hono<ApiEnv>, { storage, attribution }: ApiDependencies): void {
  app.get('/apps/:id/changes', async (c) => {
    const { app: found } = await appFor(c, storage);
    const query = appChangeQuerySchema.safeParse(c.req.query());
    if (!query.success) {
      throw new ApiError('validation_failed', 'That is not a range of changes this app can show.', {
        fields: fieldsOf(query.error),
      });
    }
    const { since, until, entity, entityId } = query.data;
    const limit = ATTRIBUTION_LIMITS.perRead;
    // What this instance gathered in the last moments is written first, so a change that reached
    // it is in the answer (another instance's may follow it by up to ATTRIBUTION_FLUSH_MS).
    await attribution.flush();
    const rows = await storage.appChanges.list(found.id, {
      ...(since !== undefined ? { since } : {}),
      ...(until !== undefined ? { until } : {}),
      ...(entity && entityId ? { entity: { entity, id: entityId } } : {}),
      limit: limit + 1,
    });
    const changes: AppChange[] = rows.slice(0, limit).map((row) => ({
      entity: row.entity,
      id: row.entityId,
      paths: row.paths,
      kind: row.kind,
      author: namedPerson(row.author),
      at: row.at,
    }));
    return c.json({ changes, more: rows.length > limit } satisfies AppChangeList);
  });
}

/** A remix's original, as the asker may see it now (published), or null. */
async function upstreamOf(storage: Storage, forkedFrom: string | null, userId: string) {
  const source = forkedFrom ? await findVisibleApp(storage, forkedFrom, userId) : null;
  return source && source.app.publishedVersion !== null
    ? { ...source, publishedVersion: source.app.publishedVersion }
    : null;
}

const requireEditor = (role: AppRole) => {
  if (role === 'viewer') {
    throw new ApiError('forbidden', 'Only the app’s owner and editors can pull changes.');
  }
};

/** A remix's original: what it publishes now against the base, and pulling a version of it. */
function registerUpstream(app: Hono<ApiEnv>, { storage, clock }: ApiDependencies): void {
  // Checked again on every read: the original as the asker may see it now, the version
  // it publishes now, and a base the asker may be given (history/remix.ts); else nothing to pull.
  // `?versions=1` answers the two numbers alone, read without the versions themselves: what an
  // open editor asks now and then, the whole answer only when they change.
  app.get('/apps/:id/upstream', async (c) => {
    const { auth, app: found, role } = await appFor(c, storage);
    requireEditor(role);
    const source = await upstreamOf(storage, found.forkedFrom, auth.user.id);
    const baseNumber = source ? readableBase(found, source) : null;
    if (c.req.query('versions') === '1') {
      return c.json({
        upstream:
          source && baseNumber !== null
            ? { base: baseNumber, latest: source.publishedVersion }
            : null,
      });
    }
    const [base, latest] =
      source && baseNumber !== null
        ? await Promise.all([
            storage.publishing.version(source.app.id, baseNumber),
            storage.publishing.version(source.app.id, source.publishedVersion),
          ])
        : [null, null];
    if (!source || !base || !latest) return c.json({ upstream: null });
    const upstream: Upstream = {
      source: {
        appId: source.app.id,
        title: latest.title,
        author: { username: source.owner.username, displayName: source.owner.displayName },
      },
      base: { version: base.number, definition: JSON.parse(base.definitionJson) as unknown },
      latest: {
        version: latest.number,
        publishedAt: latest.publishedAt,
        definition: JSON.parse(latest.definitionJson) as unknown,
      },
      newer: latest.number > base.number,
    };
    return c.json({ upstream });
  });

  app.put('/apps/:id/upstream', async (c) => {
    const { auth, app: found, role } = await appFor(c, storage);
    requireEditor(role);
    const { version } = await readJsonBody(c.req.raw, pulledVersionRequestSchema);
    const source = await upstreamOf(storage, found.forkedFrom, auth.user.id);
    if (!source) {
      throw new ApiError(
        'not_found',
        'This app is not a remix, or the app it came from is no longer shared with you.',
      );
    }
    // Only a version the puller may read now (the one the original publishes, unless they are one
    // of its people), never older than the base: nothing else can become the base it is given.
    if (
      version > source.publishedVersion ||
      version < (found.forkedFromVersion ?? 1) ||
      !mayReadVersion(source, version)
    ) {
      throw new ApiError(
        'validation_failed',
        `That is not a version of the original this app can pull: it shares version ${source.publishedVersion} now. Open the remix again to see what changed, then pull.`,
        { fields: { version: 'Not a version to pull.' } },
      );
    }
    await storage.apps.setForkedFromVersion(
      found.id,
      version,
      isPublicVersion(source, version) ? clock.now() : null,
    );
    return c.json({ version });
  });
}
