import { describe, expect, it } from 'vitest';
import { createId } from '@pipit/protocol';
import type {
  NewAppChange,
  NewCheckpoint,
  NewDraft,
  NewSuggestion,
  Storage,
} from '../../src/storage/types';
import { insertUser } from '../support/users';

/** Apps' checkpoints (storage-contract.ts runs it on both engines). */
export function describeHistoryContract(storage: () => Storage) {
  /** An app of a new person, to hold what each store keeps of an app. */
  async function app() {
    const s = storage();
    const owner = await insertUser(s);
    const id = createId();
    await s.apps.insert({
      id,
      ownerId: owner.id,
      title: 'Habits',
      description: '',
      icon: null,
      createdAt: 1,
    });
    return { id, owner };
  }

  describe('checkpoints', () => {
    function checkpoint(appId: string, overrides: Partial<NewCheckpoint> = {}): NewCheckpoint {
      const definition = new Uint8Array([1, 2, 3, 255, 0]);
      return {
        id: createId(),
        appId,
        kind: 'auto',
        name: null,
        version: null,
        createdAt: 10,
        createdById: null,
        authorIds: [],
        changesJson: '{"counts":{}}',
        definitionHash: 'h',
        definition,
        size: definition.byteLength,
        ...overrides,
      };
    }

    it('stores a checkpoint once and lists an app’s newest first, with who made it', async () => {
      const s = storage();
      const { id, owner } = await app();
      const older = checkpoint(id, { createdAt: 10, authorIds: [owner.id, 'someone'] });
      const newer = checkpoint(id, {
        createdAt: 20,
        kind: 'manual',
        name: 'Before the redesign',
        createdById: owner.id,
      });
      expect(await s.checkpoints.insert(older)).toBe(true);
      expect(await s.checkpoints.insert(newer)).toBe(true);
      expect(await s.checkpoints.insert({ ...newer, name: 'changed' })).toBe(false);
      const list = await s.checkpoints.list(id);
      expect(list.map((c) => c.id)).toEqual([newer.id, older.id]);
      expect(list[0]).toMatchObject({
        kind: 'manual',
        name: 'Before the redesign',
        createdBy: { id: owner.id, username: owner.username },
        size: 5,
      });
      expect(list[1]).toMatchObject({ createdBy: null, authorIds: [owner.id, 'someone'] });
      expect((await s.checkpoints.latest(id))?.id).toBe(newer.id);
      expect(await s.checkpoints.definition(id, older.id)).toEqual(older.definition);
    });

    it('keeps each app’s checkpoints to itself', async () => {
      const s = storage();
      const a = await app();
      const b = await app();
      const one = checkpoint(a.id);
      await s.checkpoints.insert(one);
      expect(await s.checkpoints.get(b.id, one.id)).toBeNull();
      expect(await s.checkpoints.definition(b.id, one.id)).toBeNull();
      expect(await s.checkpoints.latest(b.id)).toBeNull();
      await s.checkpoints.delete(b.id, [one.id]);
      expect(await s.checkpoints.get(a.id, one.id)).not.toBeNull();
    });

    it('scopes ids per app: another app stores a checkpoint of the same id as its own', async () => {
      const s = storage();
      const a = await app();
      const b = await app();
      const one = checkpoint(a.id, { name: 'a’s' });
      expect(await s.checkpoints.insert(one)).toBe(true);
      const same = checkpoint(b.id, { id: one.id, name: 'b’s', definition: new Uint8Array([9]) });
      expect(await s.checkpoints.insert(same)).toBe(true);
      expect(await s.checkpoints.insert(same)).toBe(false);
      expect((await s.checkpoints.get(a.id, one.id))?.name).toBe('a’s');
      expect((await s.checkpoints.get(b.id, one.id))?.name).toBe('b’s');
      expect(await s.checkpoints.definition(b.id, one.id)).toEqual(new Uint8Array([9]));
      await s.checkpoints.delete(b.id, [one.id]);
      expect(await s.checkpoints.get(b.id, one.id)).toBeNull();
      expect(await s.checkpoints.get(a.id, one.id)).not.toBeNull();
    });

    it('deletes the given checkpoints, and all of them with their app; forgets a deleted maker', async () => {
      const s = storage();
      const { id, owner } = await app();
      const ids = [createId(), createId(), createId()];
      for (const [i, cid] of ids.entries()) {
        await s.checkpoints.insert(
          checkpoint(id, { id: cid, createdAt: i, createdById: owner.id }),
        );
      }
      await s.checkpoints.delete(id, [ids[0]!]);
      await s.checkpoints.delete(id, []);
      expect((await s.checkpoints.list(id)).map((c) => c.id)).toEqual([ids[2], ids[1]]);
      await s.users.markDeleted(owner.id, 100);
      expect((await s.checkpoints.list(id)).every((c) => c.createdBy === null)).toBe(true);
      await s.apps.delete(id, 200);
      expect(await s.checkpoints.list(id)).toEqual([]);
    });
  });

  describe('who changed what', () => {
    const change = (appId: string, overrides: Partial<NewAppChange> = {}): NewAppChange => ({
      id: createId(),
      appId,
      entity: 'component',
      entityId: 'c1',
      paths: ['props.text'],
      kind: 'person',
      authorId: null,
      at: 10,
      ...overrides,
    });

    it('keeps each entry with its author, newest first, in a range and for one entity', async () => {
      const s = storage();
      const { id, owner } = await app();
      const other = await app();
      const entries = [
        change(id, { at: 10, authorId: owner.id }),
        change(id, {
          at: 20,
          entity: 'app',
          entityId: 'app',
          paths: ['title'],
          kind: 'ai',
          authorId: owner.id,
        }),
        change(id, { at: 30, entityId: 'c2', paths: ['added'], authorId: owner.id }),
        change(other.id, { at: 15, authorId: other.owner.id }),
        // An app deleted meanwhile: its entries are left out, the others kept.
        change(createId(), { at: 15 }),
      ];
      expect(await s.appChanges.add(entries)).toBe(4);
      expect(await s.appChanges.add([])).toBe(0);
      const all = await s.appChanges.list(id, { limit: 10 });
      expect(all.map((c) => c.at)).toEqual([30, 20, 10]);
      expect(all[1]).toMatchObject({
        entity: 'app',
        entityId: 'app',
        paths: ['title'],
        kind: 'ai',
        author: { id: owner.id, username: owner.username },
      });
      expect(
        (await s.appChanges.list(id, { since: 10, until: 20, limit: 10 })).map((c) => c.at),
      ).toEqual([20]);
      const one = await s.appChanges.list(id, {
        entity: { entity: 'component', id: 'c1' },
        limit: 10,
      });
      expect(one.map((c) => c.entityId)).toEqual(['c1']);
      expect((await s.appChanges.list(id, { limit: 2 })).map((c) => c.at)).toEqual([30, 20]);
      expect((await s.appChanges.list(other.id, { limit: 10 })).map((c) => c.appId)).toEqual([
        other.id,
      ]);
    });

    it('thins the oldest past a count, forgets a deleted author, and goes with its app', async () => {
      const s = storage();
      const { id, owner } = await app();
      // Two at one time: the order by id decides which of them is older.
      const entries = [5, 6, 6, 7, 8].map((at) => change(id, { at, authorId: owner.id }));
      await s.appChanges.add(entries);
      expect(await s.appChanges.thin(id, 10)).toBe(0);
      expect(await s.appChanges.thin(id, 3)).toBe(2);
      const left = await s.appChanges.list(id, { limit: 10 });
      expect(left).toHaveLength(3);
      expect(left.map((c) => c.at).slice(0, 2)).toEqual([8, 7]);
      await s.users.markDeleted(owner.id, 100);
      expect((await s.appChanges.list(id, { limit: 10 })).every((c) => c.author === null)).toBe(
        true,
      );
      await s.apps.delete(id, 200);
      expect(await s.appChanges.list(id, { limit: 10 })).toEqual([]);
    });
  });

  describe('suggestions', () => {
    const suggestion = (
      appId: string,
      createdById: string,
      overrides: Partial<NewSuggestion> = {},
    ): NewSuggestion => ({
      id: createId(),
      appId,
      asked: 'Add a rating',
      summary: ['Added a field “Rating”'],
      earlier: [{ instruction: 'Add stars', summary: ['Added a field “Stars”'] }],
      base: new Uint8Array([1, 2, 3]),
      proposed: new Uint8Array([4, 5, 255, 0]),
      createdById,
      createdAt: 10,
      ...overrides,
    });

    it('keeps one per id, at most so many open, lists the open ones newest first', async () => {
      const s = storage();
      const { id, owner } = await app();
      const first = suggestion(id, owner.id, { createdAt: 10 });
      expect(await s.suggestions.insert(first, { count: 2, bytes: 1000 })).toBe('stored');
      expect(
        await s.suggestions.insert({ ...first, asked: 'changed' }, { count: 2, bytes: 1000 }),
      ).toBe('exists');
      const second = suggestion(id, owner.id, { createdAt: 20 });
      expect(await s.suggestions.insert(second, { count: 2, bytes: 1000 })).toBe('stored');
      expect(await s.suggestions.insert(suggestion(id, owner.id), { count: 2, bytes: 1000 })).toBe(
        'full',
      );
      // Or full by bytes: the two open hold 14 bytes, a third of 7 passes 20.
      expect(await s.suggestions.insert(suggestion(id, owner.id), { count: 5, bytes: 20 })).toBe(
        'full',
      );
      const third = suggestion(id, owner.id, { createdAt: 30 });
      expect(await s.suggestions.insert(third, { count: 5, bytes: 21 })).toBe('stored');
      const open = await s.suggestions.list(id, 'open');
      expect(open.map((x) => x.id)).toEqual([third.id, second.id, first.id]);
      expect(open[2]).toMatchObject({
        asked: 'Add a rating',
        summary: ['Added a field “Rating”'],
        earlier: [{ instruction: 'Add stars', summary: ['Added a field “Stars”'] }],
        status: 'open',
        createdBy: { id: owner.id, username: owner.username },
        closedAt: null,
        closedBy: null,
      });
      expect(await s.suggestions.definitions(id, first.id)).toEqual({
        base: new Uint8Array([1, 2, 3]),
        proposed: new Uint8Array([4, 5, 255, 0]),
      });
      // Ids are each app's own.
      const other = await app();
      expect(
        await s.suggestions.insert(
          { ...first, appId: other.id, createdById: other.owner.id },
          { count: 2, bytes: 1000 },
        ),
      ).toBe('stored');
      expect(await s.suggestions.get(other.id, first.id)).not.toBeNull();
      expect(await s.suggestions.definitions(other.id, second.id)).toBeNull();
    });

    it('closes an open one once, keeps so many closed, and goes with its app', async () => {
      const s = storage();
      const { id, owner } = await app();
      const all = [1, 2, 3].map((n) => suggestion(id, owner.id, { createdAt: n }));
      for (const one of all) await s.suggestions.insert(one, { count: 10, bytes: 1000 });
      expect(await s.suggestions.close(id, all[0]!.id, 'accepted', owner.id, 100, 2)).toBe(true);
      expect(await s.suggestions.close(id, all[0]!.id, 'rejected', owner.id, 101, 2)).toBe(false);
      expect(await s.suggestions.get(id, all[0]!.id)).toMatchObject({
        status: 'accepted',
        closedAt: 100,
        closedBy: { id: owner.id },
      });
      // A decided one keeps no definitions.
      expect(await s.suggestions.definitions(id, all[0]!.id)).toEqual({
        base: new Uint8Array(0),
        proposed: new Uint8Array(0),
      });
      expect(await s.suggestions.close(id, all[1]!.id, 'rejected', owner.id, 102, 2)).toBe(true);
      // A third closed: the oldest closed goes, the open one stays.
      expect(await s.suggestions.close(id, all[2]!.id, 'replaced', owner.id, 103, 2)).toBe(true);
      expect(await s.suggestions.get(id, all[0]!.id)).toBeNull();
      expect((await s.suggestions.list(id, 'rejected')).map((x) => x.id)).toEqual([all[1]!.id]);
      await s.users.markDeleted(owner.id, 200);
      expect((await s.suggestions.get(id, all[1]!.id))?.createdBy).toBeNull();
      await s.apps.delete(id, 300);
      expect(await s.suggestions.get(id, all[1]!.id)).toBeNull();
    });
  });

  describe('drafts', () => {
    const draft = (appId: string, createdById: string, overrides: Partial<NewDraft> = {}) => ({
      id: createId(),
      appId,
      name: 'Try a new layout',
      base: new Uint8Array([7, 0, 255]),
      createdById,
      createdAt: 10,
      ...overrides,
    });

    it('keeps one per id, at most so many open, lists open ones first, updates only open ones', async () => {
      const s = storage();
      const { id, owner } = await app();
      const first = draft(id, owner.id, { createdAt: 10 });
      expect(await s.drafts.insert(first, 2)).toBe('stored');
      expect(await s.drafts.insert({ ...first, name: 'again' }, 2)).toBe('exists');
      const second = draft(id, owner.id, { createdAt: 20 });
      expect(await s.drafts.insert(second, 2)).toBe('stored');
      expect(await s.drafts.insert(draft(id, owner.id), 2)).toBe('full');
      expect(await s.drafts.get(id, first.id)).toMatchObject({
        name: 'Try a new layout',
        status: 'open',
        createdAt: 10,
        baseAt: 10,
        createdBy: { id: owner.id, username: owner.username },
        closedAt: null,
        closedBy: null,
      });
      expect(await s.drafts.base(id, first.id)).toEqual(new Uint8Array([7, 0, 255]));
      // Renamed, then given a new base taken in at 50.
      expect(await s.drafts.update(id, first.id, { name: 'Bigger buttons' })).toBe(true);
      const bytes = new Uint8Array([1, 2]);
      expect(await s.drafts.update(id, first.id, { base: { bytes, at: 50 } })).toBe(true);
      expect(await s.drafts.get(id, first.id)).toMatchObject({
        name: 'Bigger buttons',
        baseAt: 50,
      });
      expect(await s.drafts.base(id, first.id)).toEqual(bytes);
      // Closed: first among the closed, after the open ones; no base; not changed any more.
      expect(await s.drafts.close(id, first.id, 'merged', owner.id, 60, 5)).toBe(true);
      expect(await s.drafts.close(id, first.id, 'deleted', owner.id, 61, 5)).toBe(false);
      expect(await s.drafts.update(id, first.id, { name: 'x' })).toBe(false);
      expect(await s.drafts.base(id, first.id)).toBeNull();
      const third = draft(id, owner.id, { createdAt: 5 });
      expect(await s.drafts.insert(third, 2)).toBe('stored');
      expect((await s.drafts.list(id)).map((d) => [d.id, d.status])).toEqual([
        [second.id, 'open'],
        [third.id, 'open'],
        [first.id, 'merged'],
      ]);
      // Ids are each app's own.
      const other = await app();
      expect(
        await s.drafts.insert({ ...first, appId: other.id, createdById: other.owner.id }, 2),
      ).toBe('stored');
      expect(await s.drafts.base(other.id, second.id)).toBeNull();
      expect(await s.drafts.update(other.id, second.id, { name: 'x' })).toBe(false);
    });

    it('stores a draft’s document while the draft is open, never once it is closed', async () => {
      const s = storage();
      const { id, owner } = await app();
      const one = draft(id, owner.id);
      await s.drafts.insert(one, 10);
      const name = `draft/${id}/${one.id}`;
      const owned = { owner: { appId: id, draftId: one.id } };
      await s.documents.append([{ name, update: new Uint8Array([1]) }]);
      expect(await s.documents.compact(name, () => new Uint8Array([9]), owned)).not.toBeNull();
      expect((await s.documents.loadWithLog(name)).snapshot).toEqual(new Uint8Array([9]));
      await s.drafts.close(id, one.id, 'merged', owner.id, 20, 5);
      await s.documents.delete(name);
      // An instance that had not heard of it stores what it holds: nothing is written.
      await s.documents.append([{ name, update: new Uint8Array([2]) }]);
      expect(await s.documents.compact(name, () => new Uint8Array([8]), owned)).toBeNull();
      expect((await s.documents.loadWithLog(name)).snapshot).toBeNull();
      // A draft nobody registered is never stored either.
      const stranger = { owner: { appId: id, draftId: createId() } };
      expect(
        await s.documents.compact(`draft/${id}/x`, () => new Uint8Array([7]), stranger),
      ).toBeNull();
    });

    it('keeps so many closed, forgets a deleted starter, and goes with its app', async () => {
      const s = storage();
      const { id, owner } = await app();
      const all = [1, 2, 3].map((n) => draft(id, owner.id, { createdAt: n }));
      for (const one of all) await s.drafts.insert(one, 10);
      for (const [i, one] of all.entries()) {
        expect(await s.drafts.close(id, one.id, 'deleted', owner.id, 100 + i, 2)).toBe(true);
      }
      expect(await s.drafts.get(id, all[0]!.id)).toBeNull();
      expect((await s.drafts.list(id)).map((d) => d.id)).toEqual([all[2]!.id, all[1]!.id]);
      await s.users.markDeleted(owner.id, 200);
      expect(await s.drafts.get(id, all[1]!.id)).toMatchObject({ createdBy: null, closedBy: null });
      await s.apps.delete(id, 300);
      expect(await s.drafts.list(id)).toEqual([]);
    });
  });
}
