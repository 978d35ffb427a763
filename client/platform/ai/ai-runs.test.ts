import { fakeBrowser } from '../../sync/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AI_ERROR_MESSAGES, createRunAi } from './ai-runs';

/*
 * The installed app's RunAi: online it posts exactly the app, the action and the bindings (never a
 * prompt) and returns the typed output; offline, or with the server out of reach, the run goes to
 * the device's queue; a refused run rejects with the words /docs/ai-actions uses.
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
    [422, 'ai_output_invalid', 'Bad.', AI_ERROR_MESSAGES.outputInvalid],
    [502, 'ai_provider_failed', 'Down.', AI_ERROR_MESSAGES.providerFailed],
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
