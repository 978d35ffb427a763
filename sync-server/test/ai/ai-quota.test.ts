import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AiAction, AppDefinition } from '@pipit/app-definition';
import { createId } from '@pipit/protocol';
import { type AiStandIn, errorCode, startAiStandIn } from '../support';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { publishDefinition, definitionOf, verifyEmail } from '../support/publishing';

const hello: AiAction = {
  id: createId(),
  name: 'Hello',
  prompt: 'Say hello to {{user.name}}.',
  output: { kind: 'text' },
  target: { kind: 'component' },
};

function app(): AppDefinition {
  return { ...definitionOf({ title: 'Hello app' }), aiActions: [hello] };
}

describe.each(ENGINES)('AI quota per person per UTC day (%s)', (engine) => {
  let h: AccountsHarness;
  let standIn: AiStandIn;
  let appId: string;

  beforeAll(async () => {
    standIn = await startAiStandIn();
    standIn.setDefault('Hello!');
    h = await startAccountsServer(engine, { env: standIn.env({ AI_DAILY_RUNS: '3' }) });
    const owner = await h.signup(`owner_q_${engine}`);
    await verifyEmail(h, owner);
    appId = await publishDefinition(h, owner, app());
  });
  afterAll(async () => {
    await h.close();
    await standIn.close();
  });

  const run = (client: Awaited<ReturnType<AccountsHarness['signup']>>) =>
    client.post<{ remaining?: number }>('/api/ai/runs', {
      appId,
      aiActionId: hello.id,
      bindings: { 'user.name': 'Vic' },
    });

  it('counts down, then refuses with ai_quota_exceeded until midnight UTC', async () => {
    const vic = await h.signup(`vic_q_${engine}`);
    expect((await run(vic)).body.remaining).toBe(2);
    expect((await run(vic)).body.remaining).toBe(1);
    expect((await run(vic)).body.remaining).toBe(0);
    const asked = standIn.completions.length;
    const refused = await run(vic);
    expect(refused.status).toBe(429);
    expect(errorCode(refused)).toBe('ai_quota_exceeded');
    expect(JSON.stringify(refused.body)).toContain('You have used all 3 AI runs for today');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(24 * 60 * 60);
    expect(standIn.completions.length).toBe(asked);
    expect((await vic.get('/api/ai/status')).body).toMatchObject({ remaining: 0, dailyRuns: 3 });
    // Another person has their own quota.
    const bob = await h.signup(`bob_q_${engine}`);
    expect((await run(bob)).status).toBe(200);
  });

  it('lets exactly the quota through when runs race for the last ones', async () => {
    const cyd = await h.signup(`cyd_q_${engine}`);
    const answers = await Promise.all(Array.from({ length: 6 }, () => run(cyd)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => errorCode(a) === 'ai_quota_exceeded')).toHaveLength(3);
    expect(
      answers
        .map((a) => a.body.remaining)
        .filter((r) => r !== undefined)
        .sort(),
    ).toEqual([0, 1, 2]);
  });

  it('gives a failed run back, so it does not count against the quota', async () => {
    const dee = await h.signup(`dee_q_${engine}`);
    standIn.enqueue({ status: 503 }, { status: 500 });
    expect((await run(dee)).status).toBe(502);
    expect((await run(dee)).status).toBe(502);
    expect((await dee.get('/api/ai/status')).body).toMatchObject({ remaining: 3 });
  });

  it('deletes a person’s usage with their account', async () => {
    const eve = await h.signup(`eve_q_${engine}`);
    expect((await run(eve)).status).toBe(200);
    const me = await eve.get<{ account: { id: string } }>('/api/auth/session');
    const storage = h.pipit.server.storage;
    const today = Math.floor(Date.now() / 86_400_000) * 86_400_000;
    expect(await storage.aiUsage.runsUsed(me.body.account.id, today)).toBe(1);
    const deleted = await eve.request('DELETE', '/api/account', {
      body: { password: 'correct horse battery staple' },
    });
    expect(deleted.status).toBeLessThan(300);
    expect(await storage.aiUsage.runsUsed(me.body.account.id, today)).toBe(0);
    const rows = await storage.aiUsage.dailyUsage(0);
    expect(rows.find((r) => r.appId === appId)?.people).toBe(3);
  });
});
