import { afterAll, describe, expect, it } from 'vitest';
import { healthResponseSchema } from '@pipit/protocol';
import { openPostgresStorage } from '../../src/storage/postgres';
import { VERSION } from '../../src/version';
import { createTestDatabase } from '../support/postgres';
import { startPipit } from '../support/start-server';

describe('GET /api/health', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('answers ok on SQLite with the product version', async () => {
    const pipit = await startPipit();
    cleanups.push(() => pipit.close());
    const response = await fetch(`${pipit.url}/api/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = healthResponseSchema.parse(await response.json());
    expect(body).toEqual({ status: 'ok', storage: 'sqlite', version: VERSION });
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('says postgres when the server runs on PostgreSQL', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const pipit = await startPipit({ storage: await openPostgresStorage(database.url) });
    cleanups.push(() => pipit.close());
    const body = (await (await fetch(`${pipit.url}/api/health`)).json()) as { storage: string };
    expect(body.storage).toBe('postgres');
  });

  it('picks PostgreSQL from DATABASE_URL', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const pipit = await startPipit({ env: { DATABASE_URL: database.url } });
    cleanups.push(() => pipit.close());
    expect(pipit.server.storage.engine).toBe('postgres');
  });
});
