import { fakeBrowser } from '../../test-support/fake-browser';
import { AI_OUTPUT_INVALID_MESSAGE, AI_PROVIDER_FAILURE_MESSAGES } from '@pipit/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aiRunsOf, queueAiRun, runQueuedAiRuns } from '../../sync/app-document/ai-queue';
import { localDb } from '../../sync/core/local-db';
import { AI_ERROR_MESSAGES, createRunAi, sendQueuedAiRun } from './ai-runs';

/*
 * The installed app's RunAi: online it posts exactly the app, the action and the bindings (never a
 * prompt) and returns the typed output; offline, or with the server out of reach, the run goes to
 * the device's queue; a refused run rejects with the server's words, or else the ones
 * /docs/ai-actions uses.
 */

let browser: ReturnType<typeof fakeBrowser>;
const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  browser = fakeBrowser({ online: true });
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockReset();
});
afterEach(() => vi.unstubAllGlobals());

const ask = { aiActionId: 'make-list', bindings: { 'record.title': 'Dal' }, recordId: 'r1' };
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const refusal = (status: number, code: string, message: string) =>
  json(status, { error: { code, message } });

function setup() {
  const queue = vi.fn(async () => ({ id: 'queued-1' }));
  return { queue, runAi: createRunAi({ appId: 'app-1', queue }) };
}

describe('createRunAi', () => {
  it('posts only the app, the action and the bindings, and returns the typed output', async () => {
    fetchMock.mockResolvedValue(
      json(200, { output: { kind: 'record', values: { name: 'List' } }, remaining: 49 }),
    );
    const { runAi, queue } = setup();
    expect(await runAi(ask)).toEqual({
      status: 'done',
      output: { kind: 'record', values: { name: 'List' } },
    });
    const [path, init] = fetchMock.mock.calls[0]!;
    expect(path).toBe('/api/ai/runs');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({
      appId: 'app-1',
      aiActionId: 'make-list',
      source: 'published',
      bindings: { 'record.title': 'Dal' },
    });
    expect(queue).not.toHaveBeenCalled();
  });

  it('queues the run offline, and when the server cannot be reached', async () => {
    const { runAi, queue } = setup();
    browser.navigator.onLine = false;
    expect(await runAi(ask)).toEqual({ status: 'queued', runId: 'queued-1' });
    expect(fetchMock).not.toHaveBeenCalled();
    browser.navigator.onLine = true;
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    expect(await runAi(ask)).toEqual({ status: 'queued', runId: 'queued-1' });
    expect(queue).toHaveBeenCalledTimes(2);
    expect(queue).toHaveBeenCalledWith(ask);
  });

  it('without a queue (a preview), offline says AI needs a connection', async () => {
    browser.navigator.onLine = false;
    await expect(createRunAi({ appId: 'app-1', queue: null })(ask)).rejects.toThrow(
      AI_ERROR_MESSAGES.offline,
    );
  });

  it.each([
    // The server's own words, which say what failed and what to do.
    [422, 'ai_output_invalid', AI_OUTPUT_INVALID_MESSAGE, AI_OUTPUT_INVALID_MESSAGE],
    [
      502,
      'ai_provider_failed',
      AI_PROVIDER_FAILURE_MESSAGES.settings,
      AI_PROVIDER_FAILURE_MESSAGES.settings,
    ],
    // Without words, the client's own.
    [422, 'ai_output_invalid', '', AI_ERROR_MESSAGES.outputInvalid],
    [502, 'ai_provider_failed', '', AI_ERROR_MESSAGES.providerFailed],
    [503, 'ai_not_configured', 'None.', 'AI is not configured on this server'],
    [401, 'unauthenticated', 'Sign in first.', AI_ERROR_MESSAGES.signIn],
    [
      429,
      'ai_quota_exceeded',
      'You have used all 50 AI runs for today.',
      'You have used all 50 AI runs for today.',
    ],
  ])('a %i %s is refused with the product’s words', async (status, code, message, shown) => {
    fetchMock.mockResolvedValue(refusal(status, code, message));
    const { runAi, queue } = setup();
    await expect(runAi(ask)).rejects.toThrow(shown);
    expect(queue).not.toHaveBeenCalled();
  });
});

describe('sendQueuedAiRun', () => {
  const ADA = 'account-ada';
  /** Two of Ada's runs on the device, and the queue run once with the server's answer. */
  async function runQueue(answer: () => Response) {
    await localDb().aiRuns.clear();
    for (const title of ['One', 'Two']) {
      await queueAiRun({
        owner: ADA,
        appId: 'app-1',
        aiActionId: 'make-list',
        bindings: { 'record.title': title },
        recordId: null,
      });
    }
    fetchMock.mockImplementation(async () => answer());
    await runQueuedAiRuns({
      owner: ADA,
      appId: 'app-1',
      send: (run) => sendQueuedAiRun('app-1', run),
      land: () => ({ ok: true, text: 'Landed' }),
    });
    return (await aiRunsOf(ADA, 'app-1')).map((r) => [r.state, r.problem]);
  }

  it.each([
    [401, 'unauthenticated', 'Your session has ended. Sign in again.'],
    [429, 'rate_limited', 'Too many requests. Wait a minute.'],
  ])('leaves the runs queued for later on a %i %s', async (status, code, message) => {
    // Not a failure of the run: signing in again, or a minute later, runs it.
    expect(await runQueue(() => refusal(status, code, message))).toEqual([
      ['queued', null],
      ['queued', null],
    ]);
    // The pass stops at the first; the rest waits with it.
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('fails a run the provider failed, with the server’s words', async () => {
    const words = AI_PROVIDER_FAILURE_MESSAGES.timeout;
    expect(await runQueue(() => refusal(502, 'ai_provider_failed', words))).toEqual([
      ['failed', words],
      ['failed', words],
    ]);
  });
});
