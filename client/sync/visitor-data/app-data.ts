import {
  canChangeSpaceRecord,
  type Collection,
  type CollectionRecordRule,
  DefinitionError,
  FORMER_MEMBER,
  isSharedCollection,
  parseFileReference,
  type PersonChoice,
  type ReadDefinition,
} from '@pipit/app-definition';
import { groupedCount, SPACE_LIMITS, type SpaceRole } from '@pipit/protocol';
import { ACTION_MESSAGES, type RuntimeData, type RuntimeDataRecord } from '@pipit/runtime';
import { useMemo } from 'react';
import type { SyncState } from '../core/sync-state';
import { useVisitorData } from './visitor-data';
import { loadRecordFiles } from './record-files-loader';
import type { VisitorDataSource, VisitorDataView } from './view';

/**
 * What a published app runs on (docs/product/spaces.md): the visitor's private data, and — when
 * they show a space — the space's records for the collections the creator shares. Private
 * collections stay private whatever space is shown; without a space, shared collections are
 * private too, as in any app.
 */
export interface AppDataView extends VisitorDataView {
  /** The shown space's own sync state (null: no space shown). */
  spaceSync: SyncState | null;
  /** The shown space's id (its records' photos and files live there); null or absent: none. */
  spaceId?: string | null;
  /** The person's private items in the shared collections (hidden while a space is shown). */
  privateShared: number;
  /**
   * Moves those items into the shown space, as the person's (a space they just made): each is
   * added to the space before it leaves the private data. Returns how many moved.
   */
  moveIntoSpace(): number;
}

export interface ShownSpace {
  id: string;
  role: SpaceRole;
  /** Its members' names by account id, as last seen (null: not known on this device yet). */
  people: Readonly<Record<string, string>> | null;
}

/**
 * Whom a space's person fields can name: its members as last seen, with the names shown for what
 * they added; someone no longer among them shows as a former member, as their records' author does.
 */
function peopleList(people: Readonly<Record<string, string>> | null): PersonChoice[] | undefined {
  return people ? Object.entries(people).map(([id, name]) => ({ id, name })) : undefined;
}

/** The collections whose records live in a space, and each one's rule. */
export function sharedCollections(definition: ReadDefinition): Map<string, CollectionRecordRule> {
  const shared = new Map<string, CollectionRecordRule>();
  for (const collection of definition.collections)
    if (isSharedCollection(collection))
      shared.set(collection.id, collection.recordRule === 'anyone' ? 'anyone' : 'author');
  return shared;
}

const FULL_MESSAGE = `This space holds ${groupedCount(SPACE_LIMITS.recordsPerSpace)} items, the most one space can. Delete some to add more.`;
const READER_MESSAGE =
  'You can only view this space. Ask its owner to make you a member to add or change items.';

/** Why a space's record is not the person's to change, in their words. */
function lockedWhy(role: SpaceRole, authorName: string | null): string {
  if (role === 'reader') return READER_MESSAGE;
  if (!authorName || authorName === FORMER_MEMBER) return ACTION_MESSAGES.authorRecord;
  return `Only ${authorName}, who added this item, can change it.`;
}

/** The worse of two sync states, as one badge shows them (pending changes added up). */
export function combineSync(a: SyncState, b: SyncState): SyncState {
  if (a.kind === 'error') return a;
  if (b.kind === 'error') return b;
  const pending = ('pending' in a ? (a.pending ?? 0) : 0) + ('pending' in b ? (b.pending ?? 0) : 0);
  for (const kind of ['offline', 'connecting', 'syncing'] as const)
    if (a.kind === kind || b.kind === kind) return { kind, pending };
  return a.kind === 'read-only' ? b : a;
}

const nothingToMove = () => 0;

/** Many records at once where the store can (one change, all or none), else refused. */
function createManyIn(
  data: RuntimeData,
  collection: Parameters<RuntimeData['create']>[0],
  rows: readonly Readonly<Record<string, unknown>>[],
): string[] {
  if (!data.createMany)
    throw new DefinitionError('Your data is still loading. Try again in a moment.');
  return data.createMany(collection, rows);
}

/** Each space record as last shown, with what it was shown for (combineAppData). */
const seenInSpace = new WeakMap<
  RuntimeDataRecord,
  {
    role: SpaceRole;
    people: ShownSpace['people'];
    accountId: string;
    rule: CollectionRecordRule;
    seen: RuntimeDataRecord;
  }
>();

export function combineAppData(
  own: VisitorDataView,
  space: VisitorDataView,
  definition: ReadDefinition,
  shown: Pick<ShownSpace, 'role' | 'people'> & { id?: string },
  accountId: string,
): AppDataView {
  const { role, people } = shown;
  const shared = sharedCollections(definition);
  const privateShared = own.data.records.filter((record) => shared.has(record.collectionId));
  const members = peopleList(people);
  const spaceRecords: RuntimeDataRecord[] = space.data.records.map((record) => {
    const rule = shared.get(record.collectionId) ?? 'author';
    // The same record seen the same way is the same object (the runtime keeps what it worked
    // out for it: RecordIndexMemo).
    const known = seenInSpace.get(record);
    if (
      known &&
      known.role === role &&
      known.people === people &&
      known.accountId === accountId &&
      known.rule === rule
    )
      return known.seen;
    const authorName =
      people && record.authorId ? (people[record.authorId] ?? FORMER_MEMBER) : null;
    const editable = role !== 'reader' && canChangeSpaceRecord(record, rule, accountId);
    const seen = {
      ...record,
      ...(authorName ? { authorName } : {}),
      editable,
      ...(editable ? {} : { lockedWhy: lockedWhy(role, authorName) }),
    };
    seenInSpace.set(record, { role, people, accountId, rule, seen });
    return seen;
  });
  const inSpace = new Map(spaceRecords.map((record) => [record.id, record]));
  const writable = (recordId: string) => {
    const record = inSpace.get(recordId);
    if (!record) return false;
    if (!record.editable) {
      throw new DefinitionError(role === 'reader' ? READER_MESSAGE : ACTION_MESSAGES.authorRecord);
    }
    return true;
  };
  const data: RuntimeData = {
    records: [
      ...own.data.records.filter((record) => !shared.has(record.collectionId)),
      ...spaceRecords,
    ],
    counters: own.data.counters,
    create: (collection, values) => {
      if (!shared.has(collection.id)) return own.data.create(collection, values);
      if (role === 'reader') throw new DefinitionError(READER_MESSAGE);
      if (space.data.records.length >= SPACE_LIMITS.recordsPerSpace)
        throw new DefinitionError(FULL_MESSAGE);
      return space.data.create(collection, values);
    },
    createMany: (collection, rows) => {
      if (!shared.has(collection.id)) return createManyIn(own.data, collection, rows);
      if (role === 'reader') throw new DefinitionError(READER_MESSAGE);
      if (space.data.records.length + rows.length > SPACE_LIMITS.recordsPerSpace)
        throw new DefinitionError(FULL_MESSAGE);
      return createManyIn(space.data, collection, rows);
    },
    update: (collection, recordId, values) =>
      writable(recordId)
        ? space.data.update(collection, recordId, values)
        : own.data.update(collection, recordId, values),
    remove: (recordId) => {
      if (writable(recordId)) space.data.remove(recordId);
      else own.data.remove(recordId);
    },
    setCounter: (counterId, value) => own.data.setCounter(counterId, value),
    createBlocked: (collectionId) => {
      if (!shared.has(collectionId)) return null;
      if (role === 'reader') return READER_MESSAGE;
      return space.data.records.length >= SPACE_LIMITS.recordsPerSpace ? FULL_MESSAGE : null;
    },
    ...(members ? { people: members } : {}),
    me: accountId,
  };
  return {
    phase: own.phase === 'ready' && space.phase === 'ready' ? 'ready' : 'loading',
    data,
    sync: combineSync(own.sync, space.sync),
    presence: space.presence,
    spaceSync: space.sync,
    privateShared: privateShared.length,
    moveIntoSpace: () => {
      if (role === 'reader') throw new DefinitionError(READER_MESSAGE);
      let moved = 0;
      for (const record of privateShared) {
        const collection = definition.collections.find((c) => c.id === record.collectionId);
        if (!collection) continue;
        space.data.create(collection, record.values);
        own.data.remove(record.id);
        if (shown.id) sendFilesToSpace(collection, record.values, accountId, shown.id);
        moved += 1;
      }
      return moved;
    },
  };
}

/**
 * The photos and files of a record moved into a space go there too: their bytes on this device are
 * queued for the space (record-files.ts; bytes this device does not have stay in the person's own
 * data on the server, and the space shows their placeholder).
 */
function sendFilesToSpace(
  collection: Collection,
  values: Readonly<Record<string, unknown>>,
  owner: string,
  spaceId: string,
): void {
  for (const field of collection.fields) {
    if (field.type !== 'image' && field.type !== 'file') continue;
    const ref = parseFileReference(values[field.id]);
    if (!ref) continue;
    const path = `/api/spaces/${spaceId}/files/${ref.hash}`;
    const kind = field.type;
    loadRecordFiles()
      .then(({ queueUpload }) => queueUpload({ owner, path, hash: ref.hash, kind }))
      .catch((error: unknown) => console.warn('Could not queue a photo for the space:', error));
  }
}

/**
 * The running app's data: `space` null shows the visitor's own data only (and anonymous visitors
 * never have a space).
 */
export function useAppData(options: {
  appId: string;
  accountId: string | null;
  /** The name others see while the person is in the space. */
  name: string;
  definition: ReadDefinition | null;
  space: ShownSpace | null;
  /** Not opened yet: who is signed in is still being asked (useSessionSettled). */
  held?: boolean;
}): AppDataView {
  const { appId, accountId, name, definition, space, held = false } = options;
  const own = useVisitorData(held ? null : { kind: 'app', appId, accountId });
  const source: VisitorDataSource | null =
    space && accountId
      ? { kind: 'space', spaceId: space.id, accountId, name, role: space.role }
      : null;
  const spaceData = useVisitorData(source);
  const role = space?.role ?? null;
  const people = space?.people ?? null;
  return useMemo(() => {
    if (!source || !role || !accountId || !definition) {
      // No space shown: the shared collections' items are private, and counted for a new space.
      const shared = definition ? sharedCollections(definition) : null;
      const privateShared = shared
        ? own.data.records.filter((record) => shared.has(record.collectionId)).length
        : 0;
      // In their own data a person field can only name the person themselves (signed in).
      const data = accountId
        ? { ...own.data, people: [{ id: accountId, name }], me: accountId }
        : own.data;
      return { ...own, data, spaceSync: null, privateShared, moveIntoSpace: nothingToMove };
    }
    return {
      ...combineAppData(
        own,
        spaceData,
        definition,
        { role, people, id: source.spaceId },
        accountId,
      ),
      spaceId: source.spaceId,
    };
    // `source` is followed through `spaceData` (useVisitorData reopens when it changes).
  }, [own, spaceData, definition, role, people, accountId, name]);
}
