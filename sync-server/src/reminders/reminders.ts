import { createHash } from 'node:crypto';
import {
  type Collection,
  formulaEnvAt,
  formulaMatches,
  isSharedCollection,
  isTooLate,
  nextOccurrence,
  nextRecordOccurrence,
  type Reminder,
  type ReminderRecord,
  recordsDueAt,
} from '@pipit/app-definition';
import { appPwaPaths, documentName, type PushMessage, type RecordsDocument } from '@pipit/protocol';
import type * as Y from 'yjs';
import type { Clock } from '../accounts/clock';
import type { Logger } from '../logger';
import { createPublishedView } from '../publishing/published-view';
import type { PushOutcome, PushSender } from '../push/sender';
import { type Job, RetryLater, type SharedScheduler } from '../scheduler';
import type {
  OccurrenceKey,
  ReminderKey,
  ReminderPreferenceRecord,
  Storage,
} from '../storage/types';
import { reminderText } from './messages';
import {
  NO_REMINDERS,
  type PublishedReminders,
  type KnownDocument,
  NO_RECORDS,
  type PersonRecords,
  personRecords,
  recordsForReminder,
  remindersOfDefinition,
} from './record-data';

/** How often every turned-on reminder is checked to have its next occurrence queued. */
export const REMINDER_SWEEP_INTERVAL_MS = 5 * 60 * 1000;
const SWEEP_PAGE = 200;
/**
 * About this many documents (people's data and their spaces' of an app) are read by one sweep, for
 * reminders counted from a record's date: it stops before the next person once they are read, and
 * the next sweep goes on where this one stopped. Those reminders are queued when
 * the person turns them on and whenever their data is stored, so the sweep only catches what
 * those missed (a server stopped in between), and may take its time.
 */
export const RECORD_SWEEP_DOCUMENTS = 50;
/**
 * Reminders one instance sends at once. A job mostly waits — on the database and on the push
 * service, tens to hundreds of milliseconds away in production — so more than the scheduler's
 * default of four: `npm run bench -- push` sends 10,000 due at one minute within it on either engine
 * (docs/product/reminders.md#figures). The database pools bound what runs in them meanwhile.
 */
export const REMINDER_CONCURRENCY = 16;
/** A reminder a phone gets after this long offline is stale: the push service may drop it. */
const REMINDER_TTL_SECONDS = 60 * 60;

/** The scheduler key of an occurrence's job: one job per occurrence, whoever queues it. */
export const jobKey = (key: OccurrenceKey) =>
  `reminder:${key.userId}:${key.appId}:${key.reminderId}:${key.occurrence}`;

/** One tag per occurrence: a copy sent twice replaces the first on the device (at least once). */
export const tagOf = (key: OccurrenceKey) =>
  `r-${createHash('sha256').update(jobKey(key)).digest('base64url').slice(0, 22)}`;

/** A person's turned-on reminder, with the published app's collections it may be about. */
interface Found {
  record: ReminderPreferenceRecord;
  reminder: Reminder;
  collections: Collection[];
}

const isAboutRecords = (reminder: Reminder) =>
  reminder.schedule.kind === 'recordDay' || reminder.schedule.kind === 'recordTime';

/**
 * The records a reminder about a collection reads: null when the collection is gone. The person's
 * documents are read only once the collection is known.
 */
async function recordsOf(found: Found, collectionId: string, own: PersonRecords) {
  const collection = found.collections.find((c) => c.id === collectionId);
  if (!collection) return null;
  const records = recordsForReminder(found.collections, collectionId, await own.of(collection));
  return records && { collection, records };
}

/** The occurrence after `after` of a person's reminder, or null when there is none. */
async function nextOf(found: Found, after: number, own: PersonRecords): Promise<number | null> {
  const { schedule } = found.reminder;
  const { preferences } = found.record;
  if (schedule.kind === 'weekly' || schedule.kind === 'formula') {
    return nextOccurrence(schedule, preferences, after);
  }
  if (!preferences.enabled) return null;
  const read = await recordsOf(found, schedule.collectionId, own);
  if (!read) return null;
  return nextRecordOccurrence(schedule, preferences, read.records, after)?.occurrence ?? null;
}

/** What the reminders' work needs, for the functions that do it outside `createReminders`. */
interface Context {
  storage: Storage;
  sender: PushSender;
  clock: Clock;
  logger: Logger;
  /** The app's published reminders and collections (worked out once per published version). */
  published(appId: string): Promise<PublishedReminders>;
  /** Queues a job for an occurrence (starting the scheduler if it is not yet). */
  enqueue(key: OccurrenceKey): Promise<void>;
}

async function enqueueNext(context: Context, found: Found, after: number, own: PersonRecords) {
  const occurrence = await nextOf(found, after, own);
  if (occurrence === null) return null;
  const { userId, appId, reminderId } = found.record;
  await context.enqueue({ userId, appId, reminderId, occurrence });
  return occurrence;
}

async function current(context: Context, userId: string, appId: string, reminderId: string) {
  const record = await context.storage.reminderPreferences.get(userId, appId, reminderId);
  if (!record?.preferences.enabled) return null;
  const { reminders, collections } = await context.published(appId);
  const reminder = reminders.find((r) => r.id === reminderId);
  return reminder ? { record, reminder, collections } : null;
}

async function sendToDevices(
  context: Context,
  key: OccurrenceKey,
  text: { title: string; body: string },
): Promise<PushOutcome[]> {
  const message: PushMessage = {
    ...text,
    path: appPwaPaths(key.appId).page,
    tag: tagOf(key),
    appId: key.appId,
  };
  const devices = (
    await context.storage.pushSubscriptions.listForUser(key.userId, key.appId)
  ).filter((s) => s.disabledAt === null);
  const outcomes: PushOutcome[] = [];
  for (const device of devices) {
    outcomes.push(
      await context.sender.sendPush(
        device,
        { ...message },
        { ttl: REMINDER_TTL_SECONDS, urgency: 'normal' },
      ),
    );
  }
  return outcomes;
}

/** What an occurrence is about: the records it names, or nothing for a weekly reminder. */
type About = { collection: Collection; records: ReminderRecord[] } | null;

/**
 * The records a due occurrence is about, or `moved` when it should send nothing: the person
 * changed their time, or (counted from records) no record gives this occurrence any more — the
 * record was moved or deleted, and storing that change queued the right one.
 */
async function dueAbout(
  found: Found,
  occurrence: number,
  own: PersonRecords,
): Promise<About | 'moved'> {
  const { schedule } = found.reminder;
  const { preferences } = found.record;
  if (schedule.kind === 'weekly' || schedule.kind === 'formula') {
    return nextOccurrence(schedule, preferences, occurrence - 1) === occurrence ? null : 'moved';
  }
  const read = await recordsOf(found, schedule.collectionId, own);
  const due = read ? recordsDueAt(schedule, preferences, read.records, occurrence) : [];
  return read && due.length > 0 ? { collection: read.collection, records: due } : 'moved';
}

/**
 * The records a formula reminder's formula holds for now, as the person's device would work it
 * out (their zone's today): none when it holds for no record or can't be worked out.
 */
async function formulaAbout(context: Context, found: Found, own: PersonRecords): Promise<About> {
  const { schedule } = found.reminder;
  if (schedule.kind !== 'formula') return null;
  const read = await recordsOf(found, schedule.collectionId, own);
  const env = formulaEnvAt(context.clock.now(), found.record.preferences.timeZone);
  if (!read || !env) return null;
  const matched = formulaMatches(found.collections, schedule, read.records, env);
  return matched && matched.length > 0 ? { collection: read.collection, records: matched } : null;
}

/** Sends one due occurrence: the scheduler's handler for `reminder` jobs. */
async function deliverOccurrence(context: Context, job: Job<'reminder'>) {
  const { storage, clock, logger } = context;
  const key: OccurrenceKey = job.payload;
  const found = await current(context, key.userId, key.appId, key.reminderId);
  // Turned off, or the reminder left the app: nothing to send and nothing to queue.
  if (!found) return;
  const own = personRecords(storage, key.appId, key.userId);
  let about = await dueAbout(found, key.occurrence, own);
  if (about === 'moved') {
    // Queued again all the same (once per occurrence), in case storing the change did not.
    if (isAboutRecords(found.reminder)) {
      await enqueueNext(context, found, Math.max(key.occurrence, clock.now()), own);
    }
    return;
  }
  if (!(await storage.reminderDeliveries.claimOccurrence(key, job.id, clock.now()))) return;
  if (isTooLate(key.occurrence, clock.now())) {
    await storage.reminderDeliveries.markOccurrence(key, 'missed', clock.now());
    logger.info({ ...key }, 'a reminder was too late to send; it is recorded as missed');
  } else if (
    found.reminder.schedule.kind === 'formula' &&
    (about = await formulaAbout(context, found, own)) === null
  ) {
    await storage.reminderDeliveries.markOccurrence(key, 'skipped', clock.now());
  } else {
    const text = reminderText(found.reminder, found.record.preferences, about);
    const outcomes = await sendToDevices(context, key, text);
    const retry = outcomes.filter((o) => o.kind === 'retry_later');
    if (retry.length > 0 && !outcomes.some((o) => o.kind === 'sent')) {
      throw new RetryLater(Math.max(...retry.map((o) => o.delayMs)), retry[0]!.reason);
    }
    await storage.reminderDeliveries.markOccurrence(key, 'sent', clock.now());
  }
  await enqueueNext(context, found, Math.max(key.occurrence, clock.now()), own);
}

/** The published reminders of each app a sweep meets, read once per sweep. */
function definitionsCache(context: Context) {
  const definitions = new Map<string, Promise<PublishedReminders>>();
  return async (record: ReminderPreferenceRecord): Promise<Found | null> => {
    let published = definitions.get(record.appId);
    if (!published) {
      published = context.published(record.appId);
      definitions.set(record.appId, published);
    }
    const { reminders, collections } = await published;
    const reminder = reminders.find((r) => r.id === record.reminderId);
    return reminder ? { record, reminder, collections } : null;
  };
}

/**
 * Every turned-on reminder a clock alone decides (weekly, and the checks of formula reminders)
 * gets its next occurrence queued; those counted from records are `sweepRecords`'.
 */
async function sweepClocks(context: Context): Promise<number> {
  const foundOf = definitionsCache(context);
  let queued = 0;
  let after: ReminderKey | undefined;
  for (;;) {
    const page = await context.storage.reminderPreferences.listEnabled(SWEEP_PAGE, after);
    for (const record of page.records) {
      const found = await foundOf(record);
      if (!found || isAboutRecords(found.reminder)) continue;
      if ((await enqueueNext(context, found, context.clock.now(), NO_RECORDS)) !== null) {
        queued += 1;
      }
    }
    if (page.next === null) return queued;
    after = page.next;
  }
}

/**
 * Reminders counted from records, from `from` on, until `documents` documents were read (a
 * person's data and spaces of an app serve their reminders of it together: the rows come in that
 * order; the sweep stops before the next person once the budget is spent). Answers how many were
 * queued and where the next sweep goes on (undefined: from the start). A person whose reminder
 * fails (a document that does not read, the database away) ends this sweep, which the next one
 * resumes after them, so one bad document never holds the sweep at one place.
 */
async function sweepRecords(
  context: Context,
  from: ReminderKey | undefined,
  documents: number,
): Promise<{ queued: number; resume: ReminderKey | undefined }> {
  const foundOf = definitionsCache(context);
  let queued = 0;
  /** Documents read for the people before the current one. */
  let loaded = 0;
  let reading: { of: string; records: PersonRecords } | undefined;
  let after = from;
  for (;;) {
    const page = await context.storage.reminderPreferences.listEnabled(SWEEP_PAGE, after);
    for (const record of page.records) {
      const key = { userId: record.userId, appId: record.appId, reminderId: record.reminderId };
      const found = await foundOf(record);
      if (found && isAboutRecords(found.reminder)) {
        const of = `${record.userId}/${record.appId}`;
        if (reading?.of !== of) {
          loaded += reading?.records.loaded() ?? 0;
          if (loaded >= documents) return { queued, resume: after };
          reading = { of, records: personRecords(context.storage, record.appId, record.userId) };
        }
        try {
          if ((await enqueueNext(context, found, context.clock.now(), reading.records)) !== null) {
            queued += 1;
          }
        } catch (error) {
          context.logger.warn(
            { err: error, task: 'reminders-sweep', ...key },
            'queuing a reminder counted from records failed; the next sweep goes on after it',
          );
          return { queued, resume: key };
        }
      }
      after = key;
    }
    if (page.next === null) return { queued, resume: undefined };
    after = page.next;
  }
}

/**
 * Each of the person's turned-on reminders of the app that counts from records, of those `about`
 * lets through, gets the occurrence the records now give queued: after a document of records was
 * stored (`known`, read as it is, not from storage again), or they joined a space.
 */
async function requeueRecordReminders(
  context: Context,
  userId: string,
  appId: string,
  known: KnownDocument | undefined,
  about: (reminder: Reminder) => boolean,
  /** The app's published reminders when the caller has read them already (a space's members). */
  read?: PublishedReminders,
) {
  const chosen = (await context.storage.reminderPreferences.listForUser(userId, appId)).filter(
    (record) => record.preferences.enabled,
  );
  if (chosen.length === 0) return;
  const { reminders, collections } = read ?? (await context.published(appId));
  const own = personRecords(context.storage, appId, userId, known);
  for (const record of chosen) {
    const reminder = reminders.find((r) => r.id === record.reminderId);
    if (!reminder || !isAboutRecords(reminder) || !about(reminder)) continue;
    await enqueueNext(context, { record, reminder, collections }, context.clock.now(), own);
  }
}

/** Whether a reminder counts from the records of one of `collections` shared in a space. */
function aboutSharedOf(collections: readonly Collection[]) {
  const shared = new Set(collections.filter(isSharedCollection).map((c) => c.id));
  return ({ schedule }: Reminder) =>
    schedule.kind !== 'weekly' && schedule.kind !== 'formula' && shared.has(schedule.collectionId);
}

async function recordsStored(context: Context, name: RecordsDocument, document: Y.Doc) {
  const known = { name: documentName(name), document };
  if (name.kind === 'data') {
    await requeueRecordReminders(context, name.userId, name.appId, known, () => true);
    return;
  }
  // A space's: its members' reminders about the app's shared collections, if it has any.
  const space = await context.storage.spaces.get(name.spaceId);
  if (!space) return;
  const published = await context.published(space.appId);
  const aboutSpace = aboutSharedOf(published.collections);
  if (!published.reminders.some(aboutSpace)) return;
  for (const member of await context.storage.spaces.members(name.spaceId)) {
    await requeueRecordReminders(context, member.userId, space.appId, known, aboutSpace, published);
  }
}

export interface Reminders {
  /** Queues the next occurrence of a person's reminder, if it is on (idempotent). */
  scheduleNext(userId: string, appId: string, reminderId: string): Promise<number | null>;
  /** Sends one due occurrence: the scheduler's handler for `reminder` jobs. */
  deliver(job: Job<'reminder'>): Promise<void>;
  /** Makes sure every turned-on reminder has its next occurrence queued. */
  sweep(): Promise<number>;
  /**
   * A document of records was stored — a person's data of an app, or a space's: the reminders
   * counted from its records that they (or the space's members) turned on get the occurrence the
   * records now give queued. Costs one lookup of a person's choices when none is on, and nothing
   * for a space whose app has no reminder about its shared collections.
   */
  recordsStored(name: RecordsDocument, document: Y.Doc): Promise<void>;
  /**
   * Someone joined a space of the app: their turned-on reminders about its shared collections get
   * the occurrence its items give queued now, not at the next edit or sweep. Never throws: a
   * failure is logged, and the sweep catches up.
   */
  joinedSpace(userId: string, appId: string): Promise<void>;
  /** The app's published reminders and collections (none without a published version). */
  published(appId: string): Promise<PublishedReminders>;
  stop(): Promise<void>;
}

export function createReminders(deps: {
  storage: Storage;
  /** The server's one scheduler; this module registers its `reminder` handler on it. */
  scheduler: SharedScheduler;
  sender: PushSender;
  clock: Clock;
  logger: Logger;
  sweepIntervalMs?: number;
  /** People's data documents one sweep reads at most (RECORD_SWEEP_DOCUMENTS; tests make it 1). */
  recordSweepDocuments?: number;
}): Reminders {
  const { storage, clock, logger } = deps;
  const publishedView = createPublishedView(storage, remindersOfDefinition);

  /**
   * The scheduler starts when the first reminder is turned on (or found on at start-up), so an
   * instance whose apps have none runs no queue at all.
   */
  const started = () => deps.scheduler.started();

  const context: Context = {
    storage,
    sender: deps.sender,
    clock,
    logger,
    published: async (appId) => (await publishedView(appId)) ?? NO_REMINDERS,
    async enqueue(key) {
      await (
        await started()
      ).enqueue({ kind: 'reminder', key: jobKey(key), runAt: key.occurrence, payload: key });
    },
  };
  const deliver = (job: Job<'reminder'>) => deliverOccurrence(context, job);
  deps.scheduler.work('reminder', deliver, { concurrency: REMINDER_CONCURRENCY });

  /** Where the next sweep of reminders counted from records goes on. */
  let recordsFrom: ReminderKey | undefined;
  async function sweepOnce() {
    if (stopped) return 0;
    const clocks = await sweepClocks(context);
    const records = await sweepRecords(
      context,
      recordsFrom,
      deps.recordSweepDocuments ?? RECORD_SWEEP_DOCUMENTS,
    );
    recordsFrom = records.resume;
    return clocks + records.queued;
  }

  /**
   * One sweep at a time on an instance, the timer's and any other asked for: each goes on where
   * the one before stopped reading people's data.
   */
  let last: Promise<unknown> = Promise.resolve();
  function sweep(): Promise<number> {
    const run = last.then(sweepOnce, sweepOnce);
    last = run.catch(() => undefined);
    return run;
  }
  let ticking = false;
  let stopped = false;
  const tick = () => {
    if (ticking) return;
    ticking = true;
    void sweep()
      .catch((error: unknown) =>
        logger.warn(
          { err: error, task: 'reminders-sweep' },
          'checking the reminders queued failed; trying again later',
        ),
      )
      .finally(() => (ticking = false));
  };
  const timer = setInterval(tick, deps.sweepIntervalMs ?? REMINDER_SWEEP_INTERVAL_MS);
  timer.unref();
  tick();

  return {
    async scheduleNext(userId, appId, reminderId) {
      const found = await current(context, userId, appId, reminderId);
      if (!found) return null;
      const own = personRecords(storage, appId, userId);
      return enqueueNext(context, found, clock.now(), own);
    },
    deliver,
    sweep,
    published: context.published,
    recordsStored: (name, document) => recordsStored(context, name, document),
    async joinedSpace(userId, appId) {
      try {
        const { collections } = await context.published(appId);
        await requeueRecordReminders(context, userId, appId, undefined, aboutSharedOf(collections));
      } catch (error) {
        logger.warn(
          { err: error, task: 'reminders', userId, appId },
          'queuing the reminders of someone who joined a space failed; the sweep catches up',
        );
      }
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      // The scheduler is the server's, stopped after every module that queues on it.
      await last;
    },
  };
}
