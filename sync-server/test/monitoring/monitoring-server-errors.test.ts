import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '@pipit/protocol';
import type { ErrorEventRecord, Storage } from '../../src/storage/types';
import { ENGINES, openEngine } from '../support/engines';
import { type RunningPipit, startPipit } from '../support/start-server';

async function digestOf(response: Response): Promise<string> {
  const body = apiErrorSchema.parse(await response.json());
  expect(body.error.code).toBe('internal');
  return body.error.digest!;
}

/** The stored report a digest names, once the background recording has landed. */
async function reportOf(storage: Storage, digest: string): Promise<ErrorEventRecord> {
  await expect.poll(() => storage.monitoring.findByDigest(digest)).not.toBeNull();
  return (await storage.monitoring.findByDigest(digest))!;
}

describe.each(ENGINES)('server errors in the inbox on %s', (engine) => {
  let pipit: RunningPipit;
  let storage: Storage;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ storage, cleanup } = await openEngine(engine));
    // No client build here: document requests fail with the error page (and its digest).
    const clientDir = path.join(mkdtempSync(path.join(tmpdir(), 'pipit-no-client-')), 'missing');
    pipit = await startPipit({ storage, clientDir });
  });
  afterAll(async () => {
    await pipit.close();
    await cleanup();
  });

  /** Makes profile lookups fail while `fn` runs. */
  async function whileProfilesFail<T>(fn: () => Promise<T>): Promise<T> {
    const original = storage.users.findByUsername;
    storage.users.findByUsername = () => Promise.reject(new Error('the database is on fire'));
    try {
      return await fn();
    } finally {
      storage.users.findByUsername = original;
    }
  }

  it('finds an API failure by the digest the person saw: stack, request and time', async () => {
    const before = Date.now();
    const response = await whileProfilesFail(() =>
      fetch(`${pipit.url}/api/profiles/ada?token=secret-token`, {
        headers: { Cookie: 'pipit-session=abc.def' },
      }),
    );
    expect(response.status).toBe(500);
    const digest = await digestOf(response);
    const report = await reportOf(storage, digest);
    expect(report).toMatchObject({
      source: 'server',
      type: 'Error',
      message: 'the database is on fire',
      digest,
      route: '/api/profiles/ada',
      level: 'error',
    });
    expect(report.receivedAt).toBeGreaterThanOrEqual(before);
    expect(report.receivedAt).toBeLessThanOrEqual(Date.now());
    const event = JSON.parse(report.eventJson) as Record<string, unknown>;
    expect(event.stack).toContain('Error: the database is on fire');
    expect(event.tags).toEqual({
      digest,
      request_id: response.headers.get('x-request-id'),
      method: 'GET',
    });
    expect(report.eventJson).not.toContain('secret-token');
    expect(report.eventJson).not.toContain('abc.def');
    // The same digest is in the log line of the failure.
    expect(pipit.logs.find((l) => l.digest === digest)).toMatchObject({ level: 'error' });
  });

  it('groups repeated failures of one kind', async () => {
    const digests: string[] = [];
    for (const name of ['grace', 'linus']) {
      const response = await whileProfilesFail(() => fetch(`${pipit.url}/api/profiles/${name}`));
      digests.push(await digestOf(response));
    }
    const [a, b] = await Promise.all(digests.map((d) => reportOf(storage, d)));
    expect(a!.fingerprint).toBe(b!.fingerprint);
    const { groups } = await storage.monitoring.listGroups({ limit: 100, offset: 0 });
    const group = groups.find((g) => g.fingerprint === a!.fingerprint);
    expect(group?.source).toBe('server');
    expect(group?.count).toBeGreaterThanOrEqual(2);
  });

  it('finds the error page’s digest when the client shell cannot be served', async () => {
    const response = await fetch(`${pipit.url}/explore?q=private`, {
      headers: { Accept: 'text/html' },
    });
    expect(response.status).toBe(500);
    const digest = /data-testid="error-digest">([0-9a-f]+)</.exec(await response.text())?.[1];
    expect(digest).toMatch(/^[0-9a-f]{12}$/);
    const report = await reportOf(storage, digest!);
    expect(report).toMatchObject({ source: 'server', route: '/explore' });
    expect(JSON.parse(report.eventJson)).toMatchObject({ tags: { method: 'GET' } });
  });

  it('still answers with the digest when recording the failure fails', async () => {
    const record = storage.monitoring.record;
    storage.monitoring.record = () => Promise.reject(new Error('the inbox is full'));
    try {
      const response = await whileProfilesFail(() => fetch(`${pipit.url}/api/profiles/ada`));
      expect(response.status).toBe(500);
      const digest = await digestOf(response);
      await expect
        .poll(() => pipit.logs.find((l) => l.msg === 'recording a server error failed'))
        .toMatchObject({ level: 'warn', digest });
    } finally {
      storage.monitoring.record = record;
    }
  });
});

describe('a request handler that throws', () => {
  it('is recorded with the digest of its log line', async () => {
    const pipit = await startPipit({
      client: () =>
        Promise.resolve(() => {
          throw new TypeError('the handler exploded');
        }),
    });
    try {
      const response = await fetch(`${pipit.url}/somewhere?secret=1`);
      expect(response.status).toBe(500);
      const logged = pipit.logs.find((l) => l.msg === 'request handler threw');
      expect(logged?.digest).toMatch(/^[0-9a-f]{12}$/);
      const report = await reportOf(pipit.server.storage, logged!.digest!);
      expect(report).toMatchObject({
        type: 'TypeError',
        message: 'the handler exploded',
        route: '/somewhere',
      });
    } finally {
      await pipit.close();
    }
  });
});
