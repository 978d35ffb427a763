import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '@pipit/protocol';
import type { Storage } from '../../src/storage/types';
import { type RunningPipit, startPipit } from '../support/start-server';

async function errorOf(response: Response) {
  return apiErrorSchema.parse(await response.json()).error;
}

describe('API error handling', () => {
  let pipit: RunningPipit;
  beforeAll(async () => {
    pipit = await startPipit();
  });
  afterAll(() => pipit.close());

  it('answers an unknown endpoint with not_found as JSON', async () => {
    const response = await fetch(`${pipit.url}/api/nothing-here`);
    expect(response.status).toBe(404);
    expect(await errorOf(response)).toMatchObject({ code: 'not_found' });
  });

  it('refuses a state-changing request that is not from the same origin (CSRF)', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { Origin: 'https://evil.example', 'Content-Type': 'application/json' },
      { 'Sec-Fetch-Site': 'cross-site', 'Content-Type': 'application/json' },
      { 'Sec-Fetch-Site': 'same-site', Origin: pipit.url, 'Content-Type': 'application/json' },
    ];
    for (const headers of cases) {
      const response = await fetch(`${pipit.url}/api/health`, {
        method: 'POST',
        headers,
        body: '{}',
      });
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect((await errorOf(response)).code).toBe('forbidden');
    }
  });

  it('lets a same-origin request through the origin check', async () => {
    const cases: Array<Record<string, string>> = [
      { Origin: pipit.url, 'Content-Type': 'application/json' },
      { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' },
    ];
    for (const headers of cases) {
      const response = await fetch(`${pipit.url}/api/health`, {
        method: 'POST',
        headers,
        body: '{}',
      });
      // No endpoint takes a POST yet: the request passes the checks and finds no route.
      expect((await errorOf(response)).code).toBe('not_found');
    }
  });

  it('needs no content type for a request without a body, and reads the type case-insensitively', async () => {
    const bodyless = await fetch(`${pipit.url}/api/health`, {
      method: 'DELETE',
      headers: { Origin: pipit.url },
    });
    expect((await errorOf(bodyless)).code).toBe('not_found'); // passed the checks
    const shouting = await fetch(`${pipit.url}/api/health`, {
      method: 'POST',
      headers: { Origin: pipit.url, 'Content-Type': 'Application/JSON; charset=UTF-8' },
      body: '{}',
    });
    expect((await errorOf(shouting)).code).toBe('not_found');
    const lookalike = await fetch(`${pipit.url}/api/health`, {
      method: 'POST',
      headers: { Origin: pipit.url, 'Content-Type': 'application/jsonp' },
      body: '{}',
    });
    expect((await errorOf(lookalike)).code).toBe('unsupported_media_type');
  });

  it('refuses a body that is not JSON', async () => {
    const response = await fetch(`${pipit.url}/api/health`, {
      method: 'POST',
      headers: { Origin: pipit.url, 'Content-Type': 'text/plain' },
      body: 'hello',
    });
    expect(response.status).toBe(415);
    expect((await errorOf(response)).code).toBe('unsupported_media_type');
  });

  it('refuses a body over 1 MB', async () => {
    const response = await fetch(`${pipit.url}/api/health`, {
      method: 'POST',
      headers: { Origin: pipit.url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ padding: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(response.status).toBe(413);
    expect((await errorOf(response)).code).toBe('payload_too_large');
  });
});

describe('a failure on the server side', () => {
  it('answers internal with a digest, and logs the same digest with the error', async () => {
    const pipit = await startPipit();
    try {
      const storage: Storage = pipit.server.storage;
      storage.users.findByUsername = () => Promise.reject(new Error('the database is on fire'));
      const response = await fetch(`${pipit.url}/api/profiles/ada`);
      expect(response.status).toBe(500);
      const error = await errorOf(response);
      expect(error.code).toBe('internal');
      expect(error.message).not.toContain('fire');
      expect(error.digest).toMatch(/^[0-9a-f]{12}$/);
      const logged = pipit.logs.find((l) => l.digest === error.digest);
      expect(logged).toMatchObject({ level: 'error', path: '/api/profiles/ada', method: 'GET' });
      expect(logged?.err?.message).toBe('the database is on fire');
      expect(logged?.err?.stack).toContain('Error: the database is on fire');
    } finally {
      await pipit.close();
    }
  });
});
