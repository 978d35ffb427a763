import type { Hono } from 'hono';
import { checkForPublish, type PublishProblem } from '@pipit/app-definition';
import {
  PLAN_LIMITS,
  publishRequestSchema,
  visibilityRequestSchema,
  type Visibility,
} from '@pipit/protocol';
import { loadAppDocument } from '../publishing/app-document';
import { publicationOf } from '../publishing/cards';
import type { AppRecord } from '../storage/types';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import { appFor, requireOwner } from './apps';
import { fieldsOf, readBodyBytes, readJsonBody } from './body';
import type { ApiEnv } from './context';

/** The publish body is optional: an empty one publishes with the default visibility. */
async function readPublishRequest(request: Request) {
  const bytes = await readBodyBytes(request);
  if (bytes.byteLength === 0) return {};
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ApiError('validation_failed', 'The request body is not valid JSON.');
  }
  const parsed = publishRequestSchema.safeParse(json);
  if (!parsed.success) {
    throw new ApiError('validation_failed', 'Some fields need another look.', {
      fields: fieldsOf(parsed.error),
    });
  }
  return parsed.data;
}

function publishInvalid(problems: PublishProblem[]): ApiError {
  const fields: Record<string, string> = {};
  for (const p of problems) fields[p.path] ??= p.message;
  const count = problems.length;
  return new ApiError(
    'publish_invalid',
    count === 1
      ? `This app can’t be published yet: ${problems[0]?.message ?? ''}`
      : `This app can’t be published yet: ${count} things need fixing. Each one below shows where.`,
    { fields, problems },
  );
}

/**
 * Publishing (docs/product/routes.md, states.md, roles.md): the owner publishes the live document
 * as the next immutable version, chooses who sees it, unpublishes; the owner and collaborators see
 * the version list.
 */
export function registerPublishing(
  app: Hono<ApiEnv>,
  { storage, clock, liveDocuments, accessChanges, history, logger, creators }: ApiDependencies,
): void {
  const reload = async (found: AppRecord) => (await storage.apps.get(found.id)) ?? found;

  app.post('/apps/:id/versions', async (c) => {
    const { auth, app: found, role } = await appFor(c, storage);
    requireOwner(role, 'publish it');
    const input = await readPublishRequest(c.req.raw);
    if (auth.user.emailVerifiedAt === null) {
      throw new ApiError(
        'email_not_verified',
        'Confirm your email address before publishing. The link is in the email we sent you.',
      );
    }
    if (
      found.publishedAt === null &&
      (await storage.publishing.countPublished(auth.user.id)) >= PLAN_LIMITS.publishedApps
    ) {
      throw new ApiError(
        'limit_reached',
        `You have ${PLAN_LIMITS.publishedApps} published apps, the most the free plan allows. Unpublish one to make room.`,
      );
    }
    const doc = await loadAppDocument(found.id, storage.documents, liveDocuments, c.get('logger'));
    const check = checkForPublish(doc);
    doc.destroy();
    if (!check.ok) throw publishInvalid(check.problems);

    const { meta } = check.definition;
    const isFirst = (await storage.publishing.versions(found.id)).length === 0;
    const visibility: Visibility = input.visibility ?? (isFirst ? 'public' : found.visibility);
    const { number } = await storage.publishing.publish({
      appId: found.id,
      definitionJson: JSON.stringify(check.definition),
      listing: {
        title: meta.title,
        description: meta.description,
        icon: meta.icon,
        tags: meta.tags,
      },
      publisherId: auth.user.id,
      publishedAt: clock.now(),
      visibility,
    });
    // Every publish is a checkpoint of its app's history. The version is stored either way: a
    // failure here is logged, not the publish's.
    await history
      .record({
        appId: found.id,
        kind: 'publish',
        name: `Version ${number}`,
        version: number,
        definition: check.definition,
        createdById: auth.user.id,
      })
      .catch((error: unknown) =>
        logger.warn({ err: error, appId: found.id }, 'the publish checkpoint failed'),
      );
    // The other people who edit it hear of it, without holding up the answer.
    void creators.notify({
      kind: 'published',
      appId: found.id,
      actorId: auth.user.id,
      version: number,
    });
    return c.json(await publicationOf(storage, await reload(found)), 201);
  });

  app.get('/apps/:id/publication', async (c) => {
    const { app: found } = await appFor(c, storage);
    return c.json(await publicationOf(storage, found));
  });

  app.put('/apps/:id/visibility', async (c) => {
    const { app: found, role } = await appFor(c, storage);
    requireOwner(role, 'choose who sees it');
    const { visibility } = await readJsonBody(c.req.raw, visibilityRequestSchema);
    await storage.publishing.setVisibility(found.id, visibility);
    await accessChanges.visitorsChanged(found.id);
    return c.json(await publicationOf(storage, await reload(found)));
  });

  app.delete('/apps/:id/publication', async (c) => {
    const { app: found, role } = await appFor(c, storage);
    requireOwner(role, 'unpublish it');
    if (await storage.publishing.unpublish(found.id)) await accessChanges.visitorsChanged(found.id);
    return c.json(await publicationOf(storage, await reload(found)));
  });
}
