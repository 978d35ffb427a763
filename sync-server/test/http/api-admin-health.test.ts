import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverHealthSchema } from '@pipit/protocol';
import { DAY_MS, utcDay } from '../../src/ai/runs';
import { VERSION } from '../../src/version';
import type { ApiClient } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { makeOperator } from '../support/operators';

/**
 * The operator's health view (`GET /api/admin/health`, docs/operations.md#the-operators-view) on
 * both engines: every instance's figures as its heartbeat wrote them (this one's own, and one gone
 * quiet), the database's size and growth, and the scheduled backups' last run and last good one;
 * for anyone but an operator, not found.
 */

describe.each(ENGINES)('the server’s health for operators (%s)', (engine) => {
  let h: AccountsHarness;
  let operator: ApiClient;
  let member: ApiClient;

  beforeAll(async () => {
    h = await startAccountsServer(engine, {
      env: { BACKUP_SCHEDULE: '30 3 * * *', BACKUP_KEEP: '3', INSTANCE_NAME: `health-${engine}` },
    });
    operator = await h.signup(`olga_health_${engine.slice(0, 2)}`);
    await makeOperator(h.pipit.server.storage, `olga_health_${engine.slice(0, 2)}`);
    member = await h.signup(`mia_health_${engine.slice(0, 2)}`);
  });
  afterAll(() => h.close());

  const health = async () => {
    const response = await operator.get('/api/admin/health');
    expect(response.status).toBe(200);
    return serverHealthSchema.parse(response.body);
  };

  it('is not found for anyone but an operator', async () => {
    for (const client of [h.client(), member]) {
      expect((await client.get('/api/admin/health')).status).toBe(404);
    }
  });

  it('shows each instance’s version and the figures of its /metrics, and one gone quiet as down', async () => {
    const { storage } = h.pipit.server;
    // A request or two, then this instance writes its figures (as it does every 15 s).
    await member.get('/api/account');
    await h.pipit.server.heartbeat.beat();
    const now = Date.now();
    await storage.instances.beat(
      {
        name: 'aaa-gone',
        version: '0.0.9',
        startedAt: now - 3 * 60 * 60 * 1000,
        seenAt: now - 5 * 60 * 1000,
        sockets: 12,
        documents: 4,
        rssBytes: 200_000_000,
        heapBytes: 90_000_000,
        windowMs: 15_000,
        requests: 40,
        serverErrors: 2,
      },
      now - DAY_MS,
    );
    const seen = await health();
    expect(seen.engine).toBe(engine);
    expect(seen.instances.map((i) => i.name)).toEqual(['aaa-gone', `health-${engine}`]);
    const [gone, self] = seen.instances;
    expect(gone).toMatchObject({ up: false, version: '0.0.9', serverErrors: 2, requests: 40 });
    expect(self).toMatchObject({ up: true, version: VERSION, sockets: 0, serverErrors: 0 });
    expect(self!.requests).toBeGreaterThan(0);
    expect(self!.rssBytes).toBeGreaterThan(10_000_000);
    expect(self!.startedAt).toBeLessThanOrEqual(self!.seenAt);
  });

  it('shows the database’s size and how much it grew', async () => {
    const { storage } = h.pipit.server;
    const first = await health();
    expect(first.storage.bytes).toBeGreaterThan(0);
    const threeDaysAgo = utcDay(Date.now()) - 3 * DAY_MS;
    await storage.instances.recordSize(threeDaysAgo, 1_000, threeDaysAgo - DAY_MS);
    const later = await health();
    expect(later.storage.growth).toEqual({ days: 3, bytes: later.storage.bytes - 1_000 });
  });

  it('shows the schedule, the last backup run, and the last one that restored', async () => {
    expect((await health()).backups).toEqual({
      schedule: '30 3 * * *',
      keep: 3,
      last: null,
      lastGood: null,
    });
    const { storage } = h.pipit.server;
    const base = { instance: `health-${engine}`, rows: null, bytes: null, drill: null };
    await storage.backupRuns.record({
      ...base,
      id: 'run1',
      startedAt: 1_000,
      finishedAt: 2_000,
      status: 'done',
      file: '/srv/backups/pipit-2026-11-30T03-30-00-000Z.pipit-backup.gz',
      bytes: 5_000,
      rows: 40,
      drill: 'restored',
      message: null,
    });
    await storage.backupRuns.record({
      ...base,
      id: 'run2',
      startedAt: 3_000,
      finishedAt: 3_500,
      status: 'failed',
      file: null,
      message: 'The disk holding /srv/backups is full, so the backup was not made.',
    });
    const { backups } = await health();
    expect(backups.last).toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/full/),
    });
    // The file's name, never where it is on the server.
    expect(backups.lastGood).toMatchObject({
      status: 'done',
      drill: 'restored',
      file: 'pipit-2026-11-30T03-30-00-000Z.pipit-backup.gz',
      bytes: 5_000,
    });
  });
});
