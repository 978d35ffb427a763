import type { Hono } from 'hono';
import {
  closeDraftRequestSchema,
  createDraftRequestSchema,
  DRAFT_LIMITS,
  type DraftSummary,
  isId,
  updateDraftRequestSchema,
} from '@pipit/protocol';
import { CHECKPOINT_DEFINITION_MAX_BYTES } from '../history/checkpoints';
import type { DraftRecord } from '../storage/types';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import { appFor } from './apps';
import { readJsonBody } from './body';
import { type ApiContext, type ApiEnv, namedPerson } from './context';
import { gzippedDefinition, readGzippedJson } from './definition-bytes';

/** A draft's body: one whole definition and a name. */
export const DRAFT_BODY_LIMIT_BYTES = CHECKPOINT_DEFINITION_MAX_BYTES + 4 * 1024;

/** The JSON endpoints besides a checkpoint's allowed a body over API_BODY_LIMIT_BYTES. */
export const isDraftWrite = (method: string, path: string) =>
  (method === 'POST' && /^\/api\/apps\/[a-z2-7]{26}\/drafts$/.test(path)) ||
  (method === 'PATCH' && /^\/api\/apps\/[a-z2-7]{26}\/drafts\/[a-z2-7]{26}$/.test(path));

const notFound = () =>
  new ApiError('not_found', 'That draft does not exist any more: it was merged or deleted.');

const editorsOnly = (role: string, what: string) => {
  if (role === 'viewer') {
    throw new ApiError('forbidden', `Only the app’s owner and editors can ${what} drafts.`);
  }
};

const baseFrom = (value: unknown) =>
  gzippedDefinition(value, 'base', 'That is not a valid app to start a draft from.');

function toSummary(record: DraftRecord): DraftSummary {
  return {
    id: record.id,
    name: record.name,
    status: record.status,
    createdAt: record.createdAt,
    createdBy: namedPerson(record.createdBy),
    baseAt: record.baseAt,
    closedAt: record.closedAt,
    closedBy: namedPerson(record.closedBy),
  };
}

/** The app in the path and the draft of it named there, which must be the app's. */
async function draftFor(c: ApiContext, deps: ApiDependencies) {
  const found = await appFor(c, deps.storage);
  const id = c.req.param('draftId') ?? '';
  const draft = isId(id) ? await deps.storage.drafts.get(found.app.id, id) : null;
  if (!draft) throw notFound();
  return { ...found, draft };
}

const closedAlready = (draft: DraftRecord) => {
  const who = draft.closedBy ? draft.closedBy.displayName || draft.closedBy.username : 'Someone';
  return new ApiError(
    'already_closed',
    `${who} already ${draft.status === 'merged' ? 'merged' : 'deleted'} this draft.`,
  );
};

/**
 * Drafts of an app (docs/product/drafts.md): started from a device (which seeds the draft's
 * document from its copy of the app and syncs it once this answers), listed for everyone who may
 * read the app, renamed or given a new base after "Update draft", and closed — merged or deleted
 * — which removes its document on every instance.
 */
export function registerDrafts(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  const { storage, clock, rateLimiter, dataRemoval } = deps;

  app.get('/apps/:id/drafts', async (c) => {
    const { app: found } = await appFor(c, storage);
    const drafts = await storage.drafts.list(found.id);
    return c.json({ drafts: drafts.map(toSummary) });
  });

  app.get('/apps/:id/drafts/:draftId', async (c) => {
    const { app: found, draft } = await draftFor(c, deps);
    const base = draft.status === 'open' ? await storage.drafts.base(found.id, draft.id) : null;
    if (!base) throw notFound();
    return c.json({ draft: toSummary(draft), base: await readGzippedJson(base) });
  });

  app.post('/apps/:id/drafts', async (c) => {
    const { auth, app: found, role } = await appFor(c, storage);
    editorsOnly(role, 'start');
    const input = await readJsonBody(c.req.raw, createDraftRequestSchema, DRAFT_BODY_LIMIT_BYTES);
    // Sent again by a device that did not hear the answer: nothing new, nothing counted.
    const known = await storage.drafts.get(found.id, input.id);
    if (known) return c.json({ draft: toSummary(known) }, 200);
    // Checked before it counts: a refused draft costs nothing of the hour's.
    const base = await baseFrom(input.base);
    await rateLimiter.enforce('draftsPerAccount', auth.user.id);
    const outcome = await storage.drafts.insert(
      {
        id: input.id,
        appId: found.id,
        name: input.name,
        base,
        createdById: auth.user.id,
        createdAt: clock.now(),
      },
      DRAFT_LIMITS.openPerApp,
    );
    if (outcome === 'full') {
      throw new ApiError(
        'limit_reached',
        `This app has as many drafts as it may (${DRAFT_LIMITS.openPerApp}). Merge or delete one first.`,
      );
    }
    const record = await storage.drafts.get(found.id, input.id);
    if (!record) throw notFound();
    return c.json({ draft: toSummary(record) }, outcome === 'stored' ? 201 : 200);
  });

  app.patch('/apps/:id/drafts/:draftId', async (c) => {
    const { app: found, role, draft } = await draftFor(c, deps);
    editorsOnly(role, 'change');
    const input = await readJsonBody(c.req.raw, updateDraftRequestSchema, DRAFT_BODY_LIMIT_BYTES);
    if (draft.status !== 'open') throw closedAlready(draft);
    const base =
      input.base === undefined ? undefined : { bytes: await baseFrom(input.base), at: clock.now() };
    const changed = await storage.drafts.update(found.id, draft.id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(base ? { base } : {}),
    });
    const after = await storage.drafts.get(found.id, draft.id);
    if (!after) throw notFound();
    if (!changed) throw closedAlready(after);
    return c.json({ draft: toSummary(after) });
  });

  app.post('/apps/:id/drafts/:draftId/close', async (c) => {
    const { auth, app: found, role, draft } = await draftFor(c, deps);
    editorsOnly(role, 'merge or delete');
    const input = await readJsonBody(c.req.raw, closeDraftRequestSchema);
    const closed = await storage.drafts.close(
      found.id,
      draft.id,
      input.outcome,
      auth.user.id,
      clock.now(),
      DRAFT_LIMITS.closedPerApp,
    );
    if (!closed) {
      const now = await storage.drafts.get(found.id, draft.id);
      // Closed before: its document goes again, in case that close stopped half-way.
      if (now) await dataRemoval.draft(found.id, draft.id);
      throw now ? closedAlready(now) : notFound();
    }
    // No one is granted the document now; it goes from every instance and from storage.
    await dataRemoval.draft(found.id, draft.id);
    const after = await storage.drafts.get(found.id, draft.id);
    return c.json({
      draft: after ? toSummary(after) : { ...toSummary(draft), status: input.outcome },
    });
  });
}
