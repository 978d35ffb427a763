import type { Hono } from 'hono';
import {
  closeSuggestionRequestSchema,
  createSuggestionRequestSchema,
  isId,
  SUGGESTION_LIMITS,
  type SuggestionSummary,
} from '@pipit/protocol';
import { CHECKPOINT_DEFINITION_MAX_BYTES } from '../history/checkpoints';
import type { SuggestionRecord } from '../storage/types';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import { appFor } from './apps';
import { readJsonBody } from './body';
import { gzippedDefinition, readGzippedJson } from './definition-bytes';
import { type ApiEnv, namedPerson } from './context';

/** A suggestion's body: two whole definitions and the conversation. */
export const SUGGESTION_BODY_LIMIT_BYTES = 2 * CHECKPOINT_DEFINITION_MAX_BYTES + 64 * 1024;

/** The JSON endpoint besides a checkpoint's allowed a body over API_BODY_LIMIT_BYTES. */
export const isSuggestionPost = (method: string, path: string) =>
  method === 'POST' && /^\/api\/apps\/[a-z2-7]{26}\/suggestions$/.test(path);

const notFound = () =>
  new ApiError('not_found', 'That suggestion does not exist any more. Ask AI again.');

const editorsOnly = (role: string, what: string) => {
  if (role === 'viewer') {
    throw new ApiError('forbidden', `Only the app’s owner and editors can ${what} suggestions.`);
  }
};

function toSummary(record: SuggestionRecord): SuggestionSummary {
  return {
    id: record.id,
    asked: record.asked,
    summary: record.summary,
    status: record.status,
    createdAt: record.createdAt,
    createdBy: namedPerson(record.createdBy),
    closedAt: record.closedAt,
    closedBy: namedPerson(record.closedBy),
  };
}

/** A whole definition as a device sends it, checked as a checkpoint's is. */
const definitionFrom = (value: unknown, field: 'base' | 'proposed') =>
  gzippedDefinition(
    value,
    field,
    'That suggestion is not a valid change to an app, so it was not kept.',
  );

const full = () =>
  new ApiError(
    'limit_reached',
    `This app has as many suggestions waiting for review as it may (${SUGGESTION_LIMITS.openPerApp}, or ${SUGGESTION_LIMITS.openBytesPerApp / 1024 / 1024} MB). Accept or reject some of them first.`,
  );

/**
 * Ask AI's suggestions kept for review (docs/product/ai-builder.md#suggestions-kept-for-review):
 * an editor's device keeps each suggestion it gets here, so any editor can review it — accept it
 * in part or whole, or reject it — whether the asker's dialog is open or not; everyone who may
 * read the app sees which wait.
 */
export function registerSuggestions(
  app: Hono<ApiEnv>,
  { storage, clock, rateLimiter }: ApiDependencies,
): void {
  app.get('/apps/:id/suggestions', async (c) => {
    const { app: found } = await appFor(c, storage);
    const rows = await storage.suggestions.list(found.id, 'open');
    return c.json({ suggestions: rows.map(toSummary) });
  });

  app.get('/apps/:id/suggestions/:suggestionId', async (c) => {
    const { app: found } = await appFor(c, storage);
    const id = c.req.param('suggestionId');
    const [record, definitions] = isId(id)
      ? await Promise.all([
          storage.suggestions.get(found.id, id),
          storage.suggestions.definitions(found.id, id),
        ])
      : [null, null];
    if (!record || !definitions) throw notFound();
    // A decided suggestion keeps no definitions: there is nothing left to review.
    if (record.status !== 'open') throw notFound();
    return c.json({
      suggestion: toSummary(record),
      earlier: record.earlier,
      base: await readGzippedJson(definitions.base),
      proposed: await readGzippedJson(definitions.proposed),
    });
  });

  app.post('/apps/:id/suggestions', async (c) => {
    const { auth, app: found, role } = await appFor(c, storage);
    editorsOnly(role, 'keep');
    const input = await readJsonBody(
      c.req.raw,
      createSuggestionRequestSchema,
      SUGGESTION_BODY_LIMIT_BYTES,
    );
    // Sent again by a device that did not hear the answer: nothing new, nothing counted.
    const known = await storage.suggestions.get(found.id, input.id);
    if (known) return c.json({ suggestion: toSummary(known) }, 200);
    await rateLimiter.enforce('suggestionsPerAccount', auth.user.id);
    const outcome = await storage.suggestions.insert(
      {
        id: input.id,
        appId: found.id,
        asked: input.asked,
        summary: input.summary,
        earlier: input.earlier,
        base: await definitionFrom(input.base, 'base'),
        proposed: await definitionFrom(input.proposed, 'proposed'),
        createdById: auth.user.id,
        createdAt: clock.now(),
      },
      { count: SUGGESTION_LIMITS.openPerApp, bytes: SUGGESTION_LIMITS.openBytesPerApp },
    );
    if (outcome === 'full') throw full();
    const record = await storage.suggestions.get(found.id, input.id);
    if (!record) throw notFound();
    return c.json({ suggestion: toSummary(record) }, outcome === 'stored' ? 201 : 200);
  });

  app.post('/apps/:id/suggestions/:suggestionId/close', async (c) => {
    const { auth, app: found, role } = await appFor(c, storage);
    editorsOnly(role, 'accept or reject');
    const input = await readJsonBody(c.req.raw, closeSuggestionRequestSchema);
    const id = c.req.param('suggestionId');
    const record = isId(id) ? await storage.suggestions.get(found.id, id) : null;
    if (!record) throw notFound();
    const closed = await storage.suggestions.close(
      found.id,
      id,
      input.outcome,
      auth.user.id,
      clock.now(),
      SUGGESTION_LIMITS.closedPerApp,
    );
    if (!closed) {
      const now = await storage.suggestions.get(found.id, id);
      const who = now?.closedBy ? now.closedBy.displayName || now.closedBy.username : 'Someone';
      throw new ApiError(
        'already_closed',
        `${who} already ${now?.status === 'accepted' ? 'accepted' : now?.status === 'replaced' ? 'replaced' : 'rejected'} this suggestion.`,
      );
    }
    const after = await storage.suggestions.get(found.id, id);
    return c.json({ suggestion: toSummary(after!) });
  });
}
