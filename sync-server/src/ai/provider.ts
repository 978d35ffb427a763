import type * as OpenAISdk from 'openai';
import type OpenAI from 'openai';
import { AI_OUTPUT_INVALID_MESSAGE } from '@pipit/protocol';
import type { AiConfig } from '../config';
import type { Logger } from '../logger';
import { readOnce } from '../read-once';
import { ServiceError } from '../service-error';
import { jsonValueEnd } from './partial-json';
import {
  aiNotConfigured,
  providerFailed,
  ProviderFailedError,
  type ProviderFailure,
} from './provider-errors';

/*
 * The one client of the AI provider (docs/product/ai.md): any OpenAI-compatible Chat Completions
 * API (Ollama, llama.cpp's server, vLLM, OpenAI) through the official `openai` package.
 *
 * Privacy: prompts and answers are never logged. A failure is logged with its kind, the HTTP
 * status and the provider's error type only; the API key never appears in a log or an answer.
 */

/** Local servers need no key, but the client refuses to start without one. */
const PLACEHOLDER_API_KEY = 'no-key';

export interface AiUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface AiJsonSchema {
  /** `[A-Za-z0-9_-]`, at most 64 characters (the API's rule for `json_schema.name`). */
  name: string;
  schema: Record<string, unknown>;
}

export interface AiMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompleteOptions {
  system: string;
  user: string;
  /** Asks for structured output: `response_format: { type: 'json_schema', … }`. */
  jsonSchema?: AiJsonSchema;
  /** Streams the answer: called with the whole text so far after each piece. */
  onDelta?: (textSoFar: string) => void;
  signal?: AbortSignal;
  /** Earlier turns after the user's message (the repair round sends the bad answer back). */
  followUp?: AiMessage[];
}

export interface Completion {
  content: string;
  usage: AiUsage;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; problems: string[] };

export interface CompleteStructuredOptions<T> {
  system: string;
  user: string;
  name: string;
  jsonSchema: Record<string, unknown>;
  /** The answer's JSON (already parsed); say what is wrong in words the model can act on. */
  parse: (value: unknown) => ParseResult<T>;
  /** Streaming; starts again from '' when the repair round begins. */
  onDelta?: (textSoFar: string) => void;
  signal?: AbortSignal;
}

export interface StructuredCompletion<T> {
  value: T;
  /** Both rounds added together when there was a repair round. */
  usage: AiUsage;
  /** Whether the first answer did not fit and the second one did. */
  repaired: boolean;
}

export interface AiProvider {
  /** The model's name as configured (AI_MODEL). */
  readonly model: string;
  complete(options: CompleteOptions): Promise<Completion>;
  /**
   * Structured output with one repair round: an answer that is not JSON or does not pass `parse`
   * is sent back once with its problems; a second misfit throws `ai_output_invalid`.
   */
  completeStructured<T>(options: CompleteStructuredOptions<T>): Promise<StructuredCompletion<T>>;
}

/**
 * `ai_output_invalid` carrying what both rounds cost, so the caller can count the tokens (never
 * sent: the error body holds only `code` and `message`).
 */
export class AiOutputInvalidError extends ServiceError {
  constructor(
    message: string,
    readonly usage: AiUsage,
  ) {
    super('ai_output_invalid', message);
  }
}

/**
 * `ai_provider_failed` once the provider had answered this run (its tokens spent): the repair
 * round failed — busy, failing, unreachable, out of time, anything — after a whole first answer
 * that did not fit, or the answer was empty. The run counts whatever its kind
 * (`failedRunCounts`), and `usage`, what the answers that came back cost, is recorded for the
 * operator (docs/product/ai.md, "Quotas"): otherwise a first answer steered off its shape and a
 * busy provider would make runs that cost tokens and count for nothing.
 */
export class ProviderFailedAfterAnswerError extends ProviderFailedError {
  constructor(
    kind: ProviderFailure,
    readonly usage: AiUsage,
  ) {
    super(kind, true);
  }
}

/**
 * Throws the error of a request made after the provider had answered this run for `usage` (a
 * repair round): a provider failure carries that usage on (`ProviderFailedAfterAnswerError`),
 * added to what it carried itself; any other error is thrown as it is.
 */
export function rethrowAfterAnswer(error: unknown, usage: AiUsage): never {
  if (error instanceof ProviderFailedAfterAnswerError) {
    throw new ProviderFailedAfterAnswerError(error.kind, addUsage(usage, error.usage));
  }
  if (error instanceof ProviderFailedError) {
    throw new ProviderFailedAfterAnswerError(error.kind, usage);
  }
  throw error;
}

/**
 * What the provider's answers cost a run that ended without an output, when any came back: an
 * answer that never fit (`AiOutputInvalidError`), or a failure after an answer
 * (`ProviderFailedAfterAnswerError`). Null when no answer came back.
 */
export function spentUsage(error: unknown): AiUsage | null {
  if (error instanceof AiOutputInvalidError || error instanceof ProviderFailedAfterAnswerError) {
    return error.usage;
  }
  return null;
}

/** `ai_output_invalid` for a run of an AI action (the words /docs/ai-actions quotes). */
export const OUTPUT_INVALID_MESSAGE = AI_OUTPUT_INVALID_MESSAGE;

/** Problems shown to the model in the repair round, and in the log's count. */
const MAX_PROBLEMS = 20;

/** Objects tried in an answer with prose around its JSON (each from a `{` after the last one). */
const MAX_OBJECTS_TRIED = 8;
/** A markdown fence, with or without a language: ```json … ``` */
const FENCE = /```[\w-]*[^\S\n]*\n?([\s\S]*?)```/g;

/** What may be the answer's JSON, most likely first. */
function* jsonCandidates(text: string): Generator<string> {
  yield text;
  for (const fenced of text.matchAll(FENCE)) yield fenced[1]!.trim();
  // An object amid prose: from its `{` to the matching `}`. The next try starts after it, so an
  // object inside another is never taken for the answer; an object that never closes (a cut-off
  // answer) ends the search.
  let start = text.indexOf('{');
  for (let tried = 0; start >= 0 && tried < MAX_OBJECTS_TRIED; tried++) {
    const end = jsonValueEnd(text, start);
    if (end < 0) return;
    yield text.slice(start, end);
    start = text.indexOf('{', end);
  }
}

/**
 * The JSON of a model's answer. Even when asked for a schema, small local models often wrap it in
 * a markdown fence or put a sentence before or after it: the answer is read as it is, else from
 * the first fenced block that parses, else from the first whole object in it — before deciding it
 * is not JSON, which costs a repair round. Only a whole value is ever read: a cut-off one has no
 * end, and never parses.
 */
export function parseJsonAnswer(content: string): ParseResult<unknown> {
  const text = content.trim();
  if (text.length === 0) return { ok: false, problems: ['The answer was empty.'] };
  for (const candidate of jsonCandidates(text)) {
    try {
      return { ok: true, value: JSON.parse(candidate) as unknown };
    } catch {
      // Not this one.
    }
  }
  return { ok: false, problems: ['The answer was not valid JSON.'] };
}

export function addUsage(a: AiUsage, b: AiUsage): AiUsage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
  };
}

function usageOf(usage: OpenAI.CompletionUsage | null | undefined): AiUsage {
  return {
    promptTokens: Math.max(0, Math.trunc(usage?.prompt_tokens ?? 0)),
    completionTokens: Math.max(0, Math.trunc(usage?.completion_tokens ?? 0)),
  };
}
/**
 * The provider for this server, or undefined when AI_BASE_URL is unset (every AI endpoint then
 * answers `ai_not_configured`: see `requireAiProvider`).
 */
export function createAiProvider(
  config: AiConfig | undefined,
  logger: Logger,
): AiProvider | undefined {
  if (!config) return undefined;
  // Loaded on the first request: a server whose people never run AI keeps the SDK out of memory.
  // A failed load is tried again by the next request (read-once.ts).
  const clientOf = readOnce(() =>
    import('openai').then((sdk) => ({
      sdk,
      client: new sdk.default({
        baseURL: config.baseUrl,
        apiKey: config.apiKey ?? PLACEHOLDER_API_KEY,
        // No retries: a person is waiting and each run counts against their quota; a retry would
        // double the wait on a timeout and add load to a provider that said it is busy (429). The
        // person can try again, and the structured path has its own repair round.
        maxRetries: 0,
        timeout: config.timeoutMs,
      }),
    })),
  );
  const log = logger.child({ component: 'ai' });
  const failures = createFailures(log);
  const complete = createComplete(config, clientOf, failures);
  return {
    model: config.model,
    complete,
    completeStructured: createCompleteStructured(complete, log),
  };
}

/** The SDK and its client, loaded on the first request. */
type ClientOf = () => Promise<{ sdk: typeof OpenAISdk; client: OpenAI }>;

/**
 * Failures in the provider's words turned into ours, logged without the prompt or the answer. Each
 * throws; declared so, the compiler knows nothing runs after a call.
 */
interface Failures {
  fail(kind: ProviderFailure, asked: boolean, details?: Record<string, unknown>): never;
  failEmpty(usage: AiUsage): never;
  failFrom(
    sdk: typeof OpenAISdk,
    error: unknown,
    how: { timedOut: boolean; callerAborted: boolean; asked: boolean },
  ): never;
}

function createFailures(log: Logger): Failures {
  function fail(
    kind: ProviderFailure,
    asked: boolean,
    details: Record<string, unknown> = {},
  ): never {
    // Never the prompt, the answer or the key: the kind and what the provider said about itself.
    log.warn({ kind, ...details }, 'AI provider request failed');
    throw providerFailed(kind, asked);
  }

  /** An empty answer: the provider answered (and counted its tokens), with nothing in it. */
  function failEmpty(usage: AiUsage): never {
    log.warn({ kind: 'empty' }, 'AI provider request failed');
    throw new ProviderFailedAfterAnswerError('empty', usage);
  }

  function failFrom(
    sdk: typeof OpenAISdk,
    error: unknown,
    {
      timedOut,
      callerAborted,
      asked,
    }: { timedOut: boolean; callerAborted: boolean; asked: boolean },
  ): never {
    const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = sdk;
    if (error instanceof ServiceError) throw error;
    // The person went away (closed the page, lost the connection): nobody reads the answer, and
    // it is no server failure to report.
    if (callerAborted) throw providerFailed('cancelled', asked);
    if (timedOut || error instanceof APIConnectionTimeoutError) fail('timeout', asked);
    if (error instanceof APIUserAbortError) fail('timeout', asked);
    if (error instanceof APIError && typeof error.status === 'number') {
      const status = error.status;
      const details = {
        status,
        type: error.type ?? undefined,
        providerCode: error.code ?? undefined,
      };
      if (status === 429) fail('busy', asked, details);
      if (status === 401 || status === 403) fail('settings', asked, details);
      if (status === 404) fail('settings', asked, details);
      if (status >= 500) fail('unavailable', asked, details);
      fail('refused', asked, details);
    }
    if (error instanceof APIConnectionError) fail('unreachable', asked);
    // A stream cut short, a body that is not JSON, chunks that do not parse.
    fail('malformed', asked, { error: error instanceof Error ? error.name : typeof error });
  }

  return { fail, failEmpty, failFrom };
}

/** One request to the provider, within AI_TIMEOUT_MS, streamed or not. */
function createComplete(config: AiConfig, clientOf: ClientOf, failures: Failures) {
  async function complete(options: CompleteOptions): Promise<Completion> {
    const { system, user, jsonSchema, onDelta, signal, followUp = [] } = options;
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'system', content: system },
      { role: 'user', content: user },
      ...followUp,
    ];
    const responseFormat: OpenAI.ChatCompletionCreateParams['response_format'] = jsonSchema
      ? {
          type: 'json_schema',
          // Not `strict`: OpenAI's strict mode refuses schemas with keywords it does not support
          // (text lengths), while Ollama, llama.cpp and vLLM constrain to the whole schema
          // either way. Every answer is checked after, so a schema followed loosely costs at most
          // the repair round.
          json_schema: { name: jsonSchema.name, schema: jsonSchema.schema, strict: false },
        }
      : undefined;
    // One deadline for the whole answer, streaming included (the client's own timeout covers the
    // wait for the response, not a stream that trickles on).
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, config.timeoutMs);
    const onCallerAbort = () => controller.abort();
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    // Whether the provider has been asked for this run (a failed run's quota depends on it): a
    // repair round follows an answer, so it has.
    let asked = followUp.length > 0;
    const { sdk, client } = await clientOf();
    try {
      // Gone already (the person left, or the time ran out while the client loaded): not asked.
      if (signal?.aborted || controller.signal.aborted) throw new Error('aborted');
      asked = true;
      if (onDelta) {
        return await streamAnswer(
          client,
          { model: config.model, messages, responseFormat },
          { controller, onDelta, failEmpty: failures.failEmpty },
        );
      }
      const answer = await client.chat.completions.create(
        {
          model: config.model,
          messages,
          ...(responseFormat ? { response_format: responseFormat } : {}),
        },
        { signal: controller.signal },
      );
      if (!answer || typeof answer !== 'object' || !Array.isArray(answer.choices))
        failures.fail('malformed', asked);
      const content = answer.choices[0]?.message?.content;
      if (typeof content !== 'string' || content.trim().length === 0)
        failures.failEmpty(usageOf(answer.usage));
      return { content, usage: usageOf(answer.usage) };
    } catch (error) {
      return failures.failFrom(sdk, error, {
        timedOut,
        callerAborted: signal?.aborted === true && !timedOut,
        asked,
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  return complete;
}

/** The answer streamed: `onDelta` is called with the text so far after each piece. */
async function streamAnswer(
  client: OpenAI,
  request: {
    model: string;
    messages: OpenAI.ChatCompletionMessageParam[];
    responseFormat: OpenAI.ChatCompletionCreateParams['response_format'];
  },
  {
    controller,
    onDelta,
    failEmpty,
  }: {
    controller: AbortController;
    onDelta: (textSoFar: string) => void;
    failEmpty: (usage: AiUsage) => never;
  },
): Promise<Completion> {
  const stream = await client.chat.completions.create(
    {
      model: request.model,
      messages: request.messages,
      stream: true,
      stream_options: { include_usage: true },
      ...(request.responseFormat ? { response_format: request.responseFormat } : {}),
    },
    { signal: controller.signal },
  );
  let content = '';
  let usage: AiUsage = { promptTokens: 0, completionTokens: 0 };
  for await (const chunk of stream) {
    const piece = chunk.choices[0]?.delta?.content;
    if (typeof piece === 'string' && piece.length > 0) {
      content += piece;
      onDelta(content);
    }
    if (chunk.usage) usage = usageOf(chunk.usage);
  }
  // The client ends the loop quietly when the request is aborted, so the text so far looks
  // like a whole answer. Cut off by AI_TIMEOUT_MS, or by the person leaving, it is none:
  // never read it, nor send it back for a repair round.
  if (controller.signal.aborted) throw controller.signal.reason ?? new Error('aborted');
  if (content.trim().length === 0) failEmpty(usage);
  return { content, usage };
}

/**
 * A request whose answer must fit a JSON schema: an answer that does not is sent back once, with
 * what is wrong with it (the repair round).
 */
function createCompleteStructured(complete: AiProvider['complete'], log: Logger) {
  async function completeStructured<T>(
    options: CompleteStructuredOptions<T>,
  ): Promise<StructuredCompletion<T>> {
    const { system, user, name, jsonSchema, parse, onDelta, signal } = options;
    const check = (content: string): ParseResult<T> => {
      const json = parseJsonAnswer(content);
      return json.ok ? parse(json.value) : json;
    };
    const first = await complete({
      system,
      user,
      jsonSchema: { name, schema: jsonSchema },
      onDelta,
      signal,
    });
    const firstCheck = check(first.content);
    if (firstCheck.ok) return { value: firstCheck.value, usage: first.usage, repaired: false };

    const problems = firstCheck.problems.slice(0, MAX_PROBLEMS);
    // The first answer came back whole: whatever the repair round ends with, its tokens were spent.
    const second = await complete({
      system,
      user,
      jsonSchema: { name, schema: jsonSchema },
      onDelta,
      signal,
      followUp: [
        { role: 'assistant', content: first.content },
        {
          role: 'user',
          content: [
            'Your answer does not fit the JSON schema:',
            ...problems.map((p) => `- ${p}`),
            'Answer again with only the corrected JSON, nothing else.',
          ].join('\n'),
        },
      ],
    }).catch((error: unknown) => rethrowAfterAnswer(error, first.usage));
    const usage = addUsage(first.usage, second.usage);
    const secondCheck = check(second.content);
    if (secondCheck.ok) return { value: secondCheck.value, usage, repaired: true };
    log.info(
      { schema: name, problems: secondCheck.problems.length },
      'AI answer did not fit its schema after the repair round',
    );
    throw new AiOutputInvalidError(OUTPUT_INVALID_MESSAGE, usage);
  }

  return completeStructured;
}

/** The provider, or `ai_not_configured` ("AI is not configured on this server."). */
export function requireAiProvider(provider: AiProvider | undefined): AiProvider {
  if (!provider) throw aiNotConfigured();
  return provider;
}
