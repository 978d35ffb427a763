import {
  type Collection,
  collectionSchema,
  createVisitorRecord,
  nextOccurrence,
  type ReminderRecord,
  removeVisitorRecord,
  updateVisitorRecord,
  wallTimeToInstant,
  zonedTime,
} from '@pipit/app-definition';
import { createId, documentName } from '@pipit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { personRecords, recordsForReminder } from '../../src/reminders/record-data';
import { createReminders } from '../../src/reminders/reminders';
import { createSharedScheduler, type Scheduler } from '../../src/scheduler';
import type { Storage } from '../../src/storage/types';
import type { ApiClient } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { acknowledged, connectProvider } from '../support/provider';
import { createPublishedApp } from '../support/published-apps';
import { spaceRecord } from '../support/space-records';
import {
  type PushServiceStandIn,
  startPushServiceStandIn,
  type StandInSubscription,
} from '../support/push-service';

/*
 * Reminders that read a person's records, on the real server with each engine: counted from a
 * record's date (the day before, at the person's time in their zone), and a formula checked over
 * the collection's records. What a device receives is read from the push-service stand-in,
 * decrypted: without the person's say-so it names no record.
 */

const DAY = 24 * 60 * 60 * 1000;
const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];
const ZONE = 'Europe/Paris';

const tasks: Collection = collectionSchema.parse({
  id: 'tasks',
  name: 'Tasks',
  fields: [
    { id: 'title', name: 'Title', type: 'text' },
    { id: 'due', name: 'Due', type: 'date' },
    { id: 'stock', name: 'Stock', type: 'number' },
  ],
  records: [],
});

/** Publishes a new version of `appId` with the tasks collection and these reminders. */
async function publishWith(
  storage: Storage,
  appId: string,
  reminders: unknown[],
  collections: Collection[] = [tasks],
) {
  const app = await storage.apps.get(appId);
  const version = await storage.publishing.version(appId, app!.publishedVersion!);
  const definition = JSON.parse(version!.definitionJson) as Record<string, unknown>;
  await storage.publishing.publish({
    appId,
    definitionJson: JSON.stringify({ ...definition, collections, reminders }),
    listing: {
      title: version!.title,
      description: version!.description,
      icon: version!.icon,
      tags: version!.tags,
    },
    publisherId: app!.ownerId,
    publishedAt: Date.now(),
    visibility: 'public',
  });
}

const idOf = async (client: ApiClient) =>
  (await client.get<{ account: { id: string } }>('/api/auth/session')).body.account.id;

/** The day `days` after today on the Paris calendar, as a date field holds it. */
function parisDay(days: number): string {
  const today = zonedTime(Date.now(), ZONE)!.day;
  return new Date((today + days) * DAY).toISOString().slice(0, 10);
}

/** 08:30 in Paris on a `YYYY-MM-DD`. */
function parisMorning(date: string): number {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return wallTimeToInstant({ year, month, day }, { hour: 8, minute: 30 }, ZONE)!;
}

describe.each(ENGINES)('reminders about records on %s', (engine) => {
  let h: AccountsHarness;
  let push: PushServiceStandIn;
  let ada: ApiClient;
  let cleo: ApiClient;
  let adaId: string;
  let appId: string;
  let device: StandInSubscription;
  const dayBefore = createId();
  const dayBeforeNamed = createId();
  const lowStock = createId();
  const storage = (): Storage => h.pipit.server.storage;
  const data = new Y.Doc();

  const store = () =>
    storage().documents.store(
      documentName({ kind: 'data', appId, userId: adaId }),
      Y.encodeStateAsUpdate(data),
    );
  const job = (reminderId: string, occurrence: number) => ({
    id: `job-${createId()}`,
    kind: 'reminder' as const,
    key: `k-${createId()}`,
    attempt: 1,
    payload: { userId: adaId, appId, reminderId, occurrence },
  });
  const delivered = () =>
    push.deliveredTo(device).map((d) => JSON.parse(d.payload) as { title: string; body: string });
  const statusOf = (reminderId: string, occurrence: number) =>
    storage().reminderDeliveries.occurrenceStatus({
      userId: adaId,
      appId,
      reminderId,
      occurrence,
    });
  const put = (reminderId: string, body: unknown) =>
    ada.request('PUT', `/api/apps/${appId}/reminders/${reminderId}`, { body });

  beforeAll(async () => {
    push = await startPushServiceStandIn();
    h = await startAccountsServer(engine, {
      pushAgent: push.agent,
      pushEndpoints: (url) => url.origin === push.origin,
    });
    cleo = await h.signup(`cleo_rec_${engine}`);
    ada = await h.signup(`ada_rec_${engine}`);
    adaId = await idOf(ada);
    appId = await createPublishedApp(storage(), cleo, { visibility: 'public' });
    const recordDay = { kind: 'recordDay', collectionId: 'tasks', fieldId: 'due', days: -1 };
    await publishWith(storage(), appId, [
      {
        id: dayBefore,
        title: 'Due tomorrow',
        body: 'Have a look at your tasks.',
        schedule: { ...recordDay, time: '09:00' },
      },
      {
        id: dayBeforeNamed,
        title: 'Due tomorrow',
        body: '',
        schedule: { ...recordDay, time: '09:00' },
      },
      {
        id: lowStock,
        title: 'Running low',
        body: 'Time to restock.',
        schedule: {
          kind: 'formula',
          collectionId: 'tasks',
          formula: '{Stock} < 3',
          days: EVERY_DAY,
          time: '07:00',
        },
      },
    ]);
    const publicKey = (await ada.get<{ publicKey: string }>('/api/push/key')).body.publicKey;
    device = push.subscribe({ applicationServerKey: publicKey });
    const subscribed = await ada.post('/api/push/subscriptions', {
      appId,
      deviceId: createId(),
      subscription: device,
    });
    expect(subscribed.status).toBe(201);
  });
  afterAll(async () => {
    data.destroy();
    await h.close();
    await push.close();
  });

  it('names the collection and field each reminder is about, for the Reminders section', async () => {
    const listed = await ada.get<{ names: Record<string, string> }>(`/api/apps/${appId}/reminders`);
    expect(listed.body.names).toEqual({ tasks: 'Tasks', due: 'Due' });
  });

  it('queues the day before a record’s date at the person’s time in their zone; one message counts the records due then', async () => {
    // Written in the other order than the notification names them (by name).
    createVisitorRecord(data, tasks, { title: 'Pay rent', due: parisDay(2) });
    createVisitorRecord(data, tasks, { title: 'Dentist', due: parisDay(2) });
    createVisitorRecord(data, tasks, { title: 'Later', due: parisDay(5) });
    await store();

    const saved = await put(dayBefore, { enabled: true, timeZone: ZONE, time: '08:30' });
    expect(saved.status).toBe(200);
    const next = (saved.body as { next: number }).next;
    expect(next).toBe(parisMorning(parisDay(1)));

    await h.pipit.server.reminders.deliver(job(dayBefore, next));
    await h.pipit.server.reminders.deliver(job(dayBefore, next));
    // Two records due then, one notification; without the person's say-so, no record's name.
    expect(delivered()).toEqual([
      expect.objectContaining({
        title: 'Due tomorrow',
        body: '2 items · Have a look at your tasks.',
      }),
    ]);
    expect(JSON.stringify(push.deliveredTo(device))).not.toContain('Dentist');
    expect(await statusOf(dayBefore, next)).toBe('sent');
  });

  it('sends nothing for an occurrence no record gives any more: moved or deleted', async () => {
    const errand = createVisitorRecord(data, tasks, { title: 'Errand', due: parisDay(10) });
    await store();
    const saved = await put(dayBeforeNamed, { enabled: true, timeZone: ZONE, time: '08:30' });
    const before = delivered().length;
    const old = parisMorning(parisDay(9));

    updateVisitorRecord(data, tasks, errand, { due: parisDay(12) });
    await store();
    await h.pipit.server.reminders.deliver(job(dayBeforeNamed, old));
    expect(delivered()).toHaveLength(before);
    expect(await statusOf(dayBeforeNamed, old)).toBeNull();

    removeVisitorRecord(data, errand);
    await store();
    await h.pipit.server.reminders.deliver(job(dayBeforeNamed, parisMorning(parisDay(11))));
    expect(delivered()).toHaveLength(before);
    expect(saved.status).toBe(200);
  });

  it('names the records only when the person turned that on', async () => {
    const saved = await put(dayBeforeNamed, {
      enabled: true,
      timeZone: ZONE,
      time: '08:30',
      showRecordText: true,
    });
    const next = (saved.body as { next: number }).next;
    expect(next).toBe(parisMorning(parisDay(1)));
    await h.pipit.server.reminders.deliver(job(dayBeforeNamed, next));
    expect(delivered().at(-1)).toEqual(
      expect.objectContaining({ title: 'Due tomorrow', body: 'Dentist, Pay rent' }),
    );
    const listed = await ada.get<{ reminders: { id: string; preferences: unknown }[] }>(
      `/api/apps/${appId}/reminders`,
    );
    expect(listed.body.reminders.find((r) => r.id === dayBeforeNamed)?.preferences).toMatchObject({
      showRecordText: true,
    });
  });

  it('checks a formula at its time: skipped while no record holds, sent once one does', async () => {
    const tea = createVisitorRecord(data, tasks, { title: 'Tea', stock: 5 });
    await store();
    const saved = await put(lowStock, { enabled: true, timeZone: ZONE });
    const first = (saved.body as { next: number }).next;
    expect(zonedTime(first, ZONE)).toMatchObject({ hour: 7, minute: 0 });
    const before = delivered().length;

    await h.pipit.server.reminders.deliver(job(lowStock, first));
    expect(delivered()).toHaveLength(before);
    expect(await statusOf(lowStock, first)).toBe('skipped');
    const second = nextOccurrence(
      {
        kind: 'formula',
        collectionId: 'tasks',
        formula: '',
        days: [1, 2, 3, 4, 5, 6, 7],
        time: '07:00',
      },
      { enabled: true, timeZone: ZONE },
      first,
    )!;
    if (engine === 'sqlite') {
      // The next check was queued by the one that skipped.
      const key = `reminder:${adaId}:${appId}:${lowStock}:${second}`;
      expect(await storage().jobs.get(key)).toMatchObject({ runAt: second });
    }

    updateVisitorRecord(data, tasks, tea, { stock: 2 });
    await store();
    await h.pipit.server.reminders.deliver(job(lowStock, second));
    expect(delivered().slice(before)).toEqual([
      expect.objectContaining({ title: 'Running low', body: '1 item · Time to restock.' }),
    ]);
    expect(await statusOf(lowStock, second)).toBe('sent');
  });

  it('reads at most its share of people’s data a sweep, and goes on where it stopped', async () => {
    const others: string[] = [];
    for (const n of [1, 2]) {
      const who = await idOf(await h.signup(`rec_sweep_${n}_${engine}`));
      const doc = new Y.Doc();
      createVisitorRecord(doc, tasks, { title: 'Visit', due: parisDay(6) });
      await storage().documents.store(
        documentName({ kind: 'data', appId, userId: who }),
        Y.encodeStateAsUpdate(doc),
      );
      doc.destroy();
      await storage().reminderPreferences.put({
        userId: who,
        appId,
        reminderId: dayBefore,
        preferences: { enabled: true, timeZone: ZONE, time: '08:30' },
        updatedAt: Date.now(),
      });
      others.push(who);
    }
    const loads: string[] = [];
    const queued: string[] = [];
    const real = storage();
    const counting: Storage = {
      ...real,
      documents: {
        ...real.documents,
        loadWithLog: (name) => {
          loads.push(name);
          return real.documents.loadWithLog(name);
        },
      },
    };
    const scheduler: Scheduler = {
      engine: 'sqlite',
      enqueue: (request) => {
        queued.push(request.key);
        return Promise.resolve(true);
      },
      work: () => undefined,
      start: () => Promise.resolve(),
      stop: () => Promise.resolve(),
      wake: () => Promise.resolve(),
    };
    const reminders = createReminders({
      storage: counting,
      scheduler: createSharedScheduler(() => scheduler),
      sender: h.pipit.server.push.sender,
      clock: { now: () => Date.now() },
      logger: h.pipit.server.logger,
      recordSweepDocuments: 1,
    });
    try {
      // The sweep at start and three more: three people's data, one a sweep, then the first again.
      for (let i = 0; i < 3; i++) await reminders.sweep();
      const people = [adaId, ...others].map((userId) =>
        documentName({ kind: 'data', appId, userId }),
      );
      expect(loads).toHaveLength(4);
      expect(new Set(loads.slice(0, 3))).toEqual(new Set(people));
      expect(loads[3]).toBe(loads[0]);
      for (const who of others) {
        expect(queued).toContain(
          `reminder:${who}:${appId}:${dayBefore}:${parisMorning(parisDay(5))}`,
        );
      }
    } finally {
      await reminders.stop();
    }
  });

  it('reminds each member of a space of its items, whoever added them; nobody outside it', async () => {
    const spaceApp = await createPublishedApp(storage(), cleo, { visibility: 'public' });
    const aboutSpace = createId();
    const schedule = { kind: 'recordDay', collectionId: 'tasks', fieldId: 'due', days: -1 };
    await publishWith(
      storage(),
      spaceApp,
      [
        {
          id: aboutSpace,
          title: 'Chores tomorrow',
          body: '',
          schedule: { ...schedule, time: '09:00' },
        },
      ],
      [{ ...tasks, sharing: 'space' }],
    );
    const ben = await h.signup(`ben_rec_${engine}`);
    const benId = await idOf(ben);
    const spaceId = createId();
    const limits = { spacesPerPerson: 10, membersPerSpace: 20 };
    expect(
      await storage().spaces.insert(
        { id: spaceId, appId: spaceApp, ownerId: benId, name: 'Our flat', createdAt: Date.now() },
        limits,
      ),
    ).toEqual({ created: true });
    await storage().spaces.join(
      { spaceId, userId: adaId, role: 'member', joinedAt: Date.now() },
      limits,
      { viaLink: false },
    );
    const spaceDoc = new Y.Doc();
    // Ben's item in the space, and one in Ada's own list (the app shows it when she shows no
    // space): she sees both, so both count.
    createVisitorRecord(spaceDoc, tasks, { title: 'Bins', due: parisDay(3) });
    const ownDoc = new Y.Doc();
    createVisitorRecord(ownDoc, tasks, { title: 'Call the landlord', due: parisDay(5) });
    await storage().documents.store(
      documentName({ kind: 'space', spaceId }),
      Y.encodeStateAsUpdate(spaceDoc),
    );
    await storage().documents.store(
      documentName({ kind: 'data', appId: spaceApp, userId: adaId }),
      Y.encodeStateAsUpdate(ownDoc),
    );
    spaceDoc.destroy();
    ownDoc.destroy();

    const listed = await ada.get<{ reminders: { id: string }[] }>(
      `/api/apps/${spaceApp}/reminders`,
    );
    expect(listed.body.reminders.map((r) => r.id)).toEqual([aboutSpace]);
    const saved = await ada.request('PUT', `/api/apps/${spaceApp}/reminders/${aboutSpace}`, {
      body: { enabled: true, timeZone: ZONE, time: '08:30', showRecordText: true },
    });
    expect(saved.status).toBe(200);
    const next = (saved.body as { next: number }).next;
    expect(next).toBe(parisMorning(parisDay(2)));

    const publicKey = (await ada.get<{ publicKey: string }>('/api/push/key')).body.publicKey;
    const phone = push.subscribe({ applicationServerKey: publicKey });
    const subscribed = await ada.post('/api/push/subscriptions', {
      appId: spaceApp,
      deviceId: createId(),
      subscription: phone,
    });
    expect(subscribed.status).toBe(201);
    const occurrence = { userId: adaId, appId: spaceApp, reminderId: aboutSpace, occurrence: next };
    await h.pipit.server.reminders.deliver({ ...job(aboutSpace, next), payload: occurrence });
    expect(push.deliveredTo(phone).map((d) => JSON.parse(d.payload) as unknown)).toEqual([
      expect.objectContaining({ title: 'Chores tomorrow', body: 'Bins' }),
    ]);

    // What a sweep counts against its budget: her data document, and her spaces' only for a
    // collection shared in one.
    const reader = personRecords(storage(), spaceApp, adaId);
    expect((await reader.of(tasks)).map((r) => r.values.title)).toEqual(['Call the landlord']);
    expect(reader.loaded()).toBe(1);
    const shared = await reader.of({ ...tasks, sharing: 'space' });
    expect(shared.map((r) => r.values.title)).toEqual(['Call the landlord', 'Bins']);
    expect(reader.loaded()).toBe(2);

    // Someone in no space of the app, with the reminder on, is reminded of nothing of it.
    const dan = await h.signup(`dan_rec_${engine}`);
    const outside = await dan.request('PUT', `/api/apps/${spaceApp}/reminders/${aboutSpace}`, {
      body: { enabled: true, timeZone: ZONE, time: '08:30', showRecordText: true },
    });
    expect(outside.status).toBe(200);
    expect((outside.body as { next: unknown }).next).toBeNull();

    // Out of the space, Ada is reminded of her own list only.
    expect(await storage().spaces.removeMember(spaceId, adaId)).toBe(true);
    expect(await h.pipit.server.reminders.scheduleNext(adaId, spaceApp, aboutSpace)).toBe(
      parisMorning(parisDay(4)),
    );
  });
});

describe('reminders about records when a person’s data is stored', () => {
  let h: AccountsHarness;
  beforeAll(async () => {
    h = await startAccountsServer('sqlite', { storeDebounceMs: 50, storeMaxDebounceMs: 200 });
  });
  afterAll(async () => {
    await h.close();
  });

  it('queues the occurrence a record added, moved or deleted on a device now gives', async () => {
    const cleo = await h.signup('cleo_rec_hook');
    const ada = await h.signup('ada_rec_hook');
    const storage = h.pipit.server.storage;
    const appId = await createPublishedApp(storage, cleo, { visibility: 'public' });
    const reminderId = createId();
    await publishWith(storage, appId, [
      {
        id: reminderId,
        title: 'Due tomorrow',
        body: '',
        schedule: {
          kind: 'recordDay',
          collectionId: 'tasks',
          fieldId: 'due',
          days: -1,
          time: '08:30',
        },
      },
    ]);
    const adaId = await idOf(ada);
    const saved = await ada.request('PUT', `/api/apps/${appId}/reminders/${reminderId}`, {
      body: { enabled: true, timeZone: ZONE },
    });
    // No record yet: nothing to queue.
    expect((saved.body as { next: unknown }).next).toBeNull();
    const key = (occurrence: number) => `reminder:${adaId}:${appId}:${reminderId}:${occurrence}`;

    const side = connectProvider({
      url: h.pipit.url,
      name: documentName({ kind: 'data', appId, userId: adaId }),
      cookie: ada.cookie,
    });
    try {
      expect(await side.ready).toBe(true);
      const id = createVisitorRecord(side.doc, tasks, { title: 'Dentist', due: parisDay(4) });
      await acknowledged(side.provider);
      const first = parisMorning(parisDay(3));
      await expect
        .poll(async () => (await storage.jobs.get(key(first)))?.runAt, { timeout: 10_000 })
        .toBe(first);

      updateVisitorRecord(side.doc, tasks, id, { due: parisDay(2) });
      await acknowledged(side.provider);
      const moved = parisMorning(parisDay(1));
      await expect
        .poll(async () => (await storage.jobs.get(key(moved)))?.runAt, { timeout: 10_000 })
        .toBe(moved);

      removeVisitorRecord(side.doc, id);
      await acknowledged(side.provider);
      // Deleted: nothing is left to queue, and the jobs already queued find nothing to send.
      await expect
        .poll(() => h.pipit.server.reminders.scheduleNext(adaId, appId, reminderId), {
          timeout: 10_000,
        })
        .toBeNull();
    } finally {
      side.destroy();
      side.doc.destroy();
    }
  });

  it('queues for every member the occurrence an item another added to their space gives', async () => {
    const cleo = await h.signup('cleo_rec_space_hook');
    const ada = await h.signup('ada_rec_space_hook');
    const ben = await h.signup('ben_rec_space_hook');
    const storage = h.pipit.server.storage;
    const appId = await createPublishedApp(storage, cleo, { visibility: 'public' });
    const reminderId = createId();
    const schedule = { kind: 'recordDay', collectionId: 'tasks', fieldId: 'due', days: -1 };
    await publishWith(
      storage,
      appId,
      [
        {
          id: reminderId,
          title: 'Chores tomorrow',
          body: '',
          schedule: { ...schedule, time: '08:30' },
        },
      ],
      [{ ...tasks, sharing: 'space', recordRule: 'anyone' }],
    );
    const [adaId, benId] = [await idOf(ada), await idOf(ben)];
    const spaceId = createId();
    const limits = { spacesPerPerson: 10, membersPerSpace: 20 };
    await storage.spaces.insert(
      { id: spaceId, appId, ownerId: adaId, name: 'Our flat', createdAt: Date.now() },
      limits,
    );
    await storage.spaces.join(
      { spaceId, userId: benId, role: 'member', joinedAt: Date.now() },
      limits,
      { viaLink: false },
    );
    // Ada and Dan, who is in no space yet, and Cleo, who never will be, turn the reminder on.
    const dan = await h.signup('dan_rec_space_hook');
    for (const who of [ada, dan, cleo]) {
      const saved = await who.request('PUT', `/api/apps/${appId}/reminders/${reminderId}`, {
        body: { enabled: true, timeZone: ZONE },
      });
      expect((saved.body as { next: unknown }).next).toBeNull();
    }
    const keyOf = async (who: ApiClient, occurrence: number) =>
      `reminder:${await idOf(who)}:${appId}:${reminderId}:${occurrence}`;

    const side = connectProvider({
      url: h.pipit.url,
      name: documentName({ kind: 'space', spaceId }),
      cookie: ben.cookie,
    });
    try {
      expect(await side.ready).toBe(true);
      side.doc
        .getMap<Y.Map<unknown>>('records')
        .set(createId(), spaceRecord('tasks', benId, '', { title: 'Bins', due: parisDay(4) }));
      await acknowledged(side.provider);
      // Ben added it; Ada, who turned the reminder on, has its occurrence queued; Cleo, outside
      // the space, has nothing.
      const first = parisMorning(parisDay(3));
      const key = await keyOf(ada, first);
      await expect
        .poll(async () => (await storage.jobs.get(key))?.runAt, { timeout: 10_000 })
        .toBe(first);
      expect(await storage.jobs.get(await keyOf(cleo, first))).toBeNull();
      expect(await storage.jobs.get(await keyOf(dan, first))).toBeNull();

      // Dan joins: his reminder reads the space's items at once, before anyone edits again.
      const added = await ada.request('PUT', `/api/spaces/${spaceId}/members/dan_rec_space_hook`, {
        body: { role: 'member' },
      });
      expect(added.status).toBe(201);
      expect((await storage.jobs.get(await keyOf(dan, first)))?.runAt).toBe(first);
      expect(await storage.jobs.get(await keyOf(cleo, first))).toBeNull();
    } finally {
      side.destroy();
      side.doc.destroy();
    }
  });
});

describe('the records a reminder about a collection reads', () => {
  const own: ReminderRecord[] = [
    { id: 'mine', collectionId: 'tasks', values: { title: 'Mine' } },
    { id: 'other', collectionId: 'notes', values: {} },
  ];

  it('is the creator’s records of the collection, then the person’s own', () => {
    const withCreator = { ...tasks, records: [{ id: 'shown', values: { title: 'For all' } }] };
    expect(recordsForReminder([withCreator], 'tasks', own)?.map((r) => r.id)).toEqual([
      'shown',
      'mine',
    ]);
  });

  it('is the records the person sees of a collection shared in a space; none for one that is gone', () => {
    expect(
      recordsForReminder([{ ...tasks, sharing: 'space' }], 'tasks', own)?.map((r) => r.id),
    ).toEqual(['mine']);
    expect(recordsForReminder([tasks], 'gone', own)).toBeNull();
  });
});
