import type { Hono } from 'hono';
import { readDefinition } from '@pipit/app-definition';
import {
  aiBlueprintRequestSchema,
  type AiBlueprintLine,
  aiEditRequestSchema,
  type AiEditResponse,
} from '@pipit/protocol';
import { appFromDescription, proposeEdits } from '../ai/app-builder';
import { requireAiProvider, spentUsage } from '../ai/provider';
import { DAY_MS, endFailedRun, utcDay } from '../ai/runs';
import { createDigest } from '../digest';
import { loadAppDocument } from '../publishing/app-document';
import { ServiceError } from '../service-error';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import { readJsonBody } from './body';
import type * as Y from 'yjs';
import { type ApiEnv, requireAuth } from './context';

/**
 * Each blueprint or Ask AI request counts as one AI run of the person's daily quota
 * (docs/product/ai-builder.md, AI_DAILY_RUNS), with the same rate limit and words as a run of an AI action:
 * taken before the model is asked, given back when the request fails, unless the model worked on
 * it (`endFailedRun`).
 */
async function takeRun(
  { storage, clock, aiDailyRuns, rateLimiter }: ApiDependencies,
  userId: string,
) {
  await rateLimiter.enforce('aiRunsPerAccount', userId);
  const day = utcDay(clock.now());
  const { taken } = await storage.aiUsage.reserveRun(userId, day, aiDailyRuns);
  if (!taken) {
    const retryAfter = Math.max(1, Math.ceil((day + DAY_MS - clock.now()) / 1000));
    throw new ServiceError(
      'ai_quota_exceeded',
      `You have used all ${aiDailyRuns} AI runs for today. More are available after midnight UTC.`,
      { retryAfter },
    );
  }
  return { day, release: () => storage.aiUsage.releaseRun(userId, day) };
}

const GENERIC_FAILURE = 'Something went wrong while making the app. Try again.';

/**
 * Apps from a description (`POST /api/ai/blueprints`, streamed as NDJSON) and AI as a co-editor
 * (`POST /api/ai/edits`): docs/product/ai-builder.md. Both record their tokens for the operator's
 * `/admin` as runs of AI actions do (docs/product/ai.md, "Usage"): one run with its tokens when
 * there is an answer, the tokens alone when an answer came back but none fit (the repair round's
 * failure included).
 */
export function registerAiBuilder(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  const { ai, storage, liveDocuments, logger, reportServerError, history } = deps;
  app.post('/ai/blueprints', async (c) => {
    const auth = requireAuth(c);
    const provider = requireAiProvider(ai);
    const { description } = await readJsonBody(c.req.raw, aiBlueprintRequestSchema);
    const run = await takeRun(deps, auth.user.id);
    const log = c.get('logger');
    const { method, path } = c.req;
    // The client creates the app once it has the definition, so there is no app id yet: these
    // runs are counted together, under no app.
    const base = { day: run.day, appId: null, userId: auth.user.id };
    const encoder = new TextEncoder();
    const abort = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = (line: AiBlueprintLine) => {
          if (!abort.signal.aborted)
            controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
        };
        try {
          const { definition, usage } = await appFromDescription(
            provider,
            description,
            (progress) => send({ type: 'progress', ...progress }),
            abort.signal,
          );
          await storage.aiUsage.record({ ...base, runs: 1, ...usage });
          send({ type: 'done', definition });
        } catch (error) {
          await endFailedRun(
            error,
            () => run.release().catch((err: unknown) => log.warn({ err }, 'AI run not given back')),
            log,
          );
          // Tokens spent on answers that came back (one that never fit, or a first answer whose
          // repair round failed) are still counted for the operator.
          const spent = spentUsage(error);
          if (spent) {
            // Nothing may throw past here: the stream has begun, so the error goes in a line.
            await storage.aiUsage
              .record({ ...base, runs: 0, ...spent })
              .catch((err: unknown) => log.warn({ err }, 'AI usage not recorded'));
          }
          if (error instanceof ServiceError) {
            send({ type: 'error', error: { code: error.code, message: error.message } });
          } else if (!abort.signal.aborted) {
            // As the API's own error handler does (api.ts): the digest the person sees is the
            // one in the log and in the operator's inbox.
            const digest = createDigest();
            log.error(
              { err: error, digest, method, path },
              'making an app from a description failed',
            );
            reportServerError?.({ error, digest, method, path });
            send({ type: 'error', error: { code: 'internal', message: GENERIC_FAILURE, digest } });
          }
        }
        if (!abort.signal.aborted) controller.close();
      },
      cancel() {
        // The person left: stop asking the model (the run still counts once it was asked).
        abort.abort();
      },
    });
    return c.body(body, 200, {
      'Content-Type': 'application/x-ndjson; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
    });
  });

  app.post('/ai/edits', async (c) => {
    const auth = requireAuth(c);
    const provider = requireAiProvider(ai);
    const { appId, instruction, earlier } = await readJsonBody(c.req.raw, aiEditRequestSchema);
    const found = await storage.apps.getWithRole(appId, auth.user.id);
    if (!found?.role)
      throw new ApiError('not_found', 'That app does not exist, or it is not shared with you.');
    if (found.role === 'viewer') {
      throw new ApiError('forbidden', 'Only the app’s owner and editors can ask AI to change it.');
    }
    const run = await takeRun(deps, auth.user.id);
    const base = { day: run.day, appId, userId: auth.user.id };
    // Everything after the run is taken is in the try, so any failure settles it.
    let doc: Y.Doc | undefined;
    try {
      doc = await loadAppDocument(appId, storage.documents, liveDocuments, logger);
      const { usage, ...proposed } = await proposeEdits(
        provider,
        doc,
        instruction,
        c.req.raw.signal,
        earlier,
      );
      await storage.aiUsage.record({ ...base, runs: 1, ...usage });
      // The app as it was before the AI's change, in its history (the change is the asker's
      // device's to make; Undo takes it back, Restore brings this back later).
      const before = readDefinition(doc);
      await history
        .record({
          appId,
          kind: 'ai',
          name: 'Before Ask AI',
          definition: before,
          createdById: auth.user.id,
        })
        .catch((error: unknown) =>
          logger.warn({ err: error, appId }, 'the checkpoint before Ask AI failed'),
        );
      const answer: AiEditResponse = proposed;
      return c.json(answer);
    } catch (error) {
      await endFailedRun(error, run.release, c.get('logger'));
      // Tokens spent on answers that came back are still counted for the operator: one that did
      // not fit, or a first answer whose repair round failed.
      const spent = spentUsage(error);
      if (spent) await storage.aiUsage.record({ ...base, runs: 0, ...spent });
      throw error;
    } finally {
      doc?.destroy();
    }
  });
}
