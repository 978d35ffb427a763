import {
  AI_RECORD_SCHEMA_NAME,
  AI_RUN_SYSTEM_MESSAGE,
  type AiAction,
  type AiRunPlan,
  appDefinitionSchema,
  bindingName,
  checkAiRecord,
  checkAiTextForField,
  type Collection,
  migrateDefinition,
  planAiRun,
  readDefinition,
  templateBindings,
} from '@pipit/app-definition';
import {
  AI_BINDING_MAX_LENGTH,
  AI_BINDINGS_MAX,
  type AiRunOutput,
  type AiRunResponse,
  type AiRunSource,
  type AiStatus,
} from '@pipit/protocol';
import type { Clock } from '../accounts/clock';
import type { Logger } from '../logger';
import { loadAppDocument, type LiveDocuments } from '../publishing/app-document';
import { findVisibleApp } from '../publishing/visibility';
import { ServiceError } from '../service-error';
import type { Storage } from '../storage/types';
import {
  addUsage,
  type AiProvider,
  AiOutputInvalidError,
  type AiUsage,
  OUTPUT_INVALID_MESSAGE,
  rethrowAfterAnswer,
  spentUsage,
} from './provider';
import { aiNotConfigured, type ProviderFailure, ProviderFailedError } from './provider-errors';

/*
 * Running an app's AI action (docs/product/ai.md, "Runs"). The browser names the app, the action
 * and the values of the bindings the action's stored template uses; the server reads the template
 * itself (the published version, or the live document for the app's editors), fills it with those
 * values as text, asks the provider, and checks the answer with the rules of a hand-made record.
 * Nothing of the run is stored but its count and token usage.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Usage older than this is pruned now and then; `/admin` shows the last 30 days. */
export const AI_USAGE_RETENTION_DAYS = 31;

/** The start of the UTC day of `at`: quotas reset at midnight UTC. */
export function utcDay(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS;
}

/** The system message of every run (kept in @pipit/app-definition, so the editor shows it). */
export const RUN_SYSTEM_MESSAGE = AI_RUN_SYSTEM_MESSAGE;

/**
 * Whether a provider failure of this kind leaves the run counted (once the provider was asked):
 * it was at work on the run (an answer came, unreadable or empty; the time ran out; the person
 * left), or it did none (it refused the request or could not be reached).
 */
const PROVIDER_WORKED: Record<ProviderFailure, boolean> = {
  timeout: true,
  cancelled: true,
  empty: true,
  malformed: true,
  unreachable: false,
  busy: false,
  unavailable: false,
  settings: false,
  refused: false,
};

/**
 * Whether a run that ended without an output still counts against the person's quota
 * (docs/product/ai.md, "Quotas"): it does once the provider has been asked and worked on it, so
 * that leaving before the answer, or asking for what cannot fit, is no way around the quota. Once
 * any answer came back (`spentUsage`: one that never fit, or a repair round that then failed,
 * however), it counts whatever the last failure was: a busy provider in the repair round does not
 * give back a run whose first answer it worked out in full. It is given back when the provider
 * was never asked, refused the request or could not be reached, and when Pipit itself failed.
 */
export function failedRunCounts(error: unknown): boolean {
  if (spentUsage(error) !== null) return true;
  if (error instanceof ProviderFailedError)
    return error.providerAsked && PROVIDER_WORKED[error.kind];
  return false;
}

/**
 * After a run (or a description, or an Ask AI request) that produced nothing: gives its
 * reservation back unless it still counts, and logs which (never the prompt or the answer).
 */
export async function endFailedRun(
  error: unknown,
  release: () => Promise<void>,
  logger: Logger,
): Promise<void> {
  const counted = failedRunCounts(error);
  if (!counted) await release();
  logger.info(
    {
      code: error instanceof ServiceError ? error.code : 'internal',
      kind: error instanceof ProviderFailedError ? error.kind : undefined,
      counted,
    },
    'AI run ended without an output',
  );
}

export interface RunRequest {
  userId: string;
  appId: string;
  aiActionId: string;
  source: AiRunSource;
  bindings: Record<string, string>;
  signal?: AbortSignal;
}

export interface AiRuns {
  status(userId: string | null): Promise<AiStatus>;
  run(request: RunRequest): Promise<AiRunResponse>;
}

const notFound = () =>
  new ServiceError(
    'not_found',
    'There is no app at this address. It may be private, unpublished or deleted; check the link with the person who shared it.',
  );
const noSuchAction = () =>
  new ServiceError(
    'not_found',
    'This app has no such AI action. It may have been changed; update the app and try again.',
  );
const invalid = (message: string, field?: string) =>
  new ServiceError('validation_failed', message, field ? { fields: { [field]: message } } : {});

/** The parts of a definition a run reads. */
interface RunDefinition {
  collections: Collection[];
  aiActions: AiAction[];
}

interface AiRunsDependencies {
  provider: AiProvider | undefined;
  storage: Storage;
  liveDocuments: LiveDocuments | undefined;
  dailyRuns: number;
  clock: Clock;
  logger: Logger;
}

/** Runs of AI actions (docs/product/ai.md): what a person may still run today, and one run. */
export function createAiRuns(deps: AiRunsDependencies): AiRuns {
  const { provider, storage, dailyRuns, clock, logger } = deps;

  async function status(userId: string | null): Promise<AiStatus> {
    const remaining =
      userId === null
        ? null
        : Math.max(0, dailyRuns - (await storage.aiUsage.runsUsed(userId, utcDay(clock.now()))));
    return {
      available: provider !== undefined,
      model: provider?.model ?? null,
      dailyRuns,
      remaining,
    };
  }

  async function run(request: RunRequest): Promise<AiRunResponse> {
    if (!provider) throw aiNotConfigured();
    const definition = await definitionFor(deps, request);
    const action = definition.aiActions.find((a) => a.id === request.aiActionId);
    if (!action) throw noSuchAction();
    checkBindings(action, request.bindings);
    // The stored template, filled with the values as text: nothing in a value is read as a
    // template, and a binding not sent reads as ''.
    const planned = planAiRun(action, definition.collections, request.bindings);
    if (!planned.ok) throw invalid(planned.message);

    // Reserve before asking, so two runs at once cannot both take the last one; a run that
    // produces nothing gives it back unless the provider worked on it (docs/product/ai.md,
    // "Quotas").
    const day = utcDay(clock.now());
    const reserved = await storage.aiUsage.reserveRun(request.userId, day, dailyRuns);
    if (!reserved.taken) {
      const retryAfter = Math.max(1, Math.ceil((day + DAY_MS - clock.now()) / 1000));
      throw new ServiceError(
        'ai_quota_exceeded',
        `You have used all ${dailyRuns} AI runs for today. More are available after midnight UTC.`,
        { retryAfter },
      );
    }
    if (Math.random() < 0.01) {
      storage.aiUsage
        .prune(day - AI_USAGE_RETENTION_DAYS * DAY_MS)
        .catch((error: unknown) => logger.warn({ err: error }, 'pruning AI usage failed'));
    }
    const base = { day, appId: request.appId, userId: request.userId };
    try {
      const { output, usage } = await ask(provider, planned.plan, request.signal);
      await storage.aiUsage.record({ ...base, runs: 1, ...usage });
      return { output, remaining: Math.max(0, dailyRuns - reserved.used) };
    } catch (error) {
      await endFailedRun(error, () => storage.aiUsage.releaseRun(request.userId, day), logger);
      // Tokens spent on answers that came back are still counted for the operator: one that did
      // not fit, or a first answer whose repair round failed.
      const spent = spentUsage(error);
      if (spent) await storage.aiUsage.record({ ...base, runs: 0, ...spent });
      throw error;
    }
  }

  return { status, run };
}

/** The definition a run reads: the live document for the app's editors, else a published version. */
async function definitionFor(
  { storage, liveDocuments, logger }: AiRunsDependencies,
  request: RunRequest,
): Promise<RunDefinition> {
  const visible = await findVisibleApp(storage, request.appId, request.userId);
  if (!visible) {
    if (await storage.apps.wasDeleted(request.appId)) {
      throw new ServiceError(
        'app_deleted',
        'Its creator deleted this app, so it no longer opens anywhere.',
      );
    }
    throw notFound();
  }
  const { app, role } = visible;
  if (request.source === 'live') {
    if (role !== 'owner' && role !== 'editor') {
      throw new ServiceError(
        'forbidden',
        'Only the app’s editors can try its AI actions before they are published.',
      );
    }
    const doc = await loadAppDocument(app.id, storage.documents, liveDocuments, logger);
    try {
      const read = readDefinition(doc);
      return { collections: read.collections, aiActions: read.aiActions };
    } finally {
      doc.destroy();
    }
  }
  // The version visitors run; the app's own people also reach the newest version of an
  // unpublished app, as `GET /api/published/{id}` gives it to them.
  const number =
    app.publishedVersion ??
    (role ? ((await storage.publishing.versions(app.id))[0]?.number ?? null) : null);
  const version = number === null ? null : await storage.publishing.version(app.id, number);
  if (!version) throw notFound();
  const parsed = appDefinitionSchema.safeParse(
    migrateDefinition(JSON.parse(version.definitionJson) as unknown),
  );
  if (!parsed.success) throw noSuchAction();
  return { collections: parsed.data.collections, aiActions: parsed.data.aiActions };
}

/** Every key a binding the template uses, every value within its cap: else refused, not cut. */
function checkBindings(action: AiAction, bindings: Record<string, string>) {
  const keys = Object.keys(bindings);
  if (keys.length > AI_BINDINGS_MAX) {
    throw invalid(`Send at most ${AI_BINDINGS_MAX} bindings with one run.`, 'bindings');
  }
  const used = new Set(templateBindings(action.prompt));
  for (const key of keys) {
    const name = bindingName(key);
    if (name === null || name !== key || !used.has(name)) {
      throw invalid(
        `This AI action’s prompt does not use {{${key.slice(0, 80)}}}, so it can’t be sent. Send only the values its prompt uses.`,
        `bindings.${key}`,
      );
    }
    const value = bindings[key]!;
    if (value.length > AI_BINDING_MAX_LENGTH) {
      throw invalid(
        `The value of {{${key}}} is too long: send at most ${AI_BINDING_MAX_LENGTH.toLocaleString('en-US')} characters.`,
        `bindings.${key}`,
      );
    }
  }
}

async function ask(
  p: AiProvider,
  plan: AiRunPlan,
  signal: AbortSignal | undefined,
): Promise<{ output: AiRunOutput; usage: AiUsage }> {
  const { system, user, output } = plan;
  if (output.kind === 'record') {
    const answer = await p.completeStructured({
      system,
      user,
      name: AI_RECORD_SCHEMA_NAME,
      jsonSchema: output.jsonSchema,
      parse: (value) => checkAiRecord(output.collection, value),
      signal,
    });
    return { output: { kind: 'record', values: answer.value }, usage: answer.usage };
  }

  const field = output.field;
  const first = await p.complete({ system, user, signal });
  if (!field) return { output: { kind: 'text', text: first.content.trim() }, usage: first.usage };
  const firstCheck = checkAiTextForField(field, first.content.trim());
  if (firstCheck.ok)
    return { output: { kind: 'text', text: firstCheck.value }, usage: first.usage };
  // One repair round, as for records; the first answer's tokens were spent, however it ends.
  const second = await p
    .complete({
      system,
      user,
      signal,
      followUp: [
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: `That does not fit the field: ${firstCheck.problems.join(' ')} Answer again with the value only.`,
        },
      ],
    })
    .catch((error: unknown) => rethrowAfterAnswer(error, first.usage));
  const usage = addUsage(first.usage, second.usage);
  const secondCheck = checkAiTextForField(field, second.content.trim());
  if (secondCheck.ok) return { output: { kind: 'text', text: secondCheck.value }, usage };
  throw new AiOutputInvalidError(OUTPUT_INVALID_MESSAGE, usage);
}
