/**
 * Scale figures: how one Pipit instance on PostgreSQL holds up under many signed-in sockets beside
 * a bare Hocuspocus server under the same load, how it takes a reconnect storm, and how fast edits
 * cross between two instances through Redis (docs/scaling.md). Prints figures; not a pass/fail test.
 *
 * 1. At 2,000, 5,000 and 10,000 sockets: a bare Hocuspocus (no checks, no storage), then one Pipit
 *    instance, the same schedule. In Pipit each socket is its own person with a real session (the
 *    real access policy: session cookie, then the app's owner or editor role); five writers to each
 *    `app/{id}` document (owner + 4 editors), 1,000 edits a second in all, each writer at a random
 *    phase of its own. For each: time until all sockets are authenticated and synced (the sockets
 *    retry as the app's do when shed); edit-to-remote propagation (edit made → each other writer
 *    on the document has it) p50/p99/max; the server's memory per socket (RSS and V8's used heap
 *    at their peaks, over the idle server's) and event-loop delay; the load generator's own CPU.
 * 2. A reconnect storm: 10,000 sockets synced, then the instance restarts (a graceful stop, a new
 *    server on the same port and database) and every socket comes back at once, each retrying as
 *    the app's do; how long until all are synced again, and how fast /api/health answers meanwhile.
 * 3. Two Pipit instances on one PostgreSQL database and one Redis; each document has writers on
 *    both; propagation split into pairs on the same instance and pairs across instances.
 * 4. Leaks: three cycles of 4,000 sockets connecting, editing and closing on one instance; after
 *    each, once every document is stored and unloaded, V8's used heap after a full GC against the
 *    idle server's, and RSS (which V8 does not give back, so only its growth between cycles counts).
 *
 * The servers run in this process; the clients, raw Hocuspocus sockets (bench/scale-clients.ts),
 * in a forked one. Run: npm run bench -- scale   (--quick: fewer sockets, shorter runs)
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Server } from '@hocuspocus/server';
import {
  createTestDatabase,
  type RunningPipit,
  startPipit,
  type TestDatabase,
} from '@pipit/sync-server/testing';
// Not exported by @pipit/sync-server/testing; imported by path, as the server's own tests do.
import { systemClock } from '../sync-server/src/accounts/clock';
import { PLAIN_COOKIE_NAME } from '../sync-server/src/accounts/session-cookie';
import { createSessionService } from '../sync-server/src/accounts/sessions';
import { STORE_MAX_DEBOUNCE_MS } from '../sync-server/src/collab/create-collab';
import { MAX_CONNECTIONS_PER_DOCUMENT } from '../sync-server/src/collab/resource-bounds';
import { DEFAULT_RESOURCE_LIMITS } from '../sync-server/src/collab/resource-limits';
import type { Storage } from '../sync-server/src/storage/types';
import { percentile, sleep } from '../sync-server/test/support/timing';
import {
  RUN_SCALE_CLIENTS_FLAG,
  type ScaleJob,
  type ScaleProgress,
  type ScaleResult,
  type ScaleSocket,
} from './scale-clients';

const QUICK = process.argv.includes('--quick');
/** `--only=levels,storm,leaks,cluster`: some of the sections; `--levels=4000`: other levels. */
const flag = (name: string) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const ONLY = new Set(flag('only')?.split(',') ?? ['levels', 'leaks', 'storm', 'cluster']);
const ROOT = path.resolve(import.meta.dirname, '..');
/** Owner + 4 editors: each socket is its own person, so per-person limits are never reached. */
const WRITERS_PER_DOCUMENT = 5;
const LEVELS =
  flag('levels')?.split(',').map(Number) ?? (QUICK ? [100, 250] : [2_000, 5_000, 10_000]);
const STORM_SOCKETS = QUICK ? 250 : 10_000;
const STORM_TIMEOUT_MS = 90_000;
const LEAK = QUICK
  ? { sockets: 250, cycles: 3, measureMs: 3_000 }
  : { sockets: 4_000, cycles: 3, measureMs: 10_000 };
const CLUSTER = QUICK ? { sockets: 60, documents: 20 } : { sockets: 300, documents: 100 };
const WARMUP_MS = QUICK ? 2_000 : 5_000;
const MEASURE_MS = QUICK ? 5_000 : 20_000;
/** Edits a second over all writers at a level (each writer at least one a second). */
const EDITS_PER_SECOND = 1_000;
const intervalFor = (sockets: number) => Math.max(1_000, (sockets / EDITS_PER_SECOND) * 1_000);
const CONNECT_BATCH = 100;
const GOAL = { p99Ms: 50, p99Ratio: 1.5, memoryRatio: 1.0, connectRatio: 1.5, stormMs: 15_000 };
const HEALTH_GOAL_MS = 100;
const UNLOAD_TIMEOUT_MS = 60_000;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

setFlagsFromString('--expose-gc');
/** The collector, so that a server's idle heap is what it holds, not what is not swept yet. */
const collectGarbage = runInNewContext('gc') as () => void;

/** 26 characters of lowercase base32, like @pipit/protocol's createId (document names need it). */
function newId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return [...randomBytes(26)].map((byte) => alphabet[byte & 31]).join('');
}

const ms = (n: number, width = 8) => (Number.isFinite(n) ? n.toFixed(1) : '–').padStart(width);
const count = (n: number) => n.toLocaleString('en-US');
const mb = (bytes: number) => bytes / (1024 * 1024);
const maxOf = (values: number[]) => values.reduce((a, b) => Math.max(a, b), -Infinity);

/** Prints rows of cells: the first left-aligned, the others right-aligned to `widths`. */
function table(widths: number[]) {
  return (cells: string[]) =>
    console.log(
      cells
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[0] ?? 10) : cell.padStart(widths[i] ?? 8)))
        .join(' '),
    );
}

// ---------------------------------------------------------------------------------------------
// Servers

interface BenchServer {
  name: string;
  url: string;
  origin: string;
  /** Resolves once the server holds no document (the last run's are stored and unloaded). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

async function waitFor(what: string, done: () => boolean) {
  const deadline = performance.now() + UNLOAD_TIMEOUT_MS;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function pipitServer(pipit: RunningPipit, name = 'pipit'): BenchServer & { pipit: RunningPipit } {
  const hocuspocus = pipit.server.hocuspocus;
  return {
    name,
    pipit,
    url: `${pipit.url.replace(/^http/, 'ws')}/api/sync`,
    origin: pipit.url,
    idle: () => waitFor(`${name} to unload`, () => hocuspocus.getDocumentsCount() === 0),
    close: () => pipit.close(),
  };
}

async function startBareServer(): Promise<BenchServer> {
  const server = new Server({ port: 0, address: '127.0.0.1', quiet: true, stopOnSignals: false });
  await server.listen();
  const { port } = server.address;
  return {
    name: 'bare',
    url: `ws://127.0.0.1:${port}`,
    origin: `http://127.0.0.1:${port}`,
    idle: () => waitFor('bare to unload', () => server.hocuspocus.getDocumentsCount() === 0),
    close: () => server.destroy(),
  };
}

// ---------------------------------------------------------------------------------------------
// People, sessions and apps, straight through the server's storage and session service

interface Person {
  id: string;
  cookie: string;
}

async function inBatches<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>) {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) {
    out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  }
  return out;
}

async function seedPeople(storage: Storage, n: number): Promise<Person[]> {
  const sessions = createSessionService(storage, systemClock);
  const run = randomBytes(3).toString('hex');
  return inBatches([...Array(n).keys()], 50, async (i) => {
    const user = await storage.users.insert({
      id: newId(),
      username: `scale_${run}_${i}`,
      email: `scale-${run}-${i}@example.org`,
      passwordHash: 'not-a-real-hash',
    });
    const { cookieValue } = await sessions.create(user.id, {
      userAgent: 'pipit-bench-scale',
      ip: '127.0.0.1',
    });
    return { id: user.id, cookie: `${PLAIN_COOKIE_NAME}=${cookieValue}` };
  });
}

/**
 * One new app per WRITERS_PER_DOCUMENT people of `people` (in order): the first owns it, the others
 * are its editors. Returns the sockets: one per person, on `instanceOf(socket index)`.
 */
async function seedApps(
  storage: Storage,
  people: Person[],
  servers: BenchServer[],
  perDocument = WRITERS_PER_DOCUMENT,
): Promise<ScaleSocket[]> {
  const groups: Person[][] = [];
  for (let i = 0; i < people.length; i += perDocument) {
    groups.push(people.slice(i, i + perDocument));
  }
  const now = Date.now();
  const documents = await inBatches(groups, 25, async ([owner, ...editors]) => {
    if (!owner) throw new Error('an empty group');
    const id = newId();
    await storage.apps.insert({
      id,
      ownerId: owner.id,
      title: 'Scale benchmark',
      description: '',
      icon: null,
      createdAt: now,
    });
    for (const editor of editors) {
      await storage.apps.putCollaborator({
        appId: id,
        userId: editor.id,
        role: 'editor',
        invitedBy: owner.id,
        addedAt: now,
      });
    }
    return `app/${id}`;
  });
  return people.map((person, i) => {
    const instance = i % servers.length;
    const server = servers[instance];
    if (!server) throw new Error('no server');
    return {
      url: server.url,
      origin: server.origin,
      cookie: person.cookie,
      document: documents[Math.floor(i / perDocument)] ?? '',
      instance,
    };
  });
}

/** The same load on a bare server: any document name, no session. */
function bareSockets(server: BenchServer, n: number): ScaleSocket[] {
  const documents = Array.from({ length: Math.ceil(n / WRITERS_PER_DOCUMENT) }, () => newId());
  return Array.from({ length: n }, (_, i) => ({
    url: server.url,
    origin: server.origin,
    document: `app/${documents[Math.floor(i / WRITERS_PER_DOCUMENT)] ?? ''}`,
    instance: 0,
  }));
}

// ---------------------------------------------------------------------------------------------
// Running the clients

type ClientsResult = Extract<ScaleResult, { ok: true }>;

interface Measured extends ClientsResult {
  /** RSS and V8's used heap of this process (the servers') after a GC before the run, bytes. */
  idle: { rss: number; heap: number };
  /** Peak RSS of this process (the servers') during the run, bytes. */
  rssPeak: number;
  /** Peak used heap during the run, bytes. */
  heapPeak: number;
  /** V8's heap (used, reserved) and memory outside it (buffers), when RSS peaked, bytes. */
  heapAtPeak: { used: number; total: number; external: number };
  /** This process's event-loop delay during the measured window, ms. */
  serverLoopP99: number;
  serverLoopMax: number;
}

/**
 * One run of the clients in a forked process; this process's RSS is sampled throughout, its
 * event-loop delay during the measured window. The servers' documents are unloaded afterwards.
 */
async function measure(
  servers: BenchServer[],
  sockets: ScaleSocket[],
  seed: number,
  options: {
    /** A storm instead of edits: called once every socket is synced; returns the servers to wait on. */
    storm?: () => Promise<BenchServer[]>;
    measureMs?: number;
  } = {},
) {
  const job: ScaleJob = {
    sockets,
    connectBatch: CONNECT_BATCH,
    warmupMs: WARMUP_MS,
    measureMs: options.measureMs ?? MEASURE_MS,
    intervalMs: intervalFor(sockets.length),
    seed,
    slowMs: GOAL.p99Ms,
    ...(options.storm ? { stormTimeoutMs: STORM_TIMEOUT_MS } : {}),
  };
  collectGarbage();
  const idle = { rss: process.memoryUsage.rss(), heap: process.memoryUsage().heapUsed };
  const loop = monitorEventLoopDelay({ resolution: 1 });
  let rssPeak = idle.rss;
  let heapPeak = idle.heap;
  let atPeak = process.memoryUsage();
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    heapPeak = Math.max(heapPeak, now.heapUsed);
    if (now.rss <= rssPeak) return;
    rssPeak = now.rss;
    atPeak = now;
  }, 250);
  /** The servers a storm's restart started, once it is under way. */
  const storm: { servers: Promise<BenchServer[]> | null } = { servers: null };
  const child: ChildProcess = fork(
    path.join(import.meta.dirname, 'scale-clients.ts'),
    [RUN_SCALE_CLIENTS_FLAG],
    { cwd: ROOT, execArgv: ['--import', 'tsx'], stdio: 'inherit' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const result = await new Promise<ScaleResult>((resolve, reject) => {
      child.on('message', (message: ScaleProgress | ScaleResult) => {
        if (message.kind === 'measuring') loop.enable();
        else if (message.kind === 'measured') loop.disable();
        else if (message.kind === 'connected') storm.servers = options.storm?.() ?? null;
        else if (message.kind === 'result') resolve(message);
      });
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the client process exited (${code}) early`)));
      child.send(job);
    });
    await exited;
    if (!result.ok) throw new Error(`clients: ${result.error}`);
    for (const server of (await storm.servers) ?? servers) await server.idle();
    return {
      ...result,
      idle,
      rssPeak,
      heapPeak,
      heapAtPeak: {
        used: atPeak.heapUsed,
        total: atPeak.heapTotal,
        external: atPeak.external,
      },
      serverLoopP99: loop.percentile(99) / 1e6,
      serverLoopMax: loop.max / 1e6,
    } satisfies Measured;
  } finally {
    clearInterval(sampler);
    loop.disable();
    if (child.exitCode === null) child.kill();
  }
}

const samples = (got: number, expected: number) =>
  got === expected ? count(expected) : `${count(got)}/${count(expected)}`;
/**
 * The slow half-seconds of a run as ranges: `10.0–11.5 s (1,371)` — edits made 10.0 to 11.5 s
 * after the first edit, the slowest of them taking 1,371 ms to arrive.
 */
function slowRanges(slow: Array<[number, number]>): string {
  const ranges: Array<{ from: number; to: number; max: number }> = [];
  for (const [at, latency] of slow) {
    const last = ranges[ranges.length - 1];
    if (last && at - last.to <= 0.5) {
      last.to = at;
      last.max = Math.max(last.max, latency);
    } else ranges.push({ from: at, to: at, max: latency });
  }
  if (ranges.length === 0) return 'none';
  return ranges
    .map(
      ({ from, to, max }) =>
        `${from.toFixed(1)}–${(to + 0.5).toFixed(1)} s (${count(Math.round(max))})`,
    )
    .join(', ');
}

const cpuShare = (r: ClientsResult) =>
  `${(((r.cpuUserMs + r.cpuSystemMs) / r.windowMs) * 100).toFixed(0)}%`;

// ---------------------------------------------------------------------------------------------
// 1. One instance against a bare Hocuspocus, many sockets

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const ratio = (x: number, y: number) => (y > 0 ? `${(x / y).toFixed(2)}×` : '–');

async function levels(pipit: BenchServer & { pipit: RunningPipit }, people: Person[]) {
  console.log(
    `1. One Pipit instance on PostgreSQL (real sessions and access policy) beside a bare Hocuspocus 4.7\n` +
      `server (no auth, no storage, no checks), the same schedule, bare first: ${WRITERS_PER_DOCUMENT} writers per app\n` +
      `document (owner + ${WRITERS_PER_DOCUMENT - 1} editors), each socket its own person, ${count(EDITS_PER_SECOND)} edits a second in all (each writer\n` +
      `once every max(1 s, sockets / ${count(EDITS_PER_SECOND)} s), at a random phase); ${WARMUP_MS / 1000} s of warm-up, then ${MEASURE_MS / 1000} s measured.\n` +
      'Propagation, ms: edit made → each other writer on the document has applied it.\n',
  );
  const line = table([7, 6, 8, 15, 7, 7, 8, 9, 9, 9, 9, 8]);
  line([
    'sockets',
    'server',
    'connect',
    'samples',
    'p50',
    'p99',
    'max',
    'RSS KB/s',
    'heap KB/s',
    'loop p99',
    'gen CPU',
    'shed',
  ]);
  const bare = await startBareServer();
  const ratios: string[] = [];
  try {
    for (const [i, n] of LEVELS.entries()) {
      const runs: Array<[BenchServer, Measured]> = [];
      for (const server of [bare, pipit]) {
        const sockets =
          server === bare
            ? bareSockets(bare, n)
            : await seedApps(pipit.pipit.server.storage, people.slice(0, n), [pipit]);
        runs.push([server, await measure([server], sockets, 100 + i)]);
      }
      const figures = runs.map(([server, result]) => {
        const all = [...result.same, ...result.cross];
        const perSocket = {
          rss: (result.rssPeak - result.idle.rss) / n,
          heap: (result.heapPeak - result.idle.heap) / n,
        };
        line([
          count(n),
          server.name,
          `${(result.connectMs / 1000).toFixed(1)} s`,
          samples(all.length, result.expectedSame + result.expectedCross),
          ms(percentile(all, 50), 7),
          ms(percentile(all, 99), 7),
          ms(maxOf(all)),
          kb(perSocket.rss),
          kb(perSocket.heap),
          ms(result.serverLoopP99, 9),
          cpuShare(result),
          count(result.shedSockets + result.shedDocuments),
        ]);
        if (result.closed > 0)
          console.log(`   ${result.closed} connections were closed during the run`);
        return { all, perSocket, result };
      });
      const [b, p] = figures;
      if (b && p) {
        const row = [
          ratio(p.result.connectMs, b.result.connectMs),
          ratio(percentile(p.all, 99), percentile(b.all, 99)),
          ratio(p.perSocket.rss, b.perSocket.rss),
          ratio(p.perSocket.heap, b.perSocket.heap),
        ];
        line(['', 'p/bare', row[0] ?? '', '', '', row[1] ?? '', '', row[2] ?? '', row[3] ?? '']);
        ratios.push(
          `${count(n)}: connect ${row[0]}, p99 ${row[1]}, RSS/socket ${row[2]}, heap/socket ${row[3]}`,
        );
        console.log(
          `   pipit slow: ${slowRanges(p.result.slow)}; bare slow: ${slowRanges(b.result.slow)}`,
        );
      }
    }
  } finally {
    await bare.close();
  }
  console.log(
    `Goals (pipit/bare): connect ≤ ${GOAL.connectRatio}×, p99 ≤ ${GOAL.p99Ratio}× and ≤ ${GOAL.p99Ms} ms, memory per socket ≤ ${GOAL.memoryRatio}×.\n` +
      `connect: until every socket was authenticated and synced, in batches of ${CONNECT_BATCH}.\n` +
      "RSS KB/s, heap KB/s: the peak of the bench's main process (which runs the servers; sampled every\n" +
      '250 ms) over what it held idle after a GC just before the run, per socket.\n' +
      'loop: event-loop delay of that process in the measured window, ms. gen CPU: the load generator\n' +
      '(the forked client process), its CPU time as a share of one core.\n' +
      'shed: upgrades answered 503 and documents refused with server_busy while connecting (each tried\n' +
      'again, as the app does).\n' +
      `slow: when edits took more than ${GOAL.p99Ms} ms to arrive, by when they were made, in seconds after\n` +
      'the first edit (warm-up included), with the slowest in ms. Pipit stores a document at least\n' +
      `every ${STORE_MAX_DEBOUNCE_MS / 1000} s while edits flow (create-collab.ts); documents opened together store together.\n`,
  );
  console.log(`pipit/bare: ${ratios.join('; ')}\n`);
}

// ---------------------------------------------------------------------------------------------
// 4. Leaks

async function leakCycles(pipit: BenchServer & { pipit: RunningPipit }, people: Person[]) {
  console.log(
    `4. Leaks: ${LEAK.cycles} cycles of ${count(LEAK.sockets)} sockets on one instance, each connecting, editing for\n` +
      `${(WARMUP_MS + LEAK.measureMs) / 1000} s and closing; after each, once every document is stored and unloaded, the heap after a\n` +
      'full GC against the idle server before the first cycle, and RSS.\n',
  );
  const settle = async () => {
    await sleep(1_000);
    collectGarbage();
    return { heap: process.memoryUsage().heapUsed, rss: process.memoryUsage.rss() };
  };
  const idle = await settle();
  const line = table([10, 12, 10, 10]);
  line(['cycle', 'heap MB', 'vs idle', 'RSS MB']);
  line(['idle', mb(idle.heap).toFixed(1), '', mb(idle.rss).toFixed(0)]);
  const after: Array<{ heap: number; rss: number }> = [];
  for (let cycle = 1; cycle <= LEAK.cycles; cycle++) {
    const sockets = await seedApps(pipit.pipit.server.storage, people.slice(0, LEAK.sockets), [
      pipit,
    ]);
    await measure([pipit], sockets, 500 + cycle, { measureMs: LEAK.measureMs });
    const now = await settle();
    after.push(now);
    line([
      String(cycle),
      mb(now.heap).toFixed(1),
      `${(((now.heap - idle.heap) / idle.heap) * 100).toFixed(1)}%`,
      mb(now.rss).toFixed(0),
    ]);
  }
  const [, second, third] = after;
  console.log(
    'Goals: the heap within 10% of idle after each cycle; RSS not growing from the second cycle to the third' +
      (second && third ? ` (${(mb(third.rss) - mb(second.rss)).toFixed(0)} MB).\n` : '.\n'),
  );
}

// ---------------------------------------------------------------------------------------------
// 2. A reconnect storm

async function reconnectStorm(database: TestDatabase, people: Person[]) {
  console.log(
    `2. A reconnect storm: ${count(STORM_SOCKETS)} sockets synced on one instance, which then restarts (a graceful\n` +
      'stop, then a new server on the same port and database); every socket comes back at once, each\n' +
      'retrying as the app does (250–1,000 ms after the close, then backing off with jitter; a document\n' +
      'the server was too busy for after 1–2 s, then doubling). /api/health asked every 50 ms throughout.\n',
  );
  let current = pipitServer(await startPipit({ env: { DATABASE_URL: database.url } }));
  const port = current.pipit.port;
  const health: number[] = [];
  let unanswered = 0;
  let polling = false;
  let poller: Promise<void> = Promise.resolve();
  let restartMs = 0;
  try {
    const sockets = await seedApps(current.pipit.server.storage, people.slice(0, STORM_SOCKETS), [
      current,
    ]);
    const result = await measure([current], sockets, 400, {
      storm: async () => {
        polling = true;
        poller = (async () => {
          while (polling) {
            const started = performance.now();
            try {
              const response = await fetch(`http://127.0.0.1:${port}/api/health`, {
                signal: AbortSignal.timeout(5_000),
              });
              await response.arrayBuffer();
              if (response.ok) health.push(performance.now() - started);
              else unanswered += 1;
            } catch {
              unanswered += 1;
            }
            await sleep(50);
          }
        })();
        const stopping = performance.now();
        await current.close();
        current = pipitServer(await startPipit({ env: { DATABASE_URL: database.url }, port }));
        restartMs = performance.now() - stopping;
        return [current];
      },
    });
    polling = false;
    await poller;
    const storm = result.storm;
    if (!storm) throw new Error('no storm figures');
    const line = table([28, 12]);
    line(['restart (stop, start)', `${(restartMs / 1000).toFixed(1)} s`]);
    line(['all synced again', `${(storm.allSyncedMs / 1000).toFixed(1)} s`]);
    line([
      'per socket, down p50/p99/max',
      `${ms(percentile(storm.downs, 50), 0)} / ${ms(percentile(storm.downs, 99), 0)} / ${ms(maxOf(storm.downs), 0)} ms`,
    ]);
    line(['not back before the timeout', count(storm.stillDown)]);
    line([
      'refused, by reason',
      result.refusals.map(([reason, n]) => `${reason} ×${count(n)}`).join(', ') || 'none',
    ]);
    line([
      'shed (503 / server_busy)',
      `${count(result.shedSockets)} / ${count(result.shedDocuments)}`,
    ]);
    line([
      '/api/health p50/p99/max',
      `${ms(percentile(health, 50), 0)} / ${ms(percentile(health, 99), 0)} / ${ms(maxOf(health), 0)} ms`,
    ]);
    line(['/api/health unanswered', `${count(unanswered)} (while the server was down)`]);
    console.log(
      `Goals: all synced within ${GOAL.stormMs / 1000} s, none left behind, /api/health p99 ≤ ${HEALTH_GOAL_MS} ms. ` +
        `RSS peak ${mb(result.rssPeak).toFixed(0)} MB.\n` +
        'all synced again: from the first socket closing to the last synced again (the restart included).\n',
    );
  } finally {
    polling = false;
    await poller;
    await current.close();
  }
}

// ---------------------------------------------------------------------------------------------
// 3. Two instances through Redis

async function twoInstances(database: TestDatabase, people: Person[]) {
  const prefix = `bench-${randomBytes(5).toString('hex')}`;
  const instances: Array<BenchServer & { pipit: RunningPipit }> = [];
  try {
    for (const name of ['a', 'b']) {
      const pipit = await startPipit({
        env: {
          DATABASE_URL: database.url,
          REDIS_URL,
          REDIS_PREFIX: prefix,
          INSTANCE_NAME: name,
        },
      });
      instances.push(pipitServer(pipit, `instance ${name}`));
    }
    const [a] = instances;
    if (!a) throw new Error('no instance');
    const perDocument = CLUSTER.sockets / CLUSTER.documents;
    console.log(
      `3. Two Pipit instances (a, b) in this process on one PostgreSQL database and one Redis (${REDIS_URL}),\n` +
        `${count(CLUSTER.sockets)} sockets on ${count(CLUSTER.documents)} documents, ${perDocument} writers each, writers alternating a, b, a, b, …\n` +
        '(so each document has writers on both); same schedule as above. Propagation, ms, by where the\n' +
        "receiving writer is: on the sender's instance, or on the other (through Redis).\n",
    );
    const sockets = await seedApps(
      a.pipit.server.storage,
      people.slice(0, CLUSTER.sockets),
      instances,
      perDocument,
    );
    const result = await measure(instances, sockets, 300);
    const line = table([20, 14, 8, 8, 8]);
    line(['pairs', 'samples', 'p50', 'p99', 'max']);
    for (const [label, latencies, expected] of [
      ['same instance', result.same, result.expectedSame],
      ['across instances', result.cross, result.expectedCross],
    ] as const) {
      line([
        label,
        samples(latencies.length, expected),
        ms(percentile(latencies, 50)),
        ms(percentile(latencies, 99)),
        ms(maxOf(latencies)),
      ]);
    }
    console.log(
      `connect ${(result.connectMs / 1000).toFixed(1)} s; RSS peak ${mb(result.rssPeak).toFixed(0)} MB (both instances); ` +
        `loop p99 ${result.serverLoopP99.toFixed(1)} ms; gen CPU ${cpuShare(result)}.\n` +
        'Both instances share this process and its event loop; Redis is on loopback.',
    );
    console.log(`slow: ${slowRanges(result.slow)}`);
    if (result.closed > 0) console.log(`${result.closed} connections were closed during the run`);
  } finally {
    for (const instance of instances.reverse()) await instance.close();
  }
}

// ---------------------------------------------------------------------------------------------

function fileLimit(): string {
  try {
    return execFileSync('/bin/sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

const loadavg = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const cpus = os.cpus();
console.log(
  `Scale benchmark${QUICK ? ' (--quick)' : ''}: Node ${process.version}, ${os.availableParallelism()} cores ` +
    `(${cpus[0]?.model.trim() ?? 'unknown CPU'}), load average ${loadavg()} at start; open-file limit ` +
    `${fileLimit()} (each socket takes one in each process).\n` +
    `Servers in this process, clients in a forked one, loopback. Per-person limits: ` +
    `${DEFAULT_RESOURCE_LIMITS.personSockets} sockets a person, ${MAX_CONNECTIONS_PER_DOCUMENT} connections per document per socket — never reached here.\n`,
);

const database = await createTestDatabase();
try {
  const pipit = pipitServer(await startPipit({ env: { DATABASE_URL: database.url } }));
  let people: Person[] = [];
  try {
    const seedStarted = performance.now();
    people = await seedPeople(
      pipit.pipit.server.storage,
      maxOf([...LEVELS, STORM_SOCKETS, CLUSTER.sockets]),
    );
    console.log(
      `Seeded ${count(people.length)} people, each with a session, in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s; ` +
        'each run gets new apps.\n',
    );
    if (ONLY.has('levels')) await levels(pipit, people);
    if (ONLY.has('leaks')) await leakCycles(pipit, people);
  } finally {
    await pipit.close();
  }
  if (ONLY.has('storm')) await reconnectStorm(database, people);
  if (ONLY.has('cluster')) await twoInstances(database, people);
} finally {
  await database.drop();
}
console.log(`\nLoad average ${loadavg()} at the end.`);
// Everything is closed above; should anything still hold the process open, it does not hang.
setTimeout(() => {
  console.log('(something was still open after the bench; exiting)');
  process.exit(0);
}, 5_000).unref();
