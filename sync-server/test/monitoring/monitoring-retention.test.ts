import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Clock } from '../../src/accounts/clock';
import { createLogger } from '../../src/logger';
import { RETENTION_INTERVAL_MS, startRetention } from '../../src/monitoring/retention';
import type { ErrorEventRecord, MonitoringStore } from '../../src/storage/types';
import { ENGINES, openEngine } from '../support/engines';
import { startPipit } from '../support/start-server';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A fixed "now" the server's clock reports, so ages are exact. */
const NOW = Date.UTC(2030, 0, 31);
const fixedClock: Clock = { now: () => NOW };

function occurrence(fingerprint: string, receivedAt: number): ErrorEventRecord {
  return {
    id: randomBytes(16).toString('hex'),
    fingerprint,
    source: 'client',
    type: 'TypeError',
    message: fingerprint,
    topFrame: null,
    receivedAt,
    digest: null,
    route: null,
    url: null,
    browser: null,
    release: null,
    environment: null,
    level: 'error',
    eventJson: '{}',
  };
}

describe('the retention schedule', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('prunes once at start, then every hour, up to the retention, until stopped', async () => {
    vi.useFakeTimers();
    const cutoffs: number[] = [];
    const store = {
      prune: (olderThan: number) => {
        cutoffs.push(olderThan);
        return Promise.resolve({ events: 0, groups: 0 });
      },
    } as MonitoringStore;
    let now = NOW;
    const retention = startRetention({
      store,
      retentionDays: 30,
      clock: { now: () => now },
      logger: createLogger('silent'),
    });
    expect(cutoffs).toEqual([NOW - 30 * DAY_MS]);
    now += RETENTION_INTERVAL_MS;
    await vi.advanceTimersByTimeAsync(RETENTION_INTERVAL_MS - 1);
    expect(cutoffs).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(cutoffs).toEqual([NOW - 30 * DAY_MS, NOW + RETENTION_INTERVAL_MS - 30 * DAY_MS]);
    await retention.stop();
    await vi.advanceTimersByTimeAsync(5 * RETENTION_INTERVAL_MS);
    expect(cutoffs).toHaveLength(2);
  });

  it('keeps going after a failed prune', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const store = {
      prune: () => {
        calls += 1;
        return calls === 1
          ? Promise.reject(new Error('database away'))
          : Promise.resolve({ events: 1, groups: 1 });
      },
    } as unknown as MonitoringStore;
    const retention = startRetention({
      store,
      retentionDays: 1,
      clock: fixedClock,
      logger: createLogger('silent'),
    });
    await vi.advanceTimersByTimeAsync(RETENTION_INTERVAL_MS);
    expect(calls).toBe(2);
    await retention.stop();
  });
});

describe.each(ENGINES)('retention on a running server on %s', (engine) => {
  it('prunes reports older than MONITORING_RETENTION_DAYS at start-up, and empty groups', async () => {
    const { storage, cleanup } = await openEngine(engine);
    await storage.monitoring.record(occurrence('old', NOW - 8 * DAY_MS));
    await storage.monitoring.record(occurrence('mixed', NOW - 9 * DAY_MS));
    await storage.monitoring.record(occurrence('mixed', NOW - 6 * DAY_MS));
    await storage.monitoring.record(occurrence('recent', NOW - DAY_MS));
    const pipit = await startPipit({
      storage,
      clock: fixedClock,
      env: { MONITORING_RETENTION_DAYS: '7' },
    });
    try {
      await expect
        .poll(async () => {
          const { groups } = await storage.monitoring.listGroups({ limit: 10, offset: 0 });
          return groups.map((g) => g.fingerprint).sort();
        })
        .toEqual(['mixed', 'recent']);
      expect((await storage.monitoring.sampleEvent('mixed'))?.receivedAt).toBe(NOW - 6 * DAY_MS);
      expect(pipit.logs.find((l) => l.msg === 'pruned old error reports')).toMatchObject({
        events: 2,
        groups: 1,
        retentionDays: 7,
      });
    } finally {
      await pipit.close();
      await cleanup();
    }
  });
});
