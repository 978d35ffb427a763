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
 * The records a person sees in an app, as storage holds them: their own data document's, for the
 * app's private collections, and, when the app has collections shared in a space, those of each
 * of its spaces they are a member of now (someone who left a space is reminded of none of its
 * items). Each document is read (its snapshot and the updates logged since) into a document
 * dropped as soon as its records are read: nothing stays in memory between reminders. `known` is
 * one just stored. An app they never used has none.
 */
export async function storedRecordsOf(
  storage: Storage,
  appId: string,
  userId: string,
  collections: readonly Collection[],
  known?: KnownDocument,
): Promise<ReminderRecord[]> {
  const shared = new Set(collections.filter(isSharedCollection).map((c) => c.id));
  const records = (
    await recordsOfStored(storage, documentName({ kind: 'data', appId, userId }), known)
  ).filter((record) => !shared.has(record.collectionId));
  if (shared.size === 0) return records;
  for (const space of await storage.spaces.listForUser(userId, appId)) {
    const name = documentName({ kind: 'space', spaceId: space.id });
    for (const record of await recordsOfStored(storage, name, known)) {
      if (shared.has(record.collectionId)) records.push(record);
    }
  }
  return records;
}

async function recordsOfStored(
  storage: Storage,
  name: string,
  known: KnownDocument | undefined,
): Promise<ReminderRecord[]> {
  if (known?.name === name) return recordsOfDocument(known.document);
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
 * collection (every visitor's app shows them), then those the person sees (`storedRecordsOf`:
 * their own, or for a collection shared in a space, their spaces'). Null for a collection that is
 * gone.
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
