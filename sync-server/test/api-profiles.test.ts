import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicProfileSchema } from '@pipit/protocol';
import { insertUser } from './support/users';
import { type RunningPipit, startPipit } from './support/start-server';

describe('GET /api/profiles/{username}', () => {
  let pipit: RunningPipit;
  beforeAll(async () => {
    pipit = await startPipit();
    await insertUser(pipit.server.storage, {
      username: 'ada',
      displayName: 'Ada Lovelace',
      bio: 'First programmer.',
      links: [{ label: 'Notes', url: 'https://example.org/notes' }],
      createdAt: Date.UTC(2026, 0, 15),
    });
  });
  afterAll(() => pipit.close());

  it('shows what anyone may see, and nothing else', async () => {
    const response = await fetch(`${pipit.url}/api/profiles/Ada`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(publicProfileSchema.parse(body)).toEqual({
      username: 'ada',
      displayName: 'Ada Lovelace',
      bio: 'First programmer.',
      avatar: { kind: 'emoji', emoji: '🐦', color: '#1a7f5a' },
      links: [{ label: 'Notes', url: 'https://example.org/notes' }],
      joinedAt: '2026-01-15T00:00:00.000Z',
    });
    expect(Object.keys(body).sort()).toEqual(
      ['avatar', 'bio', 'displayName', 'joinedAt', 'links', 'username'].sort(),
    );
    expect(JSON.stringify(body)).not.toMatch(/email|password|hash/i);
  });

  it.each(['nobody', 'ab', 'admin', '1abc', 'a.b', '%00', 'x'.repeat(40)])(
    'answers not_found for %s',
    async (username) => {
      const response = await fetch(`${pipit.url}/api/profiles/${username}`);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
    },
  );
});
