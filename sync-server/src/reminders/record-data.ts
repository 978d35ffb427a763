import { z } from 'zod';
import {
  type Collection,
  collectionSchema,
  isSharedCollection,
  readVisitorData,
  type Reminder,
  type ReminderRecord,
  reminderSchema,
} from '@pipit/app-definition';
import { documentName } from '@pipit/protocol';
import * as Y from 'yjs';
import { replayInto } from '../storage/replay';
import type { Storage } from '../storage/types';

/*
 * What a reminder about records reads: the published app's reminders and collections, and the
 * records one person sees in an app: their own, from their data document `data/{appId}/{userId}`,
 * and their spaces', from each `space/{spaceId}` of the app they are a member of.
 */

/**
 * The reminders a published app defines, read from its served version. A version from before
 * reminders existed has none; one that does not read (it passed the publish check of its day) is
 * skipped whole rather than half-trusted. Its collections likewise: without them, no reminder
 * about records is sent.
 */
const publishedReminders = z.object({ reminders: z.array(reminderSchema).default([]) });
const publishedCollections = z.object({ collections: z.array(collectionSchema).default([]) });

export interface PublishedReminders {
  reminders: Reminder[];
  collections: Collection[];
}

/** An app with no published reminders (or none that read). */
export const NO_REMINDERS: PublishedReminders = { reminders: [], collections: [] };

/** The reminders and collections of a published definition (parsed; null when it did not parse). */
export function remindersOfDefinition(definition: unknown): PublishedReminders {
  const reminders = publishedReminders.safeParse(definition);
  if (!reminders.success || reminders.data.reminders.length === 0) return NO_REMINDERS;
  const collections = publishedCollections.safeParse(definition);
  return {
    reminders: reminders.data.reminders,
    collections: collections.success ? collections.data.collections : [],
  };
}

/** A document of records just stored, read as it is rather than from storage again. */
export interface KnownDocument {
  name: string;
  document: Y.Doc;
}

/**
 * The records a person sees in an app (docs/product/spaces.md): in their own list, their data
 * document's; for a collection shared in a space, also those of each of the app's spaces they are
 * a member of now (someone who left a space is reminded of none of its items).
 */
export interface PersonRecords {
  /** The records of `collection` the person sees (the creator's are added by recordsForReminder). */
  of(collection: Collection): Promise<ReminderRecord[]>;
  /** How many documents were read from storage so far (a sweep's budget counts them). */
  loaded(): number;
}

/** A person with no records: reminders on a clock read none. */
export const NO_RECORDS: PersonRecords = { of: () => Promise.resolve([]), loaded: () => 0 };

/**
 * The records a person sees in an app, read from storage when first asked for and kept for one
 * task (a delivery, a store, a person's turn in a sweep): their data document on the first
 * question about any collection, their spaces' documents only on the first about a shared one.
 * Each document is read (its snapshot and the updates logged since) into a document dropped as
 * soon as its records are read: nothing stays in memory between tasks. `known` is one just
 * stored, read as it is. A read that fails is not kept: the next question reads again.
 */
export function personRecords(
  storage: Storage,
  appId: string,
  userId: string,
  known?: KnownDocument,
): PersonRecords {
  let loads = 0;
  const read = (name: string): Promise<ReminderRecord[]> => {
    if (known?.name === name) return Promise.resolve(recordsOfDocument(known.document));
    loads += 1;
    return recordsOfStored(storage, name);
  };
  let own: Promise<ReminderRecord[]> | undefined;
  let spaces: Promise<ReminderRecord[]> | undefined;
  const ownRecords = () =>
    (own ??= read(documentName({ kind: 'data', appId, userId })).catch((error: unknown) => {
      own = undefined;
      throw error;
    }));
  const spaceRecords = () =>
    (spaces ??= (async () => {
      const records: ReminderRecord[] = [];
      for (const space of await storage.spaces.listForUser(userId, appId)) {
        records.push(...(await read(documentName({ kind: 'space', spaceId: space.id }))));
      }
      return records;
    })().catch((error: unknown) => {
      spaces = undefined;
      throw error;
    }));
  return {
    async of(collection) {
      const mine = (await ownRecords()).filter((r) => r.collectionId === collection.id);
      if (!isSharedCollection(collection)) return mine;
      const shared = (await spaceRecords()).filter((r) => r.collectionId === collection.id);
      return [...mine, ...shared];
    },
    loaded: () => loads,
  };
}

async function recordsOfStored(storage: Storage, name: string): Promise<ReminderRecord[]> {
  const stored = await storage.documents.loadWithLog(name);
  if (!stored.snapshot && stored.log.length === 0) return [];
  const doc = new Y.Doc({ gc: true });
  try {
    replayInto(doc, stored);
    return recordsOfDocument(doc);
  } finally {
    doc.destroy();
  }
}

/** The records of a live document of records (one just stored), as plain values. */
export function recordsOfDocument(doc: Y.Doc): ReminderRecord[] {
  return readVisitorData(doc).records.map(({ id, collectionId, values }) => ({
    id,
    collectionId,
    values,
  }));
}

/**
 * The reminders a visitor may turn on: those the server sends. One about a collection that is gone
 * would never arrive, so it is not offered.
 */
export function offeredReminders({ reminders, collections }: PublishedReminders): Reminder[] {
  return reminders.filter(
    (reminder) =>
      reminder.schedule.kind === 'weekly' ||
      recordsForReminder(collections, reminder.schedule.collectionId, []) !== null,
  );
}

/**
 * The records a reminder about `collectionId` reads for one person: the creator's records of the
 * collection (every visitor's app shows them), then those the person sees (`personRecords`). Null
 * for a collection that is gone.
 */
export function recordsForReminder(
  collections: readonly Collection[],
  collectionId: string,
  own: readonly ReminderRecord[],
): ReminderRecord[] | null {
  const collection = collections.find((c) => c.id === collectionId);
  if (!collection) return null;
  return [
    ...collection.records.map((record) => ({
      id: record.id,
      collectionId,
      values: record.values,
    })),
    ...own.filter((record) => record.collectionId === collectionId),
  ];
}
