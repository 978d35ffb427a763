import { describe, expect, it } from 'vitest';
import { createId } from '@pipit/protocol';
import type { SpaceActivityItem, Storage } from '../../src/storage/types';
import { insertUser } from '../support/users';

const LIMITS = { spacesPerPerson: 50, membersPerSpace: 20 };

/**
 * Space activity: each person's choice, tied to their membership, and the changes waiting to be
 * told, claimed once per batch (storage-contract.ts runs it on both engines).
 */
export function describeSpaceActivityContract(storage: () => Storage) {
  describe('space activity', () => {
    async function space() {
      const s = storage();
      const owner = await insertUser(s);
      const member = await insertUser(s);
      const id = createId();
      await s.spaces.insert(
        { id, appId: createId(), ownerId: owner.id, name: 'Our flat', createdAt: 10 },
        LIMITS,
      );
      await s.spaces.join(
        { spaceId: id, userId: member.id, role: 'member', joinedAt: 11 },
        LIMITS,
        { viaLink: false },
      );
      return { id, owner, member };
    }
    const choice = (spaceId: string, userId: string, enabled = true, showNames = true) => ({
      spaceId,
      userId,
      enabled,
      showNames,
      updatedAt: 20,
    });
    const item = (
      spaceId: string,
      recipientId: string,
      authorId: string,
      windowEnd: number,
      overrides: Partial<SpaceActivityItem> = {},
    ): SpaceActivityItem => ({
      id: createId(),
      spaceId,
      recipientId,
      authorId,
      kind: 'added',
      recordId: createId(),
      name: 'Eggs',
      createdAt: windowEnd - 1,
      windowEnd,
      ...overrides,
    });

    it('keeps a choice for someone in the space only, and lists who turned it on', async () => {
      const s = storage();
      const { id, owner, member } = await space();
      expect(await s.spaceActivity.getPreference(id, member.id)).toBeNull();
      expect(await s.spaceActivity.putPreference(choice(id, member.id))).toBe(true);
      expect(await s.spaceActivity.putPreference(choice(id, owner.id, false, false))).toBe(true);
      expect(await s.spaceActivity.getPreference(id, member.id)).toEqual(choice(id, member.id));
      expect((await s.spaceActivity.watchers(id)).map((w) => w.userId)).toEqual([member.id]);
      // Changed, not added twice.
      expect(
        await s.spaceActivity.putPreference({ ...choice(id, member.id), showNames: false }),
      ).toBe(true);
      expect(await s.spaceActivity.watchers(id)).toEqual([
        { ...choice(id, member.id), showNames: false },
      ]);
      expect(await s.spaceActivity.listForUser(owner.id)).toEqual([
        choice(id, owner.id, false, false),
      ]);
      // Someone not in the space: nothing stored.
      const outsider = await insertUser(s);
      expect(await s.spaceActivity.putPreference(choice(id, outsider.id))).toBe(false);
      expect(await s.spaceActivity.getPreference(id, outsider.id)).toBeNull();
      expect(await s.spaceActivity.putPreference(choice(createId(), member.id))).toBe(false);
    });

    it('drops the choice and what waits with the membership: leaving, the account, the space', async () => {
      const s = storage();
      const left = await space();
      await s.spaceActivity.putPreference(choice(left.id, left.member.id));
      await s.spaceActivity.addItems([item(left.id, left.member.id, left.owner.id, 100)]);
      expect(await s.spaces.removeMember(left.id, left.member.id)).toBe(true);
      expect(await s.spaceActivity.getPreference(left.id, left.member.id)).toBeNull();
      expect(await s.spaceActivity.claimItems(left.id, left.member.id, 100, 'job-1')).toEqual([]);

      const gone = await space();
      await s.spaceActivity.putPreference(choice(gone.id, gone.member.id));
      await s.spaces.removeMemberships(gone.member.id);
      expect(await s.spaceActivity.listForUser(gone.member.id)).toEqual([]);

      const deleted = await space();
      await s.spaceActivity.putPreference(choice(deleted.id, deleted.member.id));
      await s.spaceActivity.addItems([item(deleted.id, deleted.member.id, deleted.owner.id, 100)]);
      await s.spaces.delete(deleted.id, 50, { why: 'deleted', by: deleted.owner.id });
      expect(await s.spaceActivity.watchers(deleted.id)).toEqual([]);
      expect(await s.spaceActivity.claimItems(deleted.id, deleted.member.id, 100, 'job-1')).toEqual(
        [],
      );
    });

    it('leaves out changes for someone no longer in the space, and refuses malformed ones', async () => {
      const s = storage();
      const { id, owner, member } = await space();
      const outsider = await insertUser(s);
      const kept = item(id, member.id, owner.id, 100);
      expect(await s.spaceActivity.addItems([kept, item(id, outsider.id, owner.id, 100)])).toBe(1);
      await expect(
        s.spaceActivity.addItems([item(id, member.id, owner.id, 100, { kind: 'liked' as never })]),
      ).rejects.toThrow(/added' or 'completed/);
      await expect(s.spaceActivity.addItems([item(id, member.id, '', 100)])).rejects.toThrow(
        /authorId/,
      );
      expect(await s.spaceActivity.claimItems(id, member.id, 100, 'job-1')).toEqual([kept]);
    });

    it('claims a batch for one job: its retry gets the same items, another job none', async () => {
      const s = storage();
      const { id, owner, member } = await space();
      // Job ids are unique over every job: a claimant is one in every space.
      const run = createId();
      const first = item(id, member.id, owner.id, 100, { createdAt: 10 });
      const second = item(id, member.id, owner.id, 100, { createdAt: 20, kind: 'completed' });
      const later = item(id, member.id, owner.id, 200, { createdAt: 150 });
      const forOwner = item(id, owner.id, member.id, 100);
      await s.spaceActivity.addItems([second, first, later, forOwner]);
      expect(await s.spaceActivity.anyWaiting()).toBe(true);

      expect(await s.spaceActivity.claimItems(id, member.id, 100, `${run}-1`)).toEqual([
        first,
        second,
      ]);
      expect(await s.spaceActivity.claimItems(id, member.id, 100, `${run}-1`)).toEqual([
        first,
        second,
      ]);
      expect(await s.spaceActivity.claimItems(id, member.id, 100, `${run}-2`)).toEqual([]);
      expect(await s.spaceActivity.finishItems(`${run}-1`)).toBe(2);
      expect(await s.spaceActivity.claimItems(id, member.id, 100, `${run}-1`)).toEqual([]);
      // The next window's batch takes what is left of it, and anything older still waiting.
      expect(await s.spaceActivity.claimItems(id, member.id, 200, `${run}-3`)).toEqual([later]);
      expect(await s.spaceActivity.dropItems(id, owner.id, 100)).toBe(1);
      expect(await s.spaceActivity.claimItems(id, owner.id, 100, `${run}-4`)).toEqual([]);
    });

    it('answers the recipient’s batch still open, so a burst joins the batch its first change opened', async () => {
      const s = storage();
      const { id, owner, member } = await space();
      expect(await s.spaceActivity.openWindow(id, member.id, 50)).toBeNull();
      await s.spaceActivity.addItems([
        item(id, member.id, owner.id, 100),
        item(id, member.id, owner.id, 300),
        item(id, owner.id, member.id, 80),
      ]);
      expect(await s.spaceActivity.openWindow(id, member.id, 50)).toBe(100);
      expect(await s.spaceActivity.openWindow(id, member.id, 100)).toBe(300);
      expect(await s.spaceActivity.openWindow(id, owner.id, 50)).toBe(80);
      expect(await s.spaceActivity.openWindow(createId(), member.id, 50)).toBeNull();
      // A batch being sent is closed: what comes now waits for the next.
      await s.spaceActivity.claimItems(id, member.id, 100, createId());
      expect(await s.spaceActivity.openWindow(id, member.id, 50)).toBe(300);
    });

    it('gives a batch to one of many jobs racing for it', async () => {
      const s = storage();
      const { id, owner, member } = await space();
      await s.spaceActivity.addItems([
        item(id, member.id, owner.id, 100),
        item(id, member.id, owner.id, 100),
      ]);
      const claims = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          s.spaceActivity.claimItems(id, member.id, 100, `job-${i}`),
        ),
      );
      expect(claims.map((c) => c.length).sort()).toEqual([0, 0, 0, 0, 0, 2]);
    });
  });
}
