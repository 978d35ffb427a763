import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { healthResponseSchema, notReadyResponseSchema, readyResponseSchema } from '@pipit/protocol';
import { READY_STORAGE_TIMEOUT_MS } from '../../src/http/health';
import { MIGRATION_NAMES } from '../../src/storage/migrations';
import { openPostgresStorage } from '../../src/storage/postgres';
import { openSqliteStorage, SQLITE_FILE_NAME } from '../../src/storage/sqlite';
import type { Storage } from '../../src/storage/types';
import { ENGINES, type Engine } from '../support/engines';
import { createTestDatabase } from '../support/postgres';
import { type RunningPipit, startPipit } from '../support/start-server';

interface Opened {
  storage: Storage;
  /** Runs SQL on the same database behind the storage's back. */
  sql(text: string, params: unknown[]): Promise<void>;
  cleanup(): Promise<void>;
}

async function openDatabase(engine: Engine): Promise<Opened> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'pipit-ready-'));
    return {
      storage: await openSqliteStorage(dir),
      async sql(text, params) {
        const db = new SQLite(path.join(dir, SQLITE_FILE_NAME));
        try {
          db.prepare(text).run(...params);
        } finally {
          db.close();
        }
      },
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const database = await createTestDatabase();
  return {
    storage: await openPostgresStorage(database.url),
    async sql(text, params) {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        let n = 0;
        await client.query(
          text.replace(/\?/g, () => `$${++n}`),
          params,
        );
      } finally {
        await client.end();
      }
    },
    cleanup: () => database.drop(),
  };
}

const get = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, body: await response.json() };
};

/** Resolves when a new TCP connection to the port is refused (nothing listens any more). */
const connectionRefused = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });

describe.each(ENGINES)('GET /api/ready on %s', (engine) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(wrap: (storage: Storage) => Storage = (s) => s) {
    const opened = await openDatabase(engine);
    cleanups.push(opened.cleanup);
    const pipit: RunningPipit = await startPipit({ storage: wrap(opened.storage) });
    cleanups.push(() => pipit.close());
    return { ...opened, pipit };
  }

  it('is ready once storage answers and every migration is applied', async () => {
    const { pipit } = await start();
    const ready = await get(`${pipit.url}/api/ready`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(readyResponseSchema.parse(ready.body)).toEqual({
      status: 'ready',
      storage: engine,
      migrations: MIGRATION_NAMES.length,
    });
    expect(MIGRATION_NAMES.length).toBeGreaterThan(0);
  });

  it('is not ready while a migration this version knows is missing, and stays alive', async () => {
    const { pipit, sql } = await start();
    await sql('DELETE FROM kysely_migration WHERE name = ?', [MIGRATION_NAMES.at(-1)]);
    const ready = await get(`${pipit.url}/api/ready`);
    expect(ready.status).toBe(503);
    expect(notReadyResponseSchema.strict().parse(ready.body)).toEqual({
      status: 'not_ready',
      reason: 'migrations_pending',
    });
    const health = await get(`${pipit.url}/api/health`);
    expect(health.status).toBe(200);
    expect(healthResponseSchema.parse(health.body).status).toBe('ok');
  });

  it('is not ready when storage is unreachable, says only why, and logs the error', async () => {
    const { pipit } = await start();
    await pipit.server.storage.close();
    const ready = await get(`${pipit.url}/api/ready`);
    expect(ready.status).toBe(503);
    // No stack, no message from the database: the reason and nothing else.
    expect(notReadyResponseSchema.strict().parse(ready.body)).toEqual({
      status: 'not_ready',
      reason: 'storage_unreachable',
    });
    const logged = pipit.logs.find((line) => line.msg === 'not ready for traffic');
    expect(logged).toMatchObject({ level: 'warn', reason: 'storage_unreachable' });
    expect(logged?.err?.message).toBeTruthy();
    expect((await get(`${pipit.url}/api/health`)).status).toBe(200);
  });

  it('is not ready while the human check cannot read its secrets, and ready again once it can', async () => {
    // A blip: the first reads of the human check's secrets fail, the database answers the rest.
    let failing = true;
    const { pipit } = await start((real) => ({
      ...real,
      secrets: {
        getOrCreate: (name, make) =>
          failing
            ? Promise.reject(new Error('connection reset'))
            : real.secrets.getOrCreate(name, make),
      },
    }));
    const challenge = () =>
      fetch(`${pipit.url}/api/human-check/challenge?path=/api/auth/login&method=POST`);
    expect((await challenge()).status).toBe(500);
    const during = await get(`${pipit.url}/api/ready`);
    expect(during.status).toBe(503);
    expect(notReadyResponseSchema.strict().parse(during.body)).toEqual({
      status: 'not_ready',
      reason: 'part_unavailable',
    });
    expect(pipit.logs.findLast((line) => line.msg === 'not ready for traffic')).toMatchObject({
      reason: 'part_unavailable',
      part: 'human check',
    });
    failing = false;
    // The failed read was not kept: the next request reads again.
    expect((await challenge()).status).toBe(200);
    expect((await get(`${pipit.url}/api/ready`)).status).toBe(200);
  });

  it('answers 503 to a check that was under way when the shutdown began, and takes no new connection', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let pinged!: () => void;
    const pingStarted = new Promise<void>((resolve) => (pinged = resolve));
    const { pipit, storage } = await start((real) => ({
      ...real,
      async ping() {
        pinged();
        await gate;
        return real.ping();
      },
    }));

    const answer = get(`${pipit.url}/api/ready`);
    await pingStarted;
    const closed = pipit.server.close();
    expect(await connectionRefused(pipit.port)).toBe('ECONNREFUSED');
    release();
    const ready = await answer;
    const answeredAt = Date.now();
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'not_ready', reason: 'shutting_down' });
    expect((await closed).unsaved).toEqual([]);
    // The answered connection is closed at once, not after the client's keep-alive (seconds).
    expect(Date.now() - answeredAt).toBeLessThan(1_500);
    // The shutdown closed storage.
    await expect(storage.ping()).rejects.toThrow();
  });
});

describe('GET /api/ready with a database that does not answer', () => {
  let pipit: RunningPipit | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await pipit?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(`is not ready after ${READY_STORAGE_TIMEOUT_MS} ms`, async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pipit-ready-'));
    const storage = await openSqliteStorage(dir);
    pipit = await startPipit({
      dataDir: dir,
      storage: { ...storage, ping: () => new Promise<void>(() => undefined) },
    });
    const started = Date.now();
    const ready = await get(`${pipit.url}/api/ready`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(READY_STORAGE_TIMEOUT_MS - 50);
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'not_ready', reason: 'storage_timeout' });
  });
});
