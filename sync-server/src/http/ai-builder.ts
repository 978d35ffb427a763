import type { Hono } from 'hono';
import {
  aiBlueprintRequestSchema,
  type AiBlueprintLine,
  aiEditRequestSchema,
  type AiEditResponse,
} from '@pipit/protocol';
import { appFromDescription, proposeEdits } from '../ai/app-builder';
import { requireAiProvider } from '../ai/provider';
import { DAY_MS, utcDay } from '../ai/runs';
import { loadAppDocument } from '../publishing/app-document';
import { ServiceError } from '../service-error';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import { readJsonBody } from './body';
import { z } from 'zod';
import type * as zm from 'zod/mini';
import { type ApiEnv, requireAuth } from './context';

/** A JSON body checked with a zod/mini schema of the protocol (readJsonBody takes classic zod). */
async function readBody<T>(request: Request, schema: zm.ZodMiniType<T>): Promise<T> {
  const json = await readJsonBody(request, z.unknown());
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      fields[issue.path.map(String).join('.') || '(body)'] ??= issue.message;
    }
    throw new ApiError('validation_failed', 'Some fields need another look.', { fields });
  }
  return parsed.data;
}

/**
 * Each blueprint or Ask AI request counts as one AI run of the person's daily quota
 * (docs/product/ai-builder.md, AI_DAILY_RUNS), with the same rate limit and words as a run of an AI action:
 * taken before the model is asked, given back when the request fails.
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
 * (`POST /api/ai/edits`): docs/product/ai-builder.md.
 */
export function registerAiBuilder(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  const { ai, storage, liveDocuments, logger } = deps;
  app.post('/ai/blueprints', async (c) => {
    const auth = requireAuth(c);
    const provider = requireAiProvider(ai);
    const { description } = await readBody(c.req.raw, aiBlueprintRequestSchema);
    const run = await takeRun(deps, auth.user.id);
    const log = c.get('logger');
    const encoder = new TextEncoder();
    const abort = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = (line: AiBlueprintLine) => {
          if (!abort.signal.aborted)
            controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
        };
        try {
          const definition = await appFromDescription(
            provider,
            description,
            (progress) => send({ type: 'progress', ...progress }),
            abort.signal,
          );
          send({ type: 'done', definition });
        } catch (error) {
          await run.release().catch((err: unknown) => log.warn({ err }, 'AI run not given back'));
          if (error instanceof ServiceError) {
            send({ type: 'error', error: { code: error.code, message: error.message } });
          } else if (!abort.signal.aborted) {
            log.error({ err: error }, 'making an app from a description failed');
            send({ type: 'error', error: { code: 'internal_error', message: GENERIC_FAILURE } });
          }
        }
        if (!abort.signal.aborted) controller.close();
      },
      cancel() {
        // The person left: stop asking the model.
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
    const { appId, instruction } = await readBody(c.req.raw, aiEditRequestSchema);
    const found = await storage.apps.getWithRole(appId, auth.user.id);
    if (!found?.role)
      throw new ApiError('not_found', 'That app does not exist, or it is not shared with you.');
    if (found.role === 'viewer') {
      throw new ApiError('forbidden', 'Only the app’s owner and editors can ask AI to change it.');
    }
    const run = await takeRun(deps, auth.user.id);
    const doc = await loadAppDocument(appId, storage.documents, liveDocuments, logger);
    try {
      const { usage, ...proposed } = await proposeEdits(
        provider,
        doc,
        instruction,
        c.req.raw.signal,
      );
      await storage.aiUsage.record({
        day: run.day,
        appId,
        userId: auth.user.id,
        runs: 1,
        ...usage,
      });
      const answer: AiEditResponse = proposed;
      return c.json(answer);
    } catch (error) {
      await run.release();
      throw error;
    } finally {
      doc.destroy();
    }
  });
}
