import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { documentName, isSyncCloseReason } from '@pipit/protocol';
import { SYNC_PATH } from '@pipit/protocol';
import type { ApiClient } from '../support/api-client';
import { type AccountsHarness, ENGINES, startAccountsServer } from '../support/engines';
import { acknowledged, connectProvider, type TestProvider } from '../support/provider';
import { createApp, createPublishedApp, verifyEmail } from '../support/publishing';
import { carried, messageFrame, yjsUpdate } from '../support/fuzz-frames';
import { frame, MESSAGE } from '../support/raw-sync';

/**
 * Bad input on the sync socket never harms the server or anyone's documents: seeded frames broken
 * at the message level (random bytes, truncated varints, unknown types, odd document names, huge
 * presence, authentication out of order) and at the update level (corrupted, truncated, missing
 * parts, deletes of unknown ids, other roots), sent over the real websocket by owners, editors,
 * viewers, strangers and signed-out sockets, on an app, a visitor's data and a shared space.
 * Each frame is ignored or closes its connection with one of SYNC_CLOSE_REASONS; no document the
 * sender may not write changes; the heap stays bounded; a normal provider syncs afterwards.
 * `FUZZ_RUNS` and `FUZZ_SEED` (npm run fuzz) set the length and the seed; a failure prints the
 * seed and the shrunk case.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const TIMEOUT_MS = Number(process.env.FUZZ_TIMEOUT_MS ?? 120_000);
/** A long run may stop after this many seconds, with the frames sent so far (npm run fuzz). */
const SECONDS =
  process.env.FUZZ_SECONDS === undefined ? undefined : Number(process.env.FUZZ_SECONDS);
/** A long run says how far it got every so many frames. */
const PROGRESS_EVERY = 1_000;
/** The same seed in `npm test` (a failure is a defect, not luck); a long run explores new ones. */
const CI_SEED = 20261127;
const SEED =
  process.env.FUZZ_SEED !== undefined
    ? Number(process.env.FUZZ_SEED)
    : process.env.FUZZ_RUNS === undefined
      ? CI_SEED
      : Math.floor(Math.random() * 2 ** 31);
/** A printed line that carries a stack trace. */
const STACK = /\n\s+at .+:\d+:\d+/;
/** How long the server may take to answer one frame before the case fails. */
const ANSWER_MS = 10_000;
/** How long an acknowledgement may take once the document answered after the frame. */
const STATUS_MS = 1_000;
/** Heap growth allowed over the whole run, after a full garbage collection. */
const HEAP_GROWTH_BYTES = 96 * 1024 * 1024;
/** Past the slow-down window (resource-bounds.ts), so each case's sender starts afresh. */
const SLOWDOWN_WINDOW_MS = 61_000;

/** A full garbage collection, without starting node with --expose-gc. */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapAfterGc = () => {
  gc();
  return getHeapStatistics().used_heap_size;
};

type Sender = 'owner' | 'editor' | 'viewer' | 'stranger' | 'signed-out' | 'forged';
type Target = 'app' | 'own-data' | 'visitor-data' | 'space';

/** Who may write which target (docs/product/roles.md, docs/product/spaces.md). */
const WRITERS: Record<Target, readonly Sender[]> = {
  app: ['owner', 'editor'],
  'own-data': ['owner', 'editor', 'viewer', 'stranger'],
  'visitor-data': [],
  space: ['owner', 'editor'],
};

/** What the server sent back on one socket. */
type Event =
  | { type: 'authenticated' | 'sync' | 'other'; document: string }
  | { type: 'denied' | 'closed'; document: string; reason: string }
  | { type: 'status'; document: string; applied: boolean }
  | { type: 'socket-closed'; code: number; reason: string };

/** A raw websocket that records every answer; opening resolves with the upgrade's status. */
class FuzzSocket {
  readonly events: Event[] = [];
  private readonly waiters = new Set<() => void>();
  readonly opened: Promise<number>;
  private readonly socket: WebSocket;

  constructor(url: string, cookie: string | null) {
    this.socket = new WebSocket(`${url.replace(/^http/, 'ws')}${SYNC_PATH}`, {
      headers: { Origin: url, ...(cookie ? { Cookie: cookie } : {}) },
    });
    this.socket.binaryType = 'nodebuffer';
    this.opened = new Promise((resolve) => {
      this.socket.once('open', () => resolve(101));
      this.socket.once('unexpected-response', (_request, response) => {
        resolve(response.statusCode ?? 0);
        response.resume();
        this.socket.terminate();
      });
      this.socket.once('error', () => resolve(0));
    });
    this.socket.on('message', (data: Buffer) => this.record(parse(new Uint8Array(data))));
    this.socket.on('close', (code, reason) =>
      this.record({ type: 'socket-closed', code, reason: reason.toString() }),
    );
  }

  send(message: Uint8Array) {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(message);
  }

  /** The first event matching `match` (given its index); null when none came in time. */
  next(
    match: (event: Event, index: number) => boolean,
    timeoutMs = ANSWER_MS,
  ): Promise<Event | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        resolve(null);
      }, timeoutMs);
      const check = () => {
        const found = this.events.find(match);
        if (!found) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(found);
      };
      this.waiters.add(check);
      check();
    });
  }

  close() {
    this.socket.terminate();
  }

  private record(event: Event | null) {
    if (!event) return;
    this.events.push(event);
    for (const waiter of [...this.waiters]) waiter();
  }
}

function parse(data: Uint8Array): Event | null {
  try {
    const decoder = decoding.createDecoder(data);
    const document = decoding.readVarString(decoder);
    const type = decoding.readVarUint(decoder);
    if (type === MESSAGE.auth) {
      const auth = decoding.readVarUint(decoder);
      if (auth === 2) return { type: 'authenticated', document };
      return { type: 'denied', document, reason: decoding.readVarString(decoder) };
    }
    if (type === MESSAGE.sync) return { type: 'sync', document };
    if (type === MESSAGE.syncStatus)
      return { type: 'status', document, applied: decoding.readVarUint(decoder) === 1 };
    if (type === MESSAGE.close)
      return { type: 'closed', document, reason: decoding.readVarString(decoder) };
    return { type: 'other', document };
  } catch {
    return { type: 'other', document: '' };
  }
}

const authMessage = (name: string, token = 'token') =>
  frame(name, (e) => {
    encoding.writeVarUint(e, MESSAGE.auth);
    encoding.writeVarUint(e, 0);
    encoding.writeVarString(e, token);
  });

/** A sync step 1 with an empty state vector: the server answers with the whole document. */
const probeMessage = (name: string) =>
  frame(name, (e) => {
    encoding.writeVarUint(e, MESSAGE.sync);
    encoding.writeVarUint(e, 0);
    encoding.writeVarUint8Array(e, Y.encodeStateVector(new Y.Doc()));
  });

/** A document's state: what it holds and deleted, and any parts waiting for a missing one. */
function stateOf(doc: Y.Doc): string {
  const pending = doc.store.pendingStructs;
  const ds = Y.decodeUpdate(Y.encodeStateAsUpdate(doc)).ds;
  const deleted = [...ds.clients.entries()]
    .sort(([a], [b]) => a - b)
    .map(([client, ranges]) => [
      client,
      ranges.map((r) => [r.clock, r.len]).sort((a, b) => a[0]! - b[0]!),
    ]);
  const sv = [...Y.decodeStateVector(Y.encodeStateVector(doc)).entries()].sort(([a], [b]) => a - b);
  return JSON.stringify({
    sv,
    deleted,
    pending: pending ? Array.from(pending.update) : null,
    pendingDs: doc.store.pendingDs ? Array.from(doc.store.pendingDs) : null,
  });
}

// --- The suite ----------------------------------------------------------------------------------

describe.each(ENGINES)('fuzzing the sync protocol (%s)', (engine) => {
  let h: AccountsHarness;
  let offset = 0;
  const clock = { now: () => Date.now() + offset };
  const clients = {} as Record<'owner' | 'editor' | 'viewer' | 'stranger' | 'visitor', ApiClient>;
  const ids = {} as Record<keyof typeof clients, string>;
  let appId: string;
  let canaryAppId: string;
  let spaceId: string;
  const consoleLines: string[] = [];
  const keepers: TestProvider[] = [];
  /** The rightful providers' connections the server closed, and those their provider dropped. */
  const keepersRefused: string[] = [];
  let keepersIdle = 0;

  const name = (who: string) => `fs_${who}_${engine.slice(0, 2)}`;
  const targetName = (target: Target, sender: Sender): string => {
    switch (target) {
      case 'app':
        return documentName({ kind: 'app', appId });
      case 'space':
        return documentName({ kind: 'space', spaceId });
      case 'visitor-data':
        return documentName({ kind: 'data', appId, userId: ids.visitor });
      case 'own-data':
        return documentName({
          kind: 'data',
          appId,
          userId: sender in ids ? ids[sender as keyof typeof ids] : ids.stranger,
        });
    }
  };
  /** Documents nobody in the run may write: they never change. */
  const canaries = () => [
    documentName({ kind: 'app', appId: canaryAppId }),
    documentName({ kind: 'data', appId, userId: ids.visitor }),
  ];

  /**
   * A document's state on the server: the loaded one, or else what storage holds (its snapshot
   * and every logged update).
   */
  async function stored(name: string): Promise<string> {
    const live = h.pipit.server.hocuspocus.documents.get(name);
    if (live) return stateOf(live);
    const { snapshot, log } = await h.pipit.server.storage.documents.loadWithLog(name);
    const doc = new Y.Doc();
    if (snapshot) Y.applyUpdate(doc, snapshot);
    for (const entry of log) Y.applyUpdate(doc, entry.update);
    const state = stateOf(doc);
    doc.destroy();
    return state;
  }

  beforeAll(async () => {
    h = await startAccountsServer(engine, { clock, storeDebounceMs: 50 });
    for (const who of ['owner', 'editor', 'viewer', 'stranger', 'visitor'] as const) {
      clients[who] = await h.signup(name(who));
      ids[who] = await verifyEmail(h, clients[who]);
    }
    appId = await createPublishedApp(h, clients.owner, { title: 'Canary' });
    canaryAppId = await createApp(h, clients.owner);
    for (const [who, role] of [
      ['editor', 'editor'],
      ['viewer', 'viewer'],
    ] as const) {
      const invited = await clients.owner.request(
        'PUT',
        `/api/apps/${appId}/collaborators/${name(who)}`,
        { body: { role } },
      );
      expect(invited.status).toBeLessThan(300);
    }
    const made = await clients.owner.post<{ space: { id: string } }>(`/api/apps/${appId}/spaces`, {
      name: 'Canary space',
    });
    expect(made.status).toBe(201);
    spaceId = made.body.space.id;
    for (const [who, role] of [
      ['editor', 'member'],
      ['viewer', 'reader'],
    ] as const) {
      const added = await clients.owner.request(
        'PUT',
        `/api/spaces/${spaceId}/members/${name(who)}`,
        { body: { role } },
      );
      expect(added.status).toBe(201);
    }
    // Something in each document, so that a change would show: the visitor's own record, and
    // the space's as the server stores it (space-guard.ts judges who may write which record).
    const data = connectProvider({
      url: h.pipit.url,
      name: documentName({ kind: 'data', appId, userId: ids.visitor }),
      cookie: clients.visitor.cookie,
    });
    expect(await data.ready).toBe(true);
    data.doc.getMap('counters').set('canary', 1);
    await acknowledged(data.provider);
    data.destroy();
    const space = new Y.Doc();
    space.getMap('records').set('r1', 'canary');
    await h.pipit.server.storage.documents.store(
      documentName({ kind: 'space', spaceId }),
      Y.encodeStateAsUpdate(space),
    );
    // Each document is open in its rightful person's provider throughout, as it would be: it is
    // loaded once, and those providers must never be disconnected by anyone else's frames.
    for (const [who, doc] of [
      ['owner', documentName({ kind: 'app', appId })],
      ['owner', documentName({ kind: 'space', spaceId })],
      ['visitor', documentName({ kind: 'data', appId, userId: ids.visitor })],
      ...(['owner', 'editor', 'viewer', 'stranger'] as const).map(
        (w) => [w, documentName({ kind: 'data', appId, userId: ids[w] })] as const,
      ),
    ] as const) {
      const keeper = connectProvider({ url: h.pipit.url, name: doc, cookie: clients[who].cookie });
      keeper.provider.on('close', ({ event }: { event: { code: number; reason: string } }) => {
        // The provider drops a socket that heard nothing for 30 s itself; the server's own
        // closes carry one of its reasons.
        if (isSyncCloseReason(event.reason)) keepersRefused.push(`${doc}: ${event.reason}`);
        else keepersIdle += 1;
      });
      keepers.push(keeper);
      expect(await keeper.ready).toBe(true);
    }
    // What Hocuspocus prints to the console is the server's log too: every line is kept.
    for (const method of ['error', 'warn', 'log'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        consoleLines.push(
          args.map((a) => (a instanceof Error ? (a.stack ?? String(a)) : String(a))).join(' '),
        );
      });
    }
  }, 60_000);
  afterAll(async () => {
    vi.restoreAllMocks();
    for (const keeper of keepers) keeper.destroy();
    await h?.close();
  });

  it(
    'ignores every broken frame or closes with a reason, and changes nothing it may not',
    async () => {
      const started = Date.now();
      const outcomes = new Map<string, number>();
      let frames = 0;
      let slowest = { ms: 0, label: '' };
      const heapAtStart = heapAfterGc();
      const canaryStates = new Map<string, string>();
      for (const doc of canaries()) canaryStates.set(doc, await stored(doc));

      const frameCase = fc
        .record({
          sender: fc.oneof(
            {
              arbitrary: fc.constantFrom<Sender>('owner', 'editor', 'viewer', 'stranger'),
              weight: 9,
            },
            { arbitrary: fc.constantFrom<Sender>('signed-out', 'forged'), weight: 1 },
          ),
          target: fc.constantFrom<Target>('app', 'own-data', 'visitor-data', 'space'),
          /** The name the frame carries: the target's, or another. */
          naming: fc.constantFrom(
            'target',
            'target',
            'target',
            'target',
            'empty',
            'long',
            'nul-ending',
            'canary',
            'unknown',
          ),
          level: fc.constantFrom('message', 'update'),
          how: fc.constantFrom<'update' | 'step-2' | 'reply'>('update', 'step-2', 'reply'),
          beforeAuth: fc.boolean(),
        })
        .chain((c) => {
          const target = targetName(c.target, c.sender);
          const named = {
            target,
            empty: '',
            long: 'x'.repeat(5_000),
            'nul-ending': `${target}\0`,
            canary: canaries()[0]!,
            unknown: 'app/../../etc',
          }[c.naming]!;
          const made =
            c.level === 'message'
              ? messageFrame(named)
              : yjsUpdate.map(({ kind, update }) => ({
                  kind: `${kind} update as ${c.how}`,
                  message: carried(named, update, c.how),
                }));
          return made.map((m) => ({ ...c, documentName: named, targetName: target, ...m }));
        });

      await fc.assert(
        fc.asyncProperty(frameCase, async (c) => {
          const label = `${c.sender} → ${c.target} (${c.naming}): ${c.kind}`;
          const begun = performance.now();
          const cookie =
            c.sender === 'signed-out'
              ? null
              : c.sender === 'forged'
                ? 'pipit_session=forged.secret'
                : clients[c.sender].cookie;
          const mayWrite = WRITERS[c.target].includes(c.sender);
          const watched = [...canaries(), ...(mayWrite ? [] : [c.targetName])];
          const before = new Map<string, string>();
          for (const doc of watched) before.set(doc, await stored(doc));

          // What the target held before the frame, kept (in long runs, which write it out) to
          // reproduce a fault Yjs throws on.
          const live = h.pipit.server.hocuspocus.documents.get(c.targetName);
          const held =
            process.env.FUZZ_RUNS !== undefined && c.level === 'update' && live
              ? Y.encodeStateAsUpdate(live)
              : null;
          const printedBefore = consoleLines.length;
          const socket = new FuzzSocket(h.pipit.url, cookie);
          let outcome: string;
          try {
            const status = await socket.opened;
            if (status !== 101) {
              // Only a signed-in person opens a sync socket (docs/limits.md).
              expect(status, label).toBe(401);
              expect(['signed-out', 'forged'], label).toContain(c.sender);
              outcome = 'upgrade refused: 401';
            } else {
              const own = documentName({
                kind: 'user',
                userId: ids[c.sender as keyof typeof ids],
              });
              socket.send(authMessage(own));
              if (c.beforeAuth) socket.send(c.message);
              socket.send(authMessage(c.targetName));
              const granted = await socket.next(
                (e) =>
                  e.type === 'socket-closed' ||
                  ((e.type === 'authenticated' || e.type === 'denied') &&
                    e.document === c.targetName),
              );
              if (!c.beforeAuth) socket.send(c.message);
              const open = [own, ...(granted?.type === 'authenticated' ? [c.targetName] : [])];
              const probed = socket.events.length;
              for (const doc of open) socket.send(probeMessage(doc));
              // Each open document answers its probe (handled in order, after the frame), or
              // the frame closed it, or the socket.
              const answers = await Promise.all(
                open.map((doc) =>
                  socket.next(
                    (e, index) =>
                      e.type === 'socket-closed' ||
                      (e.type === 'closed' && e.document === doc) ||
                      (e.type === 'sync' && e.document === doc && index >= probed),
                  ),
                ),
              );
              expect(
                answers,
                `${label}: no answer; got ${JSON.stringify(socket.events)}`,
              ).not.toContain(null);
              // An update the document took is acknowledged once it is in the durable log, which
              // may come after the probe's answer.
              const status =
                c.level === 'update' &&
                answers.every((a) => a?.type === 'sync') &&
                open.includes(c.targetName) &&
                (c.naming === 'target' || (c.naming === 'nul-ending' && !c.beforeAuth))
                  ? await socket.next(
                      (e) => e.type === 'status' || e.type === 'socket-closed',
                      STATUS_MS,
                    )
                  : null;
              const closes = socket.events.filter(
                (e): e is Extract<Event, { type: 'closed' | 'denied' | 'socket-closed' }> =>
                  e.type === 'closed' || e.type === 'denied' || e.type === 'socket-closed',
              );
              for (const close of closes) {
                // The client's own close message is answered with its own words.
                if (close.type === 'closed' && close.reason === 'provider_initiated') continue;
                expect(isSyncCloseReason(close.reason), `${label}: ${JSON.stringify(close)}`).toBe(
                  true,
                );
              }
              const closedBy = closes.find((e) => e.type !== 'denied');
              const denied =
                granted?.type === 'denied' ? `document refused: ${granted.reason}; ` : '';
              outcome =
                denied +
                (closedBy
                  ? closedBy.type === 'socket-closed'
                    ? `socket closed: ${closedBy.reason}`
                    : `closed: ${closedBy.reason}`
                  : status?.type === 'status'
                    ? status.applied
                      ? 'acknowledged'
                      : 'not applied (read-only)'
                    : 'ignored');
            }
          } finally {
            socket.close();
          }
          const ms = performance.now() - begun;
          if (ms > slowest.ms) slowest = { ms, label };
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
          frames += 1;
          if (process.env.FUZZ_RUNS !== undefined && frames % PROGRESS_EVERY === 0) {
            const elapsed = Math.round((Date.now() - started) / 1000);
            process.stdout.write(`fuzz-sync (${engine}): ${frames} frames in ${elapsed} s\n`);
          }
          // A person whose messages keep being refused is slowed down for a minute; the next case
          // starts after it, so every frame is judged on its own.
          if (outcome.includes('closed')) offset += SLOWDOWN_WINDOW_MS;

          // Nothing this frame did made the server print a stack. If it did, the document as
          // it was and the message are written out, to be replayed against Yjs alone.
          const stacks = consoleLines.slice(printedBefore).filter((line) => STACK.test(line));
          if (stacks.length > 0 && process.env.FUZZ_RUNS !== undefined) {
            const file = path.join(tmpdir(), `pipit-fuzz-sync-${SEED}-${frames}.json`);
            writeFileSync(
              file,
              JSON.stringify({
                seed: SEED,
                frame: frames,
                label,
                held: held && Buffer.from(held).toString('base64'),
                message: Buffer.from(c.message).toString('base64'),
                printed: stacks,
              }),
            );
            process.stdout.write(`fuzz-sync: a stack after frame ${frames}, written to ${file}\n`);
          }
          expect(stacks.slice(0, 1), `${label}: printed a stack`).toEqual([]);
          for (const doc of watched) {
            expect(await stored(doc), `${label}: ${doc} changed`).toBe(before.get(doc));
          }
          const health = await fetch(`${h.pipit.url}/api/health`);
          expect(health.status, label).toBeLessThan(500);
          // The captured log lines, not the run's memory.
          h.pipit.logs.length = 0;
        }),
        {
          numRuns: RUNS,
          seed: SEED,
          ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}),
          endOnFailure: true,
          ...(SECONDS !== undefined
            ? { interruptAfterTimeLimit: SECONDS * 1000, markInterruptAsFailure: false }
            : {}),
        },
      );

      // The end-of-run checks say which run they judge: its seed reproduces it (npm run fuzz).
      const run = `seed ${SEED}, ${frames} frames`;
      // Nothing anyone may not write changed over the whole run, stored or in memory.
      for (const [doc, state] of canaryStates) {
        expect(await stored(doc), `${run}: ${doc} changed`).toBe(state);
      }
      expect(keepersRefused, `${run}: the server closed a rightful provider`).toEqual([]);
      // A normal provider syncs an edit afterwards: the owner writes, the editor receives it.
      const app = documentName({ kind: 'app', appId });
      const writer = connectProvider({ url: h.pipit.url, name: app, cookie: clients.owner.cookie });
      const reader = connectProvider({
        url: h.pipit.url,
        name: app,
        cookie: clients.editor.cookie,
      });
      try {
        expect(await writer.ready).toBe(true);
        expect(await reader.ready).toBe(true);
        writer.doc.getMap('fuzz').set('after', engine);
        await acknowledged(writer.provider);
        await vi.waitFor(() =>
          expect(reader.doc.getMap('fuzz').get('after'), `${run}: an edit afterwards`).toBe(engine),
        );
      } finally {
        writer.destroy();
        reader.destroy();
      }
      const growth = heapAfterGc() - heapAtStart;
      expect(growth, `${run}: heap growth over the run`).toBeLessThan(HEAP_GROWTH_BYTES);
      // No client can make the server print a stack: at most one short line per fault.
      const stacks = consoleLines.filter((line) => STACK.test(line));
      expect(stacks.slice(0, 3), `${run}: console lines with a stack`).toEqual([]);

      const summary = {
        engine,
        frames,
        framesPerSecond: Math.round(frames / ((Date.now() - started) / 1000)),
        seed: SEED,
        seconds: Math.round((Date.now() - started) / 100) / 10,
        slowest: { ms: Math.round(slowest.ms), frame: slowest.label.slice(0, 200) },
        heapGrowthMB: Math.round(growth / 1024 / 1024),
        consoleLines: consoleLines.length,
        idleProviderCloses: keepersIdle,
        printed: consoleLines.slice(0, 3),
        outcomes: Object.fromEntries([...outcomes].sort(([, a], [, b]) => b - a)),
      };
      if (process.env.FUZZ_RUNS !== undefined)
        process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    },
    TIMEOUT_MS,
  );
});
