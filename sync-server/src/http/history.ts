import type { Hono } from 'hono';
import { parseKnownDefinition } from '@pipit/app-definition';
import {
  type AppRole,
  createCheckpointRequestSchema,
  HISTORY_LIMITS,
  isId,
  pulledVersionRequestSchema,
  type Upstream,
} from '@pipit/protocol';
import { findVisibleApp } from '../publishing/visibility';
import { HistoryFullError } from '../history/checkpoints';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import { appFor } from './apps';
import { readJsonBody } from './body';
import type { ApiEnv } from './context';

/** The largest checkpoint body: a whole app definition, as large as a document may be. */
export const CHECKPOINT_BODY_LIMIT_BYTES = 6 * 1024 * 1024;

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
  const parsed = parseKnownDefinition(value);
  if (!parsed.success) {
    throw new ApiError(
      'validation_failed',
      'That checkpoint is not a valid app definition, so it was not saved.',
      { fields: { definition: parsed.error.issues[0]?.message ?? 'Not an app definition.' } },
    );
  }
  return parsed.data;
}

/**
 * An app's history (docs/product/history.md): its owner and collaborators read checkpoints; the
 * owner and editors make them by hand (or before a restore) and delete named ones they made.
 */
export function registerHistory(
  app: Hono<ApiEnv>,
  { storage, history, rateLimiter }: ApiDependencies,
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
    // Sent again by a device that did not hear the answer: nothing new, nothing counted.
    const known = await storage.checkpoints.get(found.id, input.id);
    if (!known) await rateLimiter.enforce('checkpointsPerAccount', auth.user.id);
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

  /** A remix's original, as the asker may see it now (published), or null. */
  async function upstreamOf(forkedFrom: string | null, userId: string) {
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

  app.get('/apps/:id/upstream', async (c) => {
    const { auth, app: found, role } = await appFor(c, storage);
    requireEditor(role);
    const source = await upstreamOf(found.forkedFrom, auth.user.id);
    const [base, latest] = source
      ? await Promise.all([
          storage.publishing.version(source.app.id, found.forkedFromVersion ?? 1),
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
    const source = await upstreamOf(found.forkedFrom, auth.user.id);
    if (!source) {
      throw new ApiError(
        'not_found',
        'This app is not a remix, or the app it came from is no longer shared with you.',
      );
    }
    if (version > source.publishedVersion || version < (found.forkedFromVersion ?? 1)) {
      throw new ApiError(
        'validation_failed',
        'That is not a version of the original this app can pull.',
        { fields: { version: 'Not a version to pull.' } },
      );
    }
    await storage.apps.setForkedFromVersion(found.id, version);
    return c.json({ version });
  });
}
