import type { Hono } from 'hono';
import { AI_BINDING_MAX_LENGTH, aiRunRequestSchema } from '@pipit/protocol';
import { createAiRuns } from '../ai/runs';
import { aiNotConfigured } from '../ai/provider-errors';
import { ApiError } from './api-error';
import type { ApiDependencies } from './api-dependencies';
import { readBodyBytes } from './body';
import type { ApiEnv } from './context';

/**
 * A run's body, with the one check the schema cannot word well done first: a binding's value
 * over the cap is refused by name (refused, never cut: docs/product/ai.md).
 */
async function readRunRequest(request: Request) {
  const bytes = await readBodyBytes(request);
  if (bytes.byteLength === 0)
    throw new ApiError('validation_failed', 'This request needs a JSON body.');
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ApiError('validation_failed', 'The request body is not valid JSON.');
  }
  const bindings = (json as { bindings?: unknown } | null)?.bindings;
  if (bindings && typeof bindings === 'object') {
    for (const [key, value] of Object.entries(bindings)) {
      if (typeof value === 'string' && value.length > AI_BINDING_MAX_LENGTH) {
        const message = `The value of {{${key.slice(0, 80)}}} is too long: send at most ${AI_BINDING_MAX_LENGTH.toLocaleString('en-US')} characters.`;
        throw new ApiError('validation_failed', message, {
          fields: { [`bindings.${key}`]: message },
        });
      }
    }
  }
  const parsed = aiRunRequestSchema.safeParse(json);
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
 * AI on the server (docs/product/ai.md): whether it is available, and runs of AI actions. Without
 * a provider the status says so and every other AI endpoint answers `ai_not_configured`.
 */
export function registerAi(app: Hono<ApiEnv>, deps: ApiDependencies): void {
  const runs = createAiRuns({
    provider: deps.ai,
    storage: deps.storage,
    liveDocuments: deps.liveDocuments,
    dailyRuns: deps.aiDailyRuns,
    clock: deps.clock,
    logger: deps.logger,
  });

  app.get('/ai/status', async (c) => c.json(await runs.status(c.get('auth')?.user.id ?? null)));

  app.post('/ai/runs', async (c) => {
    if (!deps.ai) throw aiNotConfigured();
    const auth = c.get('auth');
    if (!auth) throw new ApiError('unauthenticated', 'Sign in to use AI in this app.');
    await deps.rateLimiter.enforce('aiRunsPerAccount', auth.user.id);
    const input = await readRunRequest(c.req.raw);
    const result = await runs.run({
      userId: auth.user.id,
      appId: input.appId,
      aiActionId: input.aiActionId,
      source: input.source,
      bindings: input.bindings,
      signal: c.req.raw.signal,
    });
    return c.json(result);
  });
}
