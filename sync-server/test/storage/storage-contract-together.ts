import { describe, expect, it } from 'vitest';
import { createId } from '@pipit/protocol';
import type { Storage } from '../../src/storage/types';
import { insertUser } from '../support/users';

/**
 * The look-ups a burst of socket openings makes, asked for many at once: sessions, roles and
 * claims of client ids go to the database together (storage/kysely/batched.ts), and each call
 * still gets its own answer, the same as one at a time (storage-contract.ts runs it on both
 * engines).
 */
export function describeTogetherContract(storage: () => Storage) {
  describe('look-ups asked for at once', () => {
    it('answers each session read with its own session and account', async () => {
      const s = storage();
      const people = await Promise.all([1, 2, 3].map(() => insertUser(s)));
      const ids = people.map(() => createId().padEnd(32, 'a').slice(0, 32));
      await Promise.all(
        people.map((person, i) =>
          s.sessions.insert({
            id: ids[i]!,
            userId: person.id,
            secretHash: `hash-${i}`,
            createdAt: i,
            lastSeenAt: i,
            expiresAt: 9e12,
            userAgent: null,
            ip: null,
          }),
        ),
      );
      await s.users.markDeleted(people[2]!.id, 5);
      const asked = [ids[0]!, 'missing', ids[1]!, ids[0]!, ids[2]!];
      const together = await Promise.all(asked.map((id) => s.sessions.findWithUser(id)));
      const alone: Awaited<ReturnType<Storage['sessions']['findWithUser']>>[] = [];
      for (const id of asked) alone.push(await s.sessions.findWithUser(id));
      expect(together).toEqual(alone);
      expect(together.map((found) => found?.user?.id ?? null)).toEqual([
        people[0]!.id,
        null,
        people[1]!.id,
        people[0]!.id,
        null,
      ]);
      expect(together[4]?.session.id).toBe(ids[2]);
      // The same session asked for twice: two answers, each the caller's to change.
      together[0]!.session.lastSeenAt = 99;
      expect(together[3]!.session.lastSeenAt).toBe(0);
      expect(together[0]!.user?.links).not.toBe(together[3]!.user?.links);
    });

    it("answers each role read with that person's role on that app", async () => {
      const s = storage();
      const [owner, editor, viewer, stranger] = await Promise.all(
        [1, 2, 3, 4].map(() => insertUser(s)),
      );
      const apps = [createId(), createId()];
      for (const id of apps) {
        await s.apps.insert({
          id,
          ownerId: owner!.id,
          title: 'Together',
          description: '',
          icon: null,
          createdAt: 1,
        });
      }
      for (const [appId, userId, role] of [
        [apps[0]!, editor!.id, 'editor'],
        [apps[1]!, viewer!.id, 'viewer'],
      ] as const) {
        await s.apps.putCollaborator({ appId, userId, role, invitedBy: owner!.id, addedAt: 2 });
      }
      const asked: Array<[string, string]> = [
        [apps[0]!, owner!.id],
        [apps[0]!, editor!.id],
        [apps[1]!, editor!.id],
        [apps[1]!, viewer!.id],
        [apps[0]!, viewer!.id],
        [apps[0]!, stranger!.id],
        [createId(), owner!.id],
        [apps[0]!, editor!.id],
      ];
      const together = await Promise.all(asked.map(([id, user]) => s.apps.getWithRole(id, user)));
      expect(together.map((found) => (found ? found.role : 'no app'))).toEqual([
        'owner',
        'editor',
        null,
        'viewer',
        null,
        null,
        'no app',
        'editor',
      ]);
      expect(together[0]?.app).toEqual(await s.apps.get(apps[0]!));
      expect(together[0]?.app).not.toBe(together[1]?.app);
    });

    it('gives each client id claimed at once to its first claimer', async () => {
      const s = storage();
      const [ada, bo] = await Promise.all([1, 2].map(() => insertUser(s)));
      const first = `app/${createId()}`;
      const second = `app/${createId()}`;
      await s.documents.claimClients(first, bo!.id, [7]);
      const answers = await Promise.all([
        s.documents.claimClients(first, ada!.id, [1, 2, 2, 7]),
        s.documents.claimClients(first, bo!.id, [2, 3]),
        s.documents.claimClients(second, bo!.id, [1]),
        s.documents.claimClients(second, ada!.id, []),
      ]);
      const owners = (answer: Map<number, string>) =>
        Object.fromEntries([...answer].sort(([a], [b]) => a - b));
      expect(answers.map(owners)).toEqual([
        { 1: ada!.id, 2: ada!.id, 7: bo!.id },
        { 2: ada!.id, 3: bo!.id },
        { 1: bo!.id },
        {},
      ]);
      // A claim of more client ids than one statement takes, beside a small one.
      const many = Array.from({ length: 22_000 }, (_, i) => 1_000 + i);
      const [large, small] = await Promise.all([
        s.documents.claimClients(second, ada!.id, many),
        s.documents.claimClients(second, bo!.id, [1, 2]),
      ]);
      expect(large.size).toBe(many.length);
      expect([...large.values()].every((owner) => owner === ada!.id)).toBe(true);
      expect(owners(small)).toEqual({ 1: bo!.id, 2: bo!.id });
      // Claimed for good: asked again, one at a time, the owners are the same.
      expect(owners(await s.documents.claimClients(first, bo!.id, [1, 2, 3, 7]))).toEqual({
        1: ada!.id,
        2: ada!.id,
        3: bo!.id,
        7: bo!.id,
      });
    });
  });
}
