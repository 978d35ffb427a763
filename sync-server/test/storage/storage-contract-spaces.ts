import { describe, expect, it } from 'vitest';
import { createId, documentName } from '@pipit/protocol';
import type { NewSpaceInvite, SpaceMemberRecord, Storage } from '../../src/storage/types';
import { insertUser } from '../support/users';

/** Room enough, unless a test says otherwise. */
const LIMITS = { spacesPerPerson: 50, membersPerSpace: 20 };
const join = (s: Storage, member: SpaceMemberRecord) =>
  s.spaces.join(member, LIMITS, { viaLink: false });

/** Shared spaces: rows, members, invitations (storage-contract.ts runs it on both engines). */
export function describeSpacesContract(storage: () => Storage) {
  describe('spaces', () => {
    async function space(appId = createId()) {
      const s = storage();
      const owner = await insertUser(s);
      const id = createId();
      const inserted = await s.spaces.insert(
        {
          id,
          appId,
          ownerId: owner.id,
          name: 'Our flat',
          createdAt: 10,
        },
        LIMITS,
      );
      expect(inserted).toEqual({ created: true });
      return { id, appId, owner };
    }

    function invite(spaceId: string, createdBy: string, overrides: Partial<NewSpaceInvite> = {}) {
      return {
        id: createId(),
        spaceId,
        role: 'member' as const,
        createdBy,
        createdAt: 10,
        expiresAt: 1_000,
        tokenHash: createId(),
        ...overrides,
      };
    }

    it('makes a space with its owner as its first member, once per id', async () => {
      const s = storage();
      const { id, appId, owner } = await space();
      expect(await s.spaces.get(id)).toEqual({
        id,
        appId,
        ownerId: owner.id,
        name: 'Our flat',
        createdAt: 10,
      });
      expect(await s.spaces.getWithRole(id, owner.id)).toMatchObject({ role: 'owner' });
      expect(await s.spaces.members(id)).toEqual([
        { spaceId: id, userId: owner.id, role: 'owner', joinedAt: 10 },
      ]);
      const other = await insertUser(s);
      const again = await s.spaces.insert(
        {
          id,
          appId,
          ownerId: other.id,
          name: 'Taken',
          createdAt: 20,
        },
        LIMITS,
      );
      expect(again).toMatchObject({ created: false, existing: { ownerId: owner.id } });
      expect(await s.spaces.getWithRole(id, other.id)).toMatchObject({ role: null });
      expect(await s.spaces.getWithRole(createId(), owner.id)).toBeNull();
    });

    it('adds members, changes a role, lists and counts a person’s spaces per app', async () => {
      const s = storage();
      const { id, appId, owner } = await space();
      const { id: elsewhere } = await space();
      const ben = await insertUser(s);
      expect(await join(s, { spaceId: id, userId: ben.id, role: 'reader', joinedAt: 20 })).toBe(
        'joined',
      );
      // In it already: nothing changes, not even the role.
      expect(await join(s, { spaceId: id, userId: ben.id, role: 'member', joinedAt: 99 })).toBe(
        'already',
      );
      expect(await s.spaces.setRole(id, ben.id, 'member')).toBe(true);
      expect(await s.spaces.setRole(id, createId(), 'member')).toBe(false);
      await join(s, { spaceId: elsewhere, userId: ben.id, role: 'reader', joinedAt: 30 });
      expect(await s.spaces.members(id)).toEqual([
        { spaceId: id, userId: owner.id, role: 'owner', joinedAt: 10 },
        { spaceId: id, userId: ben.id, role: 'member', joinedAt: 20 },
      ]);
      expect(await s.spaces.memberCount(id)).toBe(2);
      expect(await s.spaces.countForUser(ben.id)).toBe(2);
      const inApp = await s.spaces.listForUser(ben.id, appId);
      expect(inApp).toEqual([
        {
          id,
          appId,
          ownerId: owner.id,
          name: 'Our flat',
          createdAt: 10,
          role: 'member',
          memberCount: 2,
        },
      ]);
      expect((await s.spaces.listForUser(ben.id)).map((x) => x.id).sort()).toEqual(
        [id, elsewhere].sort(),
      );
      expect(await s.spaces.removeMember(id, ben.id)).toBe(true);
      expect(await s.spaces.removeMember(id, ben.id)).toBe(false);
      expect(await s.spaces.countForUser(ben.id)).toBe(1);
      await s.spaces.removeMemberships(ben.id);
      expect(await s.spaces.countForUser(ben.id)).toBe(0);
    });

    it('renames, and deletes for good: no members, no invitations, the id never used again', async () => {
      const s = storage();
      const { id, appId, owner } = await space();
      expect(await s.spaces.rename(id, 'Flat 2')).toMatchObject({ name: 'Flat 2' });
      expect(await s.spaces.insertInvite(invite(id, owner.id), { maxOpen: 20, now: 10 })).toBe(
        true,
      );
      expect(await s.spaces.idsOf({ appId })).toEqual([id]);
      expect(await s.spaces.idsOf({ ownerId: owner.id })).toEqual([id]);
      expect(await s.spaces.wasDeleted(id)).toBe(false);
      await s.spaces.delete(id, 50, { why: 'deleted', by: owner.id });
      expect(await s.spaces.get(id)).toBeNull();
      expect(await s.spaces.getWithRole(id, owner.id)).toBeNull();
      expect(await s.spaces.wasDeleted(id)).toBe(true);
      expect(await s.spaces.members(id)).toEqual([]);
      expect(await s.spaces.openInvites(id, 0)).toEqual([]);
      expect(await s.spaces.idsOf({ appId })).toEqual([]);
      expect(await s.spaces.rename(id, 'Back')).toBeNull();
      expect(await s.spaces.countForUser(owner.id)).toBe(0);
      const again = await s.spaces.insert(
        {
          id,
          appId,
          ownerId: owner.id,
          name: 'Again',
          createdAt: 60,
        },
        LIMITS,
      );
      expect(again).toEqual({ created: false, existing: null });
      expect(await s.spaces.wasDeleted(createId())).toBe(false);
    });

    it('tells everyone in a deleted space but its deleter why it ended, until dismissed or old', async () => {
      const s = storage();
      const { id, appId, owner } = await space();
      const ben = await insertUser(s);
      const cleo = await insertUser(s);
      const gone = await insertUser(s);
      for (const [who, joinedAt] of [
        [ben, 20],
        [cleo, 21],
        [gone, 22],
      ] as const) {
        await join(s, { spaceId: id, userId: who.id, role: 'member', joinedAt });
      }
      // Someone removed before the end is not told.
      await s.spaces.removeMember(id, gone.id);
      await s.spaces.rename(id, 'Flat 3');
      await s.spaces.delete(id, 500, { why: 'owner_left', by: owner.id });
      const ending = { spaceId: id, name: 'Flat 3', why: 'owner_left', endedAt: 500 };
      expect(await s.spaces.endingsFor(ben.id, appId, 0)).toEqual([ending]);
      expect(await s.spaces.endingsFor(cleo.id, appId, 500)).toEqual([ending]);
      expect(await s.spaces.endingsFor(owner.id, appId, 0)).toEqual([]);
      expect(await s.spaces.endingsFor(gone.id, appId, 0)).toEqual([]);
      expect(await s.spaces.endingsFor(ben.id, createId(), 0)).toEqual([]);
      expect(await s.spaces.endingsFor(ben.id, appId, 501)).toEqual([]);
      // Deleted again (a removal run twice): nobody is told twice, nor differently.
      await s.spaces.delete(id, 900, { why: 'app_deleted', by: null });
      expect(await s.spaces.endingsFor(ben.id, appId, 0)).toEqual([ending]);

      expect(await s.spaces.dismissEnding(ben.id, createId(), id)).toBe(false);
      expect(await s.spaces.dismissEnding(ben.id, appId, id)).toBe(true);
      expect(await s.spaces.dismissEnding(ben.id, appId, id)).toBe(false);
      expect(await s.spaces.endingsFor(ben.id, appId, 0)).toEqual([]);
      expect(await s.spaces.endingsFor(cleo.id, appId, 0)).toEqual([ending]);

      // Nobody deleted it (by: null): its owner is told too.
      const other = await space(appId);
      await join(s, { spaceId: other.id, userId: cleo.id, role: 'reader', joinedAt: 30 });
      await s.spaces.delete(other.id, 700, { why: 'app_deleted', by: null });
      expect((await s.spaces.endingsFor(cleo.id, appId, 0)).map((e) => e.spaceId)).toEqual([
        other.id,
        id,
      ]);
      expect(await s.spaces.endingsFor(other.owner.id, appId, 0)).toMatchObject([
        { spaceId: other.id, why: 'app_deleted' },
      ]);

      expect(await s.spaces.pruneEndings(600)).toBeGreaterThanOrEqual(1);
      expect(await s.spaces.endingsFor(cleo.id, appId, 0)).toMatchObject([{ spaceId: other.id }]);
      // A deleted account's endings go with it.
      await s.spaces.removeMemberships(cleo.id);
      expect(await s.spaces.endingsFor(cleo.id, appId, 0)).toEqual([]);
    });

    it('keeps invitations by their token’s hash: open ones listed, expired and revoked ones not', async () => {
      const s = storage();
      const { id, owner } = await space();
      const open = invite(id, owner.id, { createdAt: 20, expiresAt: 1_000, role: 'reader' });
      const expired = invite(id, owner.id, { createdAt: 15, expiresAt: 100 });
      const revoked = invite(id, owner.id, { createdAt: 12 });
      for (const i of [open, expired, revoked]) {
        await s.spaces.insertInvite(i, { maxOpen: 20, now: 10 });
      }
      expect(await s.spaces.revokeInvite(id, revoked.id, 200)).toBe(true);
      expect(await s.spaces.revokeInvite(id, revoked.id, 300)).toBe(false);
      expect(await s.spaces.revokeInvite(createId(), open.id, 300)).toBe(false);
      expect((await s.spaces.openInvites(id, 500)).map((i) => i.id)).toEqual([open.id]);
      expect(await s.spaces.inviteByTokenHash(open.tokenHash)).toEqual({
        id: open.id,
        spaceId: id,
        role: 'reader',
        createdBy: owner.id,
        createdAt: 20,
        expiresAt: 1_000,
        revokedAt: null,
      });
      expect(await s.spaces.inviteByTokenHash(revoked.tokenHash)).toMatchObject({ revokedAt: 200 });
      expect(await s.spaces.inviteByTokenHash('nothing')).toBeNull();
    });

    it('holds every limit in the transaction that adds: spaces, people, links, racing too', async () => {
      const s = storage();
      const tight = { spacesPerPerson: 2, membersPerSpace: 3 };
      const { id, owner } = await space();
      // The owner is in one space; ten tries at once to make more, with room for one.
      const made = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          s.spaces.insert(
            { id: createId(), appId: createId(), ownerId: owner.id, name: `S${i}`, createdAt: i },
            tight,
          ),
        ),
      );
      expect(made.filter((m) => m.created)).toHaveLength(1);
      expect(made.filter((m) => 'full' in m)).toHaveLength(9);
      expect(await s.spaces.countForUser(owner.id)).toBe(2);
      // Ten people join at once a space with room for two more.
      const people = await Promise.all(Array.from({ length: 10 }, () => insertUser(s)));
      const joined = await Promise.all(
        people.map((p, i) =>
          s.spaces.join({ spaceId: id, userId: p.id, role: 'member', joinedAt: 20 + i }, tight, {
            viaLink: true,
          }),
        ),
      );
      expect(joined.filter((o) => o === 'joined')).toHaveLength(2);
      expect(joined.filter((o) => o === 'space_full')).toHaveLength(8);
      expect(await s.spaces.memberCount(id)).toBe(3);
      // One person joining many spaces at once, with room for one.
      const cleo = await insertUser(s);
      const spaces = await Promise.all(Array.from({ length: 4 }, () => space()));
      await join(s, { spaceId: spaces[0]!.id, userId: cleo.id, role: 'member', joinedAt: 1 });
      const hers = await Promise.all(
        spaces.slice(1).map((sp) =>
          s.spaces.join({ spaceId: sp.id, userId: cleo.id, role: 'member', joinedAt: 2 }, tight, {
            viaLink: false,
          }),
        ),
      );
      expect(hers.filter((o) => o === 'joined')).toHaveLength(1);
      expect(hers.filter((o) => o === 'person_full')).toHaveLength(2);
      expect(await s.spaces.countForUser(cleo.id)).toBe(2);
      // Ten links at once with room for three.
      const links = await Promise.all(
        Array.from({ length: 10 }, () =>
          s.spaces.insertInvite(invite(id, owner.id), { maxOpen: 3, now: 10 }),
        ),
      );
      expect(links.filter(Boolean)).toHaveLength(3);
      expect(await s.spaces.openInvites(id, 10)).toHaveLength(3);
      // A deleted space takes nobody.
      await s.spaces.delete(spaces[3]!.id, 50, { why: 'deleted', by: null });
      expect(
        await join(s, { spaceId: spaces[3]!.id, userId: cleo.id, role: 'member', joinedAt: 60 }),
      ).toBe('gone');
    });

    it('bars someone the owner removed from coming back with a link, until the owner adds them', async () => {
      const s = storage();
      const { id } = await space();
      const ben = await insertUser(s);
      const cleo = await insertUser(s);
      const viaLink = (userId: string) =>
        s.spaces.join({ spaceId: id, userId, role: 'member', joinedAt: 20 }, LIMITS, {
          viaLink: true,
        });
      expect(await viaLink(ben.id)).toBe('joined');
      expect(await viaLink(cleo.id)).toBe('joined');
      // Ben is removed by the owner; Cleo leaves by herself.
      expect(await s.spaces.removeMember(id, ben.id, 30)).toBe(true);
      expect(await s.spaces.removeMember(id, cleo.id)).toBe(true);
      expect(await viaLink(ben.id)).toBe('barred');
      expect(await viaLink(cleo.id)).toBe('joined');
      // The owner adds Ben again: the bar goes, a later removal bars him again.
      expect(await join(s, { spaceId: id, userId: ben.id, role: 'reader', joinedAt: 40 })).toBe(
        'joined',
      );
      expect(await s.spaces.removeMember(id, ben.id)).toBe(true);
      expect(await viaLink(ben.id)).toBe('joined');
    });

    it('never stores a deleted space’s document again', async () => {
      const s = storage();
      const { id, owner } = await space();
      const name = documentName({ kind: 'space', spaceId: id });
      const state = new Uint8Array([0, 0]);
      expect(await s.documents.compact(name, () => state, { owner: { spaceId: id } })).toEqual([]);
      await s.spaces.delete(id, 50, { why: 'deleted', by: owner.id });
      await s.documents.delete(name);
      expect(await s.documents.compact(name, () => state, { owner: { spaceId: id } })).toBeNull();
      expect(await s.documents.load(name)).toBeNull();
    });
  });
}
