import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createId } from '@pipit/protocol';
import { ApiClient } from '../support/api-client';
import { type LogLine, type RunningPipit, startPipit } from '../support/start-server';

const GENERATED_ID = /^[0-9a-f]{16}$/;

/** The log lines written from `from` on (the index of the first line not seen yet). */
const since = (pipit: RunningPipit, from: number): LogLine[] => pipit.logs.slice(from);

describe('request ids', () => {
  let pipit: RunningPipit;
  /** Its client was never built, so pages fail (and log) while their request is served. */
  let unbuilt: RunningPipit;

  beforeAll(async () => {
    pipit = await startPipit({ env: { HUMAN_CHECK_DIFFICULTY: '500' } });
    unbuilt = await startPipit({ clientDir: path.join(pipit.dataDir, 'never-built') });
  });
  afterAll(async () => {
    await pipit.close();
    await unbuilt.close();
  });

  it('gives every response an id, and keeps a well-formed one that a proxy set', async () => {
    const ids = new Set<string>();
    for (const url of [
      '/api/health',
      '/',
      '/no/such/file.txt',
      `/apps/${createId()}/icons/1.png`,
    ]) {
      const response = await fetch(`${pipit.url}${url}`);
      await response.arrayBuffer();
      const id = response.headers.get('x-request-id');
      expect(id, url).toMatch(GENERATED_ID);
      ids.add(id!);
    }
    expect(ids.size).toBe(4);

    const kept = await fetch(`${pipit.url}/api/health`, {
      headers: { 'X-Request-Id': 'proxy-7f3a9c21.edge:1' },
    });
    expect(kept.headers.get('x-request-id')).toBe('proxy-7f3a9c21.edge:1');
    for (const given of ['short', 'has spaces in it', 'x'.repeat(65), 'quote"and{brace}']) {
      const replaced = await fetch(`${pipit.url}/api/health`, {
        headers: { 'X-Request-Id': given },
      });
      expect(replaced.headers.get('x-request-id'), given).toMatch(GENERATED_ID);
    }
  });

  it('writes the id on every line an API request logs, also from code that has no request logger', async () => {
    const from = pipit.logs.length;
    const client = new ApiClient(pipit.url);
    const signup = await client.request('POST', '/api/auth/signup', {
      body: {
        username: 'ids_ada',
        email: 'ids_ada@example.org',
        password: 'correct horse battery',
      },
      humanCheck: true,
    });
    expect(signup.status).toBe(201);
    const id = signup.headers.get('x-request-id');
    expect(id).toMatch(GENERATED_ID);
    // The verification email goes out in the background; its line still belongs to the sign-up.
    await vi.waitFor(() =>
      expect(since(pipit, from).some((line) => /outbox/.test(line.msg))).toBe(true),
    );
    const lines = since(pipit, from);
    const mail = lines.find((line) => /outbox/.test(line.msg));
    expect(mail?.requestId).toBe(id);
    // The human-check challenge was a request of its own; nothing of either one carries no id.
    for (const line of lines) expect(line.requestId, line.msg).toMatch(GENERATED_ID);
  });

  it('keeps the ids of requests served at the same time apart', async () => {
    const failing = await startPipit();
    try {
      await failing.server.storage.close();
      const given = Array.from({ length: 6 }, (_, i) => `parallel-request-${i}`);
      const responses = await Promise.all(
        given.map((id) => fetch(`${failing.url}/api/ready`, { headers: { 'X-Request-Id': id } })),
      );
      expect(responses.map((r) => r.status)).toEqual(given.map(() => 503));
      const logged = failing.logs
        .filter((line) => line.msg === 'not ready for traffic')
        .map((line) => line.requestId);
      expect([...logged].sort()).toEqual([...given].sort());
    } finally {
      await failing.close();
    }
  });

  it('writes the id on the lines of a page the client files could not serve', async () => {
    const startup = unbuilt.logs.find((line) => /not built/.test(line.msg));
    expect(startup).toBeDefined();
    expect(startup?.requestId).toBeUndefined();

    const from = unbuilt.logs.length;
    const response = await fetch(`${unbuilt.url}/about`, { headers: { Accept: 'text/html' } });
    expect(response.status).toBe(500);
    const page = await response.text();
    const id = response.headers.get('x-request-id');
    const lines = since(unbuilt, from);
    const failure = lines.find((line) => /cannot serve the client shell/.test(line.msg));
    expect(failure?.requestId).toBe(id);
    expect(page).toContain(failure?.digest);
    for (const line of lines) expect(line.requestId, line.msg).toBe(id);
  });

  it("writes the id on the lines of an app's manifest request that failed", async () => {
    const broken = await startPipit();
    try {
      await broken.server.storage.close();
      const from = broken.logs.length;
      const response = await fetch(`${broken.url}/apps/${createId()}/manifest.webmanifest`);
      expect(response.status).toBe(500);
      await response.text();
      const id = response.headers.get('x-request-id');
      // The server's own background work (its start-up sweeps, which find storage closed too)
      // names its task: it is no request's.
      const lines = since(broken, from).filter((line) => line.task === undefined);
      expect(lines.map((line) => line.msg)).toContain('app manifest or icon failed');
      for (const line of lines) expect(line.requestId, line.msg).toBe(id);
    } finally {
      await broken.close();
    }
  });

  it('writes the id on the lines of a websocket upgrade it refused', async () => {
    const from = pipit.logs.length;
    const status = await new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(`${pipit.url.replace(/^http/, 'ws')}/api/sync`, {
        headers: { Origin: 'https://elsewhere.example', 'X-Request-Id': 'upgrade-from-proxy-1' },
      });
      socket.on('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        socket.terminate();
      });
      socket.on('open', () => reject(new Error('a foreign origin was let in')));
      socket.on('error', () => undefined);
    });
    expect(status).toBe(403);
    const refused = since(pipit, from).find((line) => /foreign origin/.test(line.msg));
    expect(refused?.requestId).toBe('upgrade-from-proxy-1');
  });
});
