import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HUMAN_CHECK_HEADER,
  HUMAN_CHECK_METHOD_HEADER,
  HUMAN_CHECK_PATH_HEADER,
  PROTECTED_ENDPOINTS,
} from '@pipit/protocol';
import { errorCode, solveHumanCheck } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { sleep } from '../support/timing';

const body = { email: 'someone@example.org' };

describe.each(ENGINES)('the human check on %s', (engine) => {
  let h: AccountsHarness;
  beforeAll(async () => {
    h = await startAccountsServer(engine, { humanCheckTtlMs: 1_500 });
  });
  afterAll(() => h.close());

  const post = (path: string, headers: Record<string, string>) =>
    h.client().request('POST', path, { body, headers });

  it('issues challenges only for the protected requests', async () => {
    for (const { method, path } of PROTECTED_ENDPOINTS) {
      const response = await fetch(
        `${h.pipit.url}/api/human-check/challenge?path=${path}&method=${method}`,
      );
      expect(response.status, path).toBe(200);
      const challenge = (await response.json()) as {
        parameters: { data: object; algorithm: string };
      };
      expect(challenge.parameters.data).toEqual({ path, method });
      expect(challenge.parameters.algorithm).toBe('SHA-256');
    }
    const other = await fetch(
      `${h.pipit.url}/api/human-check/challenge?path=/api/account&method=GET`,
    );
    expect(other.status).toBe(400);
  });

  it('lets a solved challenge through once; a replay is refused', async () => {
    const headers = await solveHumanCheck(h.pipit.url, '/api/auth/forgot-password', 'POST');
    expect((await post('/api/auth/forgot-password', headers)).status).toBe(202);
    const replay = await post('/api/auth/forgot-password', headers);
    expect(replay.status).toBe(403);
    expect(errorCode(replay)).toBe('human_check_failed');
  });

  it('refuses a solution made for another path or method, whatever the headers claim', async () => {
    const forLogin = await solveHumanCheck(h.pipit.url, '/api/auth/login', 'POST');
    expect(errorCode(await post('/api/auth/forgot-password', forLogin))).toBe('human_check_failed');
    const relabelled = {
      ...forLogin,
      [HUMAN_CHECK_PATH_HEADER]: '/api/auth/forgot-password',
      [HUMAN_CHECK_METHOD_HEADER]: 'POST',
    };
    expect(errorCode(await post('/api/auth/forgot-password', relabelled))).toBe(
      'human_check_failed',
    );
  });

  it('refuses a tampered solution, a tampered challenge, garbage, and a missing check', async () => {
    const headers = await solveHumanCheck(h.pipit.url, '/api/auth/forgot-password', 'POST');
    const payload = JSON.parse(Buffer.from(headers[HUMAN_CHECK_HEADER]!, 'base64').toString()) as {
      challenge: { parameters: { cost: number } };
      solution: { counter: number; derivedKey: string };
    };
    const wrongCounter = {
      ...payload,
      solution: { ...payload.solution, derivedKey: '00'.repeat(32) },
    };
    const cheaper = {
      ...payload,
      challenge: { ...payload.challenge, parameters: { ...payload.challenge.parameters, cost: 0 } },
    };
    for (const forged of [wrongCounter, cheaper]) {
      const response = await post('/api/auth/forgot-password', {
        ...headers,
        [HUMAN_CHECK_HEADER]: Buffer.from(JSON.stringify(forged)).toString('base64'),
      });
      expect(errorCode(response)).toBe('human_check_failed');
    }
    expect(
      errorCode(
        await post('/api/auth/forgot-password', {
          ...headers,
          [HUMAN_CHECK_HEADER]: 'bm90IGpzb24=',
        }),
      ),
    ).toBe('human_check_failed');
    expect(errorCode(await post('/api/auth/forgot-password', {}))).toBe('human_check_failed');
    // The untouched original still works once: the refusals above did not use it up.
    expect((await post('/api/auth/forgot-password', headers)).status).toBe(202);
  });

  it('refuses a solution whose challenge has expired', async () => {
    const headers = await solveHumanCheck(h.pipit.url, '/api/auth/forgot-password', 'POST');
    // Deliberate time passing: the challenge must outlive its lifetime (a fixed wait, not a poll).
    await sleep(2_600);
    const response = await post('/api/auth/forgot-password', headers);
    expect(errorCode(response)).toBe('human_check_failed');
    expect((response.body as { error: { message: string } }).error.message).toMatch(/expired/);
  });
});
