import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type AiProvider, createAiProvider, parseJsonAnswer } from '../../src/ai/provider';
import { PROVIDER_FAILURE_MESSAGES, ProviderFailedError } from '../../src/ai/provider-errors';
import { ConfigError, loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { ServiceError } from '../../src/service-error';
import { type AiStandIn, startAiStandIn } from '../support';

const API_KEY = 'sk-test-very-secret-key-0123456789';

let standIn: AiStandIn;
let provider: AiProvider;
const logLines: string[] = [];

function makeProvider(url: string, timeoutMs = 2_000, apiKey: string | null = API_KEY) {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  const env: Record<string, string> = {
    AI_BASE_URL: url,
    AI_MODEL: 'stand-in-model',
    AI_TIMEOUT_MS: String(timeoutMs),
  };
  if (apiKey) env.AI_API_KEY = apiKey;
  return createAiProvider(loadConfig(env).ai, createLogger('info', sink))!;
}

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

const recipeSchema = z.object({ title: z.string().min(1), minutes: z.number().int() });
const parseRecipe = (value: unknown) => {
  const parsed = recipeSchema.safeParse(value);
  return parsed.success
    ? ({ ok: true, value: parsed.data } as const)
    : ({
        ok: false,
        problems: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
      } as const);
};

beforeAll(async () => {
  standIn = await startAiStandIn({ apiKey: API_KEY });
  provider = makeProvider(standIn.url);
});
afterAll(async () => {
  await standIn.close();
});
beforeEach(() => {
  standIn.requests.length = 0;
  logLines.length = 0;
});

describe('AI configuration', () => {
  it('has no provider without AI_BASE_URL', () => {
    expect(loadConfig({}).ai).toBeUndefined();
    expect(loadConfig({}).aiDailyRuns).toBe(50);
  });

  it('refuses an AI_BASE_URL that is not http(s), and a base URL without a model', () => {
    expect(() => loadConfig({ AI_BASE_URL: 'ftp://models.example.org', AI_MODEL: 'x' })).toThrow(
      /AI_BASE_URL: Use the http\(s\) address/,
    );
    expect(() => loadConfig({ AI_BASE_URL: 'http://localhost:11434/v1' })).toThrow(ConfigError);
    expect(() => loadConfig({ AI_BASE_URL: 'http://localhost:11434/v1' })).toThrow(/AI_MODEL/);
  });

  it('reads the provider settings', () => {
    expect(
      loadConfig({
        AI_BASE_URL: 'http://localhost:11434/v1/',
        AI_MODEL: 'llama3.2',
        AI_TIMEOUT_MS: '5000',
        AI_DAILY_RUNS: '7',
      }),
    ).toMatchObject({
      ai: {
        baseUrl: 'http://localhost:11434/v1',
        apiKey: undefined,
        model: 'llama3.2',
        timeoutMs: 5000,
      },
      aiDailyRuns: 7,
    });
  });
});

describe('AiProvider.complete', () => {
  it('sends the system and user messages, the model and the key, and returns the answer and usage', async () => {
    standIn.enqueue({
      content: 'Basil likes sun.',
      usage: { prompt_tokens: 12, completion_tokens: 4 },
    });
    const answer = await provider.complete({ system: 'Be brief.', user: 'Care tips for basil?' });
    expect(answer).toEqual({
      content: 'Basil likes sun.',
      usage: { promptTokens: 12, completionTokens: 4 },
    });
    const [request] = standIn.completions;
    expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request!.body.model).toBe('stand-in-model');
    expect(request!.body.stream).toBeFalsy();
    expect(request!.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Care tips for basil?' },
    ]);
  });

  it('sends a placeholder key to servers that need none', async () => {
    const open = await startAiStandIn();
    try {
      open.enqueue('ok');
      await makeProvider(open.url, 2_000, null).complete({ system: 's', user: 'u' });
      expect(open.completions[0]!.headers.authorization).toBe('Bearer no-key');
    } finally {
      await open.close();
    }
  });

  it('streams: onDelta sees the text grow, usage comes from the last chunk', async () => {
    standIn.enqueue({
      content: 'one two three four five',
      chunkSize: 4,
      usage: { prompt_tokens: 3, completion_tokens: 5 },
    });
    const seen: string[] = [];
    const answer = await provider.complete({
      system: 's',
      user: 'u',
      onDelta: (text) => seen.push(text),
    });
    expect(answer).toEqual({
      content: 'one two three four five',
      usage: { promptTokens: 3, completionTokens: 5 },
    });
    expect(seen.length).toBeGreaterThan(3);
    expect(seen.at(-1)).toBe('one two three four five');
    expect(seen.every((text, i) => i === 0 || text.startsWith(seen[i - 1]!))).toBe(true);
    const body = standIn.completions[0]!.body;
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
  });

  it('asks for structured output with response_format json_schema', async () => {
    standIn.enqueue('{"title":"Soup","minutes":20}');
    const schema = z.toJSONSchema(recipeSchema) as Record<string, unknown>;
    await provider.complete({ system: 's', user: 'u', jsonSchema: { name: 'recipe', schema } });
    expect(standIn.completions[0]!.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'recipe', schema, strict: false },
    });
  });

  it.each([
    [{ status: 429, message: 'Rate limit reached' }, 'busy'],
    [{ status: 500 }, 'unavailable'],
    [{ status: 503 }, 'unavailable'],
    [{ status: 401 }, 'settings'],
    [{ status: 403 }, 'settings'],
    [{ status: 404, message: 'model not found' }, 'settings'],
    [{ status: 400, message: 'bad request' }, 'refused'],
    [{ malformed: 'this is not json' }, 'malformed'],
    [{ malformed: '{"choices":"nope"}' }, 'malformed'],
    [{ malformed: '{"choices":[]}' }, 'empty'],
    [{ content: '   ' }, 'empty'],
    [{ drop: true as const }, 'unreachable'],
  ] as const)('maps %o to ai_provider_failed (%s)', async (answer, kind) => {
    standIn.enqueue(answer);
    const error = await failure(provider.complete({ system: 's', user: 'u' }));
    expect(error.code).toBe('ai_provider_failed');
    expect(error.message).toBe(PROVIDER_FAILURE_MESSAGES[kind]);
    expect(error.message).not.toContain(API_KEY);
    expect(error.message).not.toContain(standIn.url);
  });

  it('a stream cut short is a failure, not a partial answer', async () => {
    standIn.enqueue({
      content: 'a long answer that will be cut',
      chunkSize: 2,
      dropAfterChunks: 3,
    });
    const error = await failure(provider.complete({ system: 's', user: 'u', onDelta: () => {} }));
    expect(error.code).toBe('ai_provider_failed');
  });

  it('gives up after AI_TIMEOUT_MS, streaming or not', async () => {
    const slow = makeProvider(standIn.url, 1_000);
    standIn.enqueue({ content: 'late', delayMs: 5_000 }, { content: 'late', delayMs: 5_000 });
    const started = Date.now();
    const error = await failure(slow.complete({ system: 's', user: 'u' }));
    expect(error.message).toBe(PROVIDER_FAILURE_MESSAGES.timeout);
    const streamed = await failure(slow.complete({ system: 's', user: 'u', onDelta: () => {} }));
    expect(streamed.message).toBe(PROVIDER_FAILURE_MESSAGES.timeout);
    expect(Date.now() - started).toBeLessThan(4_500);
  });

  it('a stream that stalls past AI_TIMEOUT_MS is a timeout, never the text so far', async () => {
    const slow = makeProvider(standIn.url, 1_000);
    standIn.enqueue({ content: 'Basil likes sun and water.', chunkSize: 4, stallAfterChunks: 2 });
    const seen: string[] = [];
    const error = await failure(
      slow.complete({ system: 's', user: 'u', onDelta: (text) => seen.push(text) }),
    );
    expect(seen.at(-1)).toBe('Basil li');
    expect(error.code).toBe('ai_provider_failed');
    expect(error.message).toBe(PROVIDER_FAILURE_MESSAGES.timeout);
    // The provider was told to stop.
    await vi.waitFor(() => expect(standIn.completions[0]!.abandoned).toBe(true));
    expect(logLines.join('\n')).toContain('"kind":"timeout"');
  });

  it('does not retry (each request is one call to the provider)', async () => {
    standIn.enqueue({ status: 500 });
    await failure(provider.complete({ system: 's', user: 'u' }));
    expect(standIn.completions).toHaveLength(1);
  });

  it('never logs the prompt, the answer or the key', async () => {
    standIn.enqueue({ status: 401 }, { status: 500 });
    await failure(provider.complete({ system: 'SECRET-SYSTEM', user: 'SECRET-USER' }));
    await failure(provider.complete({ system: 'SECRET-SYSTEM', user: 'SECRET-USER' }));
    const logs = logLines.join('\n');
    expect(logs).toContain('AI provider request failed');
    expect(logs).not.toContain('SECRET-');
    expect(logs).not.toContain(API_KEY);
  });
});

describe('AiProvider.completeStructured', () => {
  const jsonSchema = z.toJSONSchema(recipeSchema) as Record<string, unknown>;

  it('returns the parsed value of a fitting answer', async () => {
    standIn.enqueue('{"title":"Soup","minutes":20}');
    const answer = await provider.completeStructured({
      system: 's',
      user: 'u',
      name: 'recipe',
      jsonSchema,
      parse: parseRecipe,
    });
    expect(answer.value).toEqual({ title: 'Soup', minutes: 20 });
    expect(answer.repaired).toBe(false);
    expect(standIn.completions).toHaveLength(1);
  });

  it('accepts JSON in a markdown fence (small local models add one)', async () => {
    standIn.enqueue('```json\n{"title":"Soup","minutes":20}\n```');
    const answer = await provider.completeStructured({
      system: 's',
      user: 'u',
      name: 'recipe',
      jsonSchema,
      parse: parseRecipe,
    });
    expect(answer.value.title).toBe('Soup');
  });

  it.each([
    [
      'prose, then a fence',
      'Sure! Here is the recipe:\n```json\n{"title":"Soup","minutes":20}\n```\nEnjoy!',
    ],
    ['a fence without a language', 'Here:\n```\n{"title":"Soup","minutes":20}\n```'],
    ['an object amid prose', 'Here you go: {"title":"Soup {hot}","minutes":20} Hope that helps.'],
    ['braces in the prose before it', 'Use {braces}: {"title":"Soup","minutes":20}.'],
  ])('reads the JSON out of %s, with no repair round', async (_, content) => {
    standIn.enqueue(content);
    const answer = await provider.completeStructured({
      system: 's',
      user: 'u',
      name: 'recipe',
      jsonSchema,
      parse: parseRecipe,
    });
    expect(answer).toMatchObject({
      value: { title: expect.stringMatching(/^Soup/) as string, minutes: 20 },
      repaired: false,
    });
    expect(standIn.completions).toHaveLength(1);
  });

  it('never reads a cut-off object as JSON, nor an object nested in one', () => {
    expect(parseJsonAnswer('Here: {"title":"Soup","minutes":2')).toEqual({
      ok: false,
      problems: ['The answer was not valid JSON.'],
    });
    expect(parseJsonAnswer('Here: {"a": {"title":"Soup","minutes":2}, "b": ')).toMatchObject({
      ok: false,
    });
    expect(parseJsonAnswer('```json\n{"title":"Soup",')).toMatchObject({ ok: false });
    expect(parseJsonAnswer('  ')).toEqual({ ok: false, problems: ['The answer was empty.'] });
    expect(parseJsonAnswer('[1, 2]')).toEqual({ ok: true, value: [1, 2] });
  });

  it('a streamed answer that stalls past AI_TIMEOUT_MS is a timeout, with no repair round', async () => {
    const slow = makeProvider(standIn.url, 1_000);
    // Were there a repair round, the stand-in would answer it with its default, a 500.
    standIn.enqueue({
      content: '{"title":"Soup","minutes":20}',
      chunkSize: 4,
      stallAfterChunks: 3,
    });
    const error = await failure(
      slow.completeStructured({
        system: 's',
        user: 'u',
        name: 'recipe',
        jsonSchema,
        parse: parseRecipe,
        onDelta: () => {},
      }),
    );
    expect(error.code).toBe('ai_provider_failed');
    expect(error.message).toBe(PROVIDER_FAILURE_MESSAGES.timeout);
    expect(standIn.completions).toHaveLength(1);
  });

  it('a repair round that stalls past AI_TIMEOUT_MS is a timeout too', async () => {
    const slow = makeProvider(standIn.url, 1_000);
    standIn.enqueue('{"title":"","minutes":"soon"}', {
      content: '{"title":"Soup","minutes":20}',
      chunkSize: 4,
      stallAfterChunks: 3,
    });
    const error = await failure(
      slow.completeStructured({
        system: 's',
        user: 'u',
        name: 'recipe',
        jsonSchema,
        parse: parseRecipe,
        onDelta: () => {},
      }),
    );
    expect(error.code).toBe('ai_provider_failed');
    expect(error.message).toBe(PROVIDER_FAILURE_MESSAGES.timeout);
    expect(standIn.completions).toHaveLength(2);
  });

  it('sends a misfit back once with its problems, and takes the repaired answer', async () => {
    standIn.enqueue(
      {
        content: '{"title":"","minutes":"soon"}',
        usage: { prompt_tokens: 10, completion_tokens: 5 },
      },
      {
        content: '{"title":"Soup","minutes":20}',
        usage: { prompt_tokens: 30, completion_tokens: 6 },
      },
    );
    const answer = await provider.completeStructured({
      system: 's',
      user: 'u',
      name: 'recipe',
      jsonSchema,
      parse: parseRecipe,
    });
    expect(answer).toEqual({
      value: { title: 'Soup', minutes: 20 },
      usage: { promptTokens: 40, completionTokens: 11 },
      repaired: true,
    });
    const repair = standIn.completions[1]!.body.messages!;
    expect(repair.slice(0, 2)).toEqual(standIn.completions[0]!.body.messages);
    expect(repair[2]).toEqual({ role: 'assistant', content: '{"title":"","minutes":"soon"}' });
    expect(repair[3]!.role).toBe('user');
    expect(repair[3]!.content).toContain('title');
    expect(repair[3]!.content).toContain('minutes');
  });

  it('throws ai_output_invalid after one repair round, with both rounds’ usage for counting', async () => {
    standIn.enqueue('not json at all', '{"title":"Soup"}');
    const error = await failure(
      provider.completeStructured({
        system: 's',
        user: 'u',
        name: 'recipe',
        jsonSchema,
        parse: parseRecipe,
      }),
    );
    expect(error.code).toBe('ai_output_invalid');
    expect(standIn.completions).toHaveLength(2);
    expect(standIn.completions[1]!.body.messages![3]!.content).toContain('not valid JSON');
    expect((error as unknown as { usage: unknown }).usage).toEqual({
      promptTokens: expect.any(Number) as number,
      completionTokens: expect.any(Number) as number,
    });
  });
});

describe('AiProvider, stopped by its caller', () => {
  it('stops the request when the caller aborts, as a product error (nobody is waiting)', async () => {
    const slow = makeProvider(standIn.url, 10_000);
    standIn.enqueue({ content: 'late', delayMs: 8_000 });
    const controller = new AbortController();
    const pending = failure(slow.complete({ system: 's', user: 'u', signal: controller.signal }));
    await standIn.waitForCompletions(1);
    controller.abort();
    const error = await pending;
    expect(error.code).toBe('ai_provider_failed');
    expect(error.message).toBe(PROVIDER_FAILURE_MESSAGES.cancelled);
    // The provider had been asked: the run counts (failedRunCounts).
    expect(error).toMatchObject({ kind: 'cancelled', providerAsked: true });
  });

  it('asks nothing when the caller has gone before the request is sent', async () => {
    const error = await failure(
      provider.complete({ system: 's', user: 'u', signal: AbortSignal.abort() }),
    );
    expect(error).toBeInstanceOf(ProviderFailedError);
    expect(error).toMatchObject({ kind: 'cancelled', providerAsked: false });
    expect(standIn.completions).toHaveLength(0);
  });

  it('stops a streamed answer when the caller aborts mid-stream, and never reads its text so far', async () => {
    standIn.enqueue({
      content: '{"title":"Soup","minutes":20}',
      chunkSize: 4,
      stallAfterChunks: 2,
    });
    const controller = new AbortController();
    const pending = failure(
      provider.completeStructured({
        system: 's',
        user: 'u',
        name: 'recipe',
        jsonSchema: z.toJSONSchema(recipeSchema) as Record<string, unknown>,
        parse: parseRecipe,
        signal: controller.signal,
        onDelta: () => controller.abort(),
      }),
    );
    const error = await pending;
    expect(error).toMatchObject({ kind: 'cancelled', providerAsked: true });
    expect(standIn.completions).toHaveLength(1);
    await vi.waitFor(() => expect(standIn.completions[0]!.abandoned).toBe(true));
  });
});
