import { afterEach, expect, it, vi } from 'vitest';
import { storedBytes } from '../../src/monitoring/ingest';
import { clientEventRecord } from '../../src/monitoring/client-event';
import { serverErrorRecord } from '../../src/monitoring/server-error';
import { errorEvent, eventEnvelope } from '../support/collector';
import { openEngine } from '../support/engines';
import { type RunningPipit, startPipit } from '../support/start-server';

const DSN = 'http://5f3c9a@errors.example.org/42';
const TUNNEL = '/monitoring?o=acme&p=42';

const letters = (n: number): string =>
  n < 26 ? String.fromCharCode(97 + n) : letters(Math.floor(n / 26) - 1) + letters(n % 26);

let pipit: RunningPipit | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await pipit?.close();
  await cleanup?.();
  pipit = undefined;
});

/**
 * The caps on stored groups (least recently seen go first) hold for browsers' reports and for the
 * server's own errors apart: one address's reports, however many kinds, never push the server's
 * failures out of the operator's inbox. (A cap of 20 here stands for the default 1,000.)
 */
it('keeps the server’s own errors however many kinds of browser report one address sends', async () => {
  const engine = await openEngine('sqlite');
  cleanup = engine.cleanup;
  pipit = await startPipit({
    storage: engine.storage,
    env: { MONITORING_DSN: DSN, MONITORING_ORG: 'acme', MONITORING_MAX_GROUPS: '20' },
    rateLimits: { monitoringPerIp: { limit: 100_000, windowMs: 60_000 } },
  });
  // What an attack would want gone: the server's own 500 (as reportServerError stores it).
  const serverError = serverErrorRecord(
    {
      error: new Error('exploit attempt hit a bug'),
      digest: 'd1g3st',
      method: 'POST',
      path: '/api/x',
    },
    Date.now(),
  );
  expect(await engine.storage.monitoring.record(serverError)).toBe(true);

  let spent = 0;
  for (let i = 0; i < 30; i++) {
    // Distinct types (the type is not normalised; digits in a message would be).
    const event = errorEvent({ type: `E${letters(i)}`, message: 'x' });
    spent += storedBytes(clientEventRecord(event, Date.now()));
    const response = await fetch(`${pipit.url}${TUNNEL}`, {
      method: 'POST',
      headers: { Origin: pipit.url, 'Content-Type': 'text/plain;charset=UTF-8' },
      body: eventEnvelope(DSN, event),
    });
    expect(response.status).toBe(200);
  }
  const groups = async () =>
    (await engine.storage.monitoring.listGroups({ limit: 2_000, offset: 0 })).groups;
  // The browsers' kinds are held to their cap, oldest out first…
  await vi.waitFor(async () =>
    expect((await groups()).filter((g) => g.source === 'client')).toHaveLength(20),
  );
  // …and the server's failure is still there, within its own.
  expect((await groups()).filter((g) => g.source === 'server')).toHaveLength(1);
  expect(spent).toBeLessThan(2 * 1024 * 1024);
});
