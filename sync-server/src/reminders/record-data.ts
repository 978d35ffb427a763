import { z } from 'zod';
import {
  type Collection,
  collectionSchema,
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
 * What a reminder about records reads: the published app's reminders and collections, and one
 * person's records of an app, read from their data document `data/{appId}/{userId}` in storage.
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

/**
 * A person's records of an app as their data document holds them (its snapshot and the updates
 * logged since), read into a document that is dropped as soon as they are read: nothing stays in
 * memory between reminders. An app they never used has none.
 */
export async function storedRecordsOf(
  storage: Storage,
  appId: string,
  userId: string,
): Promise<ReminderRecord[]> {
  const stored = await storage.documents.loadWithLog(documentName({ kind: 'data', appId, userId }));
  if (!stored.snapshot && stored.log.length === 0) return [];
  const doc = new Y.Doc({ gc: true });
  try {
    replayInto(doc, stored);
    return recordsOfDocument(doc);
  } finally {
    doc.destroy();
  }
}

/** The records of a live data document (one just stored), as plain values. */
export function recordsOfDocument(doc: Y.Doc): ReminderRecord[] {
  return readVisitorData(doc).records.map(({ id, collectionId, values }) => ({
    id,
    collectionId,
    values,
  }));
}

/**
 * The reminders a visitor may turn on: those the server sends. One about a collection that is gone
 * or shared in a space (see `recordsForReminder`) would never arrive, so it is not offered.
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
 * collection (every visitor's app shows them), then the person's own. Null for a collection that
 * is gone, or one shared in a space: its records are the space's, which several people edit and a
 * person may be in several of; the server sends none of those (docs/product/reminders.md).
 */
export function recordsForReminder(
  collections: readonly Collection[],
  collectionId: string,
  own: readonly ReminderRecord[],
): ReminderRecord[] | null {
  const collection = collections.find((c) => c.id === collectionId);
  if (!collection || collection.sharing !== 'private') return null;
  return [
    ...collection.records.map((record) => ({
      id: record.id,
      collectionId,
      values: record.values,
    })),
    ...own.filter((record) => record.collectionId === collectionId),
  ];
}
