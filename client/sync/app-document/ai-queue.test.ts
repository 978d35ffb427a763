// First: IndexedDB must exist before Dexie loads.
import { fakeBrowser } from '../../test-support/fake-browser';
import { type AiAction, blankDefinition, fieldSchema } from '@pipit/app-definition';
import { createMemoryDataStore, landAiOutput, type AiOutput } from '@pipit/runtime';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Queue from './ai-queue';

/*
 * The device's queue of AI runs asked for offline: tied to the person who asked, kept across a
 * reload (a fresh module over the same IndexedDB), run when the device comes back online, landed
 * in their target in the visitor's data, and failures keep their reason. fake-indexeddb; the
 * server is a scripted `send`.
 */

let browser: ReturnType<typeof fakeBrowser>;
let queue: typeof Queue;

/** The queue module as a freshly loaded page has it (IndexedDB stays: it is the device's). */
async function loadPage(): Promise<typeof Queue> {
  vi.resetModules();
  return import('./ai-queue');
}

beforeEach(async () => {
  browser = fakeBrowser({ online: false });
  queue = await loadPage();
  const { localDb } = await import('../core/local-db');
  await localDb().aiRuns.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Queues one shopping list run of Ada's for each title, oldest first (a millisecond apart). */
async function queueLists(...titles: string[]) {
  const now = Date.now();
  for (const [i, title] of titles.entries()) {
    await queue.queueAiRun(
      {
        owner: ADA,
        appId: APP,
        aiActionId: 'make-list',
        bindings: { 'record.title': title },
        recordId: null,
      },
      now + i,
    );
  }
}

const lists = {
  id: 'lists',
  name: 'Shopping lists',
  fields: [
    fieldSchema.parse({ id: 'name', name: 'Name', type: 'text', required: true }),
    fieldSchema.parse({ id: 'items', name: 'Items', type: 'longText', required: true }),
    fieldSchema.parse({ id: 'servings', name: 'Servings', type: 'number' }),
  ],
  records: [],
  sharing: 'private' as const,
  recordRule: 'anyone' as const,
};
const notes = {
  id: 'notes',
  name: 'Notes',
  fields: [
    fieldSchema.parse({ id: 'title', name: 'Title', type: 'text', required: true }),
    fieldSchema.parse({ id: 'summary', name: 'Summary', type: 'text' }),
  ],
  records: [],
  sharing: 'private' as const,
  recordRule: 'anyone' as const,
};
const makeList: AiAction = {
  id: 'make-list',
  name: 'Shopping list',
  prompt: 'List for {{record.title}}',
  output: { kind: 'record', collectionId: 'lists' },
  target: { kind: 'createRecord', collectionId: 'lists' },
};
const summarise: AiAction = {
  id: 'summarise',
  name: 'Summarise',
  prompt: 'Summarise {{record.title}}',
  output: { kind: 'text' },
  target: { kind: 'field', fieldId: 'summary' },
};
const definition = {
  ...blankDefinition('Kitchen'),
  collections: [lists, notes],
  aiActions: [makeList, summarise],
};

const ADA = 'account-ada';
const BO = 'account-bo';
const APP = 'app-1';

function options(
  owner: string,
  store: ReturnType<typeof createMemoryDataStore>,
  send: Queue.RunQueuedOptions<AiOutput>['send'],
): Queue.RunQueuedOptions<AiOutput> {
  return {
    owner,
    appId: APP,
    send,
    land: (run, output) =>
      landAiOutput(definition, store.getSnapshot(), run.aiActionId, run.recordId, output),
  };
}

const done = (output: AiOutput) => async () => ({ status: 'done' as const, output });

describe('AI runs queued on the device', () => {
  it('keeps a run across a reload and runs it when the device comes back online', async () => {
    await queue.queueAiRun({
      owner: ADA,
      appId: APP,
      aiActionId: 'make-list',
      bindings: { 'record.title': 'Dal' },
      recordId: null,
    });
    queue = await loadPage();
    const store = createMemoryDataStore();
    const send = vi.fn(
      done({ kind: 'record', values: { name: 'Shopping for Dal', items: 'Lentils' } }),
    );
    const stop = queue.runQueuedAiRunsWhenOnline(options(ADA, store, send));
    // Offline: nothing is sent yet.
    expect(send).not.toHaveBeenCalled();
    const [waiting] = await queue.aiRunsOf(ADA, APP);
    expect(waiting).toMatchObject({ state: 'queued', bindings: { 'record.title': 'Dal' } });

    const finished = new Promise<Queue.LocalAiRun[]>((resolve) => {
      const unwatch = queue.watchAiRuns(ADA, APP, (runs) => {
        if (runs[0]?.state === 'done') {
          unwatch();
          resolve(runs);
        }
      });
    });
    browser.navigator.onLine = true;
    window.dispatchEvent(new Event('online'));
    const [ran] = await finished;
    stop();
    expect(send).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({ aiActionId: 'make-list' }),
    );
    expect(ran).toMatchObject({
      state: 'done',
      text: 'Added “Shopping for Dal” to Shopping lists.\nName: Shopping for Dal\nItems: Lentils',
    });
    expect(store.getSnapshot().records).toEqual([
      expect.objectContaining({
        collectionId: 'lists',
        values: expect.objectContaining({ name: 'Shopping for Dal', items: 'Lentils' }),
      }),
    ]);
  });

  it('tries again within seconds when the server could not take a run just after coming online', async () => {
    await queueLists('Dal');
    browser.navigator.onLine = true;
    const store = createMemoryDataStore();
    // The first send finds the server out of reach (the network just came back); the next works.
    const send = vi
      .fn<Queue.RunQueuedOptions<AiOutput>['send']>()
      .mockResolvedValueOnce({ status: 'later' })
      .mockImplementation(
        done({ kind: 'record', values: { name: 'Shopping for Dal', items: 'x' } }),
      );
    const startedAt = Date.now();
    const stop = queue.runQueuedAiRunsWhenOnline(options(ADA, store, send));
    try {
      await vi.waitFor(() => expect(store.getSnapshot().records).toHaveLength(1), {
        timeout: 10_000,
        interval: 50,
      });
    } finally {
      stop();
    }
    expect(send).toHaveBeenCalledTimes(2);
    // Sooner than the half-minute retry, not at once (a burst would hit the rate limit).
    const waited = Date.now() - startedAt;
    expect(waited).toBeGreaterThanOrEqual(1_900);
    expect(waited).toBeLessThan(10_000);
    expect((await queue.aiRunsOf(ADA, APP))[0]).toMatchObject({ state: 'done' });
  }, 15_000);

  it('is tied to the person: another account on the device never sees or runs it', async () => {
    await queue.queueAiRun({
      owner: ADA,
      appId: APP,
      aiActionId: 'make-list',
      bindings: {},
      recordId: null,
    });
    browser.navigator.onLine = true;
    const send = vi.fn(done({ kind: 'record', values: { name: 'x', items: 'y' } }));
    const store = createMemoryDataStore();
    await queue.runQueuedAiRuns(options(BO, store, send));
    expect(send).not.toHaveBeenCalled();
    expect(await queue.aiRunsOf(BO, APP)).toEqual([]);
    await queue.dismissAiRun(BO, (await queue.aiRunsOf(ADA, APP))[0]!.id);
    expect(await queue.aiRunsOf(ADA, APP)).toHaveLength(1);
    expect(store.getSnapshot().records).toEqual([]);
  });

  it('sets the field of the record it was asked for, by id', async () => {
    const store = createMemoryDataStore();
    const first = store.getSnapshot().create(notes, { title: 'First' });
    const second = store.getSnapshot().create(notes, { title: 'Second' });
    await queue.queueAiRun({
      owner: ADA,
      appId: APP,
      aiActionId: 'summarise',
      bindings: { 'record.title': 'Second' },
      recordId: second,
    });
    browser.navigator.onLine = true;
    await queue.runQueuedAiRuns(options(ADA, store, done({ kind: 'text', text: 'Short.' })));
    const values = new Map(store.getSnapshot().records.map((r) => [r.id, r.values.summary]));
    expect(values.get(second)).toBe('Short.');
    expect(values.get(first)).toBeNull();
  });

  it('keeps the reason of a failed run, and saves nothing for an answer that does not fit', async () => {
    for (const title of ['One', 'Two']) {
      await queue.queueAiRun({
        owner: ADA,
        appId: APP,
        aiActionId: 'make-list',
        bindings: { 'record.title': title },
        recordId: null,
      });
    }
    browser.navigator.onLine = true;
    const store = createMemoryDataStore();
    const answers = [
      { status: 'failed' as const, problem: 'You have used all of today’s AI runs.' },
      {
        status: 'done' as const,
        output: { kind: 'record' as const, values: { name: 'No items' } },
      },
    ];
    await queue.runQueuedAiRuns(options(ADA, store, async () => answers.shift()!));
    const runs = await queue.aiRunsOf(ADA, APP);
    expect(runs.map((r) => [r.state, r.problem])).toEqual([
      ['failed', 'You have used all of today’s AI runs.'],
      ['failed', expect.stringMatching(/^The AI’s answer didn’t fit\..* Nothing was saved\.$/)],
    ]);
    expect(store.getSnapshot().records).toEqual([]);
  });

  it('stops at a run that cannot reach the server, and keeps it queued', async () => {
    for (const title of ['One', 'Two']) {
      await queue.queueAiRun({
        owner: ADA,
        appId: APP,
        aiActionId: 'make-list',
        bindings: { 'record.title': title },
        recordId: null,
      });
    }
    browser.navigator.onLine = true;
    const send = vi.fn(async () => ({ status: 'later' as const }));
    await queue.runQueuedAiRuns(options(ADA, createMemoryDataStore(), send));
    expect(send).toHaveBeenCalledTimes(1);
    expect((await queue.aiRunsOf(ADA, APP)).map((r) => r.state)).toEqual(['queued', 'queued']);
  });

  it('sends nothing more once stopped mid-pass, and keeps the answer for the owner’s next pass', async () => {
    await queueLists('One', 'Two');
    browser.navigator.onLine = true;
    // The first run is answered only after its page stopped the pass (Ada signed out).
    let answer: (() => void) | undefined;
    const left = createMemoryDataStore();
    const sendBefore = vi.fn(
      (run: Queue.LocalAiRun) =>
        new Promise<Queue.AiRunSent<AiOutput>>((resolve) => {
          answer = () =>
            resolve({
              status: 'done',
              output: {
                kind: 'record',
                values: { name: `List ${run.bindings['record.title']}`, items: 'Rice' },
              },
            });
        }),
    );
    const stop = queue.runQueuedAiRunsWhenOnline(options(ADA, left, sendBefore));
    await vi.waitFor(() => expect(sendBefore).toHaveBeenCalledTimes(1));
    stop();

    // Ada opens the app again while the stopped pass still waits for its answer: a pass of its own.
    const back = createMemoryDataStore();
    const sendAfter = vi.fn(done({ kind: 'record', values: { name: 'List Two', items: 'Beans' } }));
    const next = queue.runQueuedAiRuns(options(ADA, back, sendAfter));
    answer!();
    await next;

    expect(sendBefore).toHaveBeenCalledTimes(1);
    // The answered run is landed from the kept answer: the server is asked once for each run.
    expect(sendAfter).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({ bindings: { 'record.title': 'Two' } }),
    );
    expect(left.getSnapshot().records).toEqual([]);
    expect(back.getSnapshot().records.map((r) => r.values.name)).toEqual(['List One', 'List Two']);
    const runs = await queue.aiRunsOf(ADA, APP);
    expect(runs.map((r) => r.state)).toEqual(['done', 'done']);
    expect(runs.map((r) => r.output)).toEqual([undefined, undefined]);
  });

  it('keeps a stopped pass’s answer queued until its owner runs the queue again', async () => {
    await queueLists('One', 'Two');
    browser.navigator.onLine = true;
    let active = true;
    const left = createMemoryDataStore();
    const send = vi.fn(async () => {
      active = false; // signed out while the server answered
      return {
        status: 'done' as const,
        output: { kind: 'record' as const, values: { name: 'List One', items: 'Rice' } },
      };
    });
    await queue.runQueuedAiRuns({ ...options(ADA, left, send), isActive: () => active });
    expect(send).toHaveBeenCalledTimes(1);
    expect(left.getSnapshot().records).toEqual([]);
    const [kept, waiting] = await queue.aiRunsOf(ADA, APP);
    expect(kept).toMatchObject({
      state: 'queued',
      output: { kind: 'record', values: { name: 'List One' } },
    });
    expect(waiting).toMatchObject({ state: 'queued' });
    expect(waiting?.output).toBeUndefined();

    // Another account on the device never lands it.
    const bo = createMemoryDataStore();
    await queue.runQueuedAiRuns(options(BO, bo, send));
    expect(bo.getSnapshot().records).toEqual([]);
    expect(send).toHaveBeenCalledTimes(1);
  });
});
