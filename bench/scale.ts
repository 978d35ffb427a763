/**
 * Scale figures: how one Pipit instance on PostgreSQL holds up under many signed-in sockets, what
 * it costs over a bare Hocuspocus server under the same load, and how fast edits cross between two
 * instances through Redis (docs/scaling.md). Prints figures; not a pass/fail test.
 *
 * 1. One instance, 500, 1,000 and 2,000 sockets, each its own person with a real session (the real
 *    access policy: session cookie, then the app's owner or editor role), three writers to each
 *    `app/{id}` document (owner + 2 editors), each making one edit a second at a random phase. For
 *    each level: time until all sockets are authenticated and synced; edit-to-remote propagation
 *    (edit made → each other writer on the document has it) p50/p99/max; the server's peak RSS and
 *    event-loop delay; and the load generator's own CPU time and event-loop delay.
 * 2. Pipit against a bare Hocuspocus (no checks, no storage) at one level, the same schedules, run
 *    in the order bare, pipit, pipit, bare, half the measured time each; figures pool both runs.
 * 3. Two Pipit instances on one PostgreSQL database and one Redis; each document has writers on
 *    both; propagation split into pairs on the same instance and pairs across instances.
 *
 * The servers run in this process; the clients, raw Hocuspocus sockets (bench/scale-clients.ts),
 * in a forked one. Run: npm run bench -- scale   (--quick: fewer sockets, shorter runs)
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
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
const ROOT = path.resolve(import.meta.dirname, '..');
/** Owner + 2 editors: each socket is its own person, so per-person limits are never reached. */
const WRITERS_PER_DOCUMENT = 3;
const LEVELS = QUICK ? [100, 200] : [500, 1_000, 2_000];
const COMPARE_LEVEL = QUICK ? 200 : 1_000;
const CLUSTER = QUICK ? { sockets: 60, documents: 20 } : { sockets: 300, documents: 100 };
const WARMUP_MS = QUICK ? 2_000 : 5_000;
const MEASURE_MS = QUICK ? 5_000 : 20_000;
const INTERVAL_MS = 1_000;
const CONNECT_BATCH = 100;
const GOAL = { sockets: 2_000, p99Ms: 50, rssMb: 400, ratio: 1.2 };
const UNLOAD_TIMEOUT_MS = 60_000;
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

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
): Promise<ScaleSocket[]> {
  const groups: Person[][] = [];
  for (let i = 0; i < people.length; i += WRITERS_PER_DOCUMENT) {
    groups.push(people.slice(i, i + WRITERS_PER_DOCUMENT));
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
      document: documents[Math.floor(i / WRITERS_PER_DOCUMENT)] ?? '',
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
  /** Peak RSS of this process (the servers') during the run, bytes. */
  rssPeak: number;
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
  measureMs = MEASURE_MS,
) {
  const job: ScaleJob = {
    sockets,
    connectBatch: CONNECT_BATCH,
    warmupMs: WARMUP_MS,
    measureMs,
    intervalMs: INTERVAL_MS,
    seed,
    slowMs: GOAL.p99Ms,
  };
  const loop = monitorEventLoopDelay({ resolution: 1 });
  let rssPeak = process.memoryUsage.rss();
  let atPeak = process.memoryUsage();
  const sampler = setInterval(() => {
    const rss = process.memoryUsage.rss();
    if (rss <= rssPeak) return;
    rssPeak = rss;
    atPeak = process.memoryUsage();
  }, 250);
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
        else if (message.kind === 'result') resolve(message);
      });
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the client process exited (${code}) early`)));
      child.send(job);
    });
    await exited;
    if (!result.ok) throw new Error(`clients: ${result.error}`);
    for (const server of servers) await server.idle();
    return {
      ...result,
      rssPeak,
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
// 1. One instance, many authenticated sockets

async function levels(
  pipit: BenchServer & { pipit: RunningPipit },
  people: Person[],
  idleRss: { bench: number; server: number },
) {
  console.log(
    `1. One Pipit instance on PostgreSQL, real sessions and access policy: ${WRITERS_PER_DOCUMENT} writers\n` +
      `per app document (owner + ${WRITERS_PER_DOCUMENT - 1} editors), each socket its own person, each writer one edit per\n` +
      `${INTERVAL_MS / 1000} s at a random phase; ${WARMUP_MS / 1000} s of warm-up, then ${MEASURE_MS / 1000} s measured. Propagation, ms: edit made →\n` +
      'each other writer on the document has applied it.\n',
  );
  const line = table([8, 6, 9, 14, 7, 7, 8, 8, 9, 8, 8, 9]);
  line([
    'sockets',
    'docs',
    'connect',
    'samples',
    'p50',
    'p99',
    'max',
    'RSS MB',
    'loop p99',
    'loop max',
    'gen CPU',
    'gen loop',
  ]);
  const results: Array<{ sockets: number; result: Measured }> = [];
  for (const [i, n] of LEVELS.entries()) {
    const sockets = await seedApps(pipit.pipit.server.storage, people.slice(0, n), [pipit]);
    const result = await measure([pipit], sockets, 100 + i);
    results.push({ sockets: n, result });
    const all = [...result.same, ...result.cross];
    line([
      count(n),
      count(Math.ceil(n / WRITERS_PER_DOCUMENT)),
      `${(result.connectMs / 1000).toFixed(1)} s`,
      samples(all.length, result.expectedSame + result.expectedCross),
      ms(percentile(all, 50), 7),
      ms(percentile(all, 99), 7),
      ms(maxOf(all)),
      mb(result.rssPeak).toFixed(0),
      ms(result.serverLoopP99, 9),
      ms(result.serverLoopMax),
      cpuShare(result),
      ms(result.loopP99, 9),
    ]);
    console.log(
      `   slow: ${slowRanges(result.slow)}; at the RSS peak: heap ${mb(result.heapAtPeak.used).toFixed(0)} MB ` +
        `used of ${mb(result.heapAtPeak.total).toFixed(0)}, outside the heap ${mb(result.heapAtPeak.external).toFixed(0)} MB`,
    );
    if (result.closed > 0)
      console.log(`   ${result.closed} connections were closed during the run`);
  }
  const top = results.find((r) => r.sockets === GOAL.sockets);
  const topAll = top ? [...top.result.same, ...top.result.cross] : [];
  console.log(
    `Goal at ${count(GOAL.sockets)} sockets: p99 ≤ ${GOAL.p99Ms} ms and RSS ≤ ${GOAL.rssMb} MB` +
      (top
        ? ` — measured p99 ${percentile(topAll, 99).toFixed(1)} ms, RSS ${mb(top.result.rssPeak).toFixed(0)} MB.`
        : ` (not run with --quick).`),
  );
  console.log(
    `connect: until every socket was authenticated and synced, in batches of ${CONNECT_BATCH}.\n` +
      "RSS: peak of the bench's main process, which runs the server, sampled every 250 ms. Before the\n" +
      `server started it held ${mb(idleRss.bench).toFixed(0)} MB (Node, tsx, the modules); started and idle, ${mb(idleRss.server).toFixed(0)} MB.\n` +
      'loop: event-loop delay of that process in the measured window, ms.\n' +
      'gen: the load generator (the forked client process): its CPU time as a share of one core, and\n' +
      'its own event-loop delay p99, ms (its delay adds to every latency above).\n' +
      `slow: when edits took more than ${GOAL.p99Ms} ms to arrive, by when they were made, in seconds after\n` +
      'the first edit (warm-up included), with the slowest in ms. Pipit stores a document at least\n' +
      `every ${STORE_MAX_DEBOUNCE_MS / 1000} s while edits flow (create-collab.ts); documents opened together store together.\n`,
  );
}

// ---------------------------------------------------------------------------------------------
// 2. Pipit against bare Hocuspocus

async function overhead(pipit: BenchServer & { pipit: RunningPipit }, people: Person[]) {
  const half = MEASURE_MS / 2;
  console.log(
    `2. Pipit against a bare Hocuspocus 4.7 server (no auth, no storage, no checks), ${count(COMPARE_LEVEL)} sockets,\n` +
      `the same schedules; run in the order bare, pipit, pipit, bare, ${half / 1000} s measured each after\n` +
      `${WARMUP_MS / 1000} s of warm-up; the figures pool both runs of each. Goal: pipit/bare ≤ ${GOAL.ratio}× at p99.\n`,
  );
  const bare = await startBareServer();
  try {
    const pooled = new Map<
      BenchServer,
      {
        latencies: number[];
        expected: number;
        connectMs: number;
        loopP99: number;
        cpu: string[];
        slow: string[];
      }
    >([
      [bare, { latencies: [], expected: 0, connectMs: 0, loopP99: 0, cpu: [], slow: [] }],
      [pipit, { latencies: [], expected: 0, connectMs: 0, loopP99: 0, cpu: [], slow: [] }],
    ]);
    const order: Array<[BenchServer, number]> = [
      [bare, 200],
      [pipit, 200],
      [pipit, 201],
      [bare, 201],
    ];
    for (const [server, seed] of order) {
      const sockets =
        server === bare
          ? bareSockets(bare, COMPARE_LEVEL)
          : await seedApps(pipit.pipit.server.storage, people.slice(0, COMPARE_LEVEL), [pipit]);
      const result = await measure([server], sockets, seed, half);
      const into = pooled.get(server);
      if (!into) continue;
      into.latencies.push(...result.same, ...result.cross);
      into.expected += result.expectedSame + result.expectedCross;
      into.connectMs = Math.max(into.connectMs, result.connectMs);
      into.loopP99 = Math.max(into.loopP99, result.serverLoopP99);
      into.cpu.push(cpuShare(result));
      into.slow.push(slowRanges(result.slow));
    }
    const line = table([11, 9, 14, 8, 8, 8, 9, 10]);
    line(['server', 'connect', 'samples', 'p50', 'p99', 'max', 'loop p99', 'gen CPU']);
    const stats = new Map<BenchServer, { p50: number; p99: number }>();
    for (const [server, r] of pooled) {
      const p50 = percentile(r.latencies, 50);
      const p99 = percentile(r.latencies, 99);
      stats.set(server, { p50, p99 });
      line([
        server.name,
        `${(r.connectMs / 1000).toFixed(1)} s`,
        samples(r.latencies.length, r.expected),
        ms(p50),
        ms(p99),
        ms(maxOf(r.latencies)),
        ms(r.loopP99, 9),
        r.cpu.join(', '),
      ]);
    }
    const p = stats.get(pipit);
    const b = stats.get(bare);
    if (p && b) {
      const ratio = (x: number, y: number) => `${(x / y).toFixed(2)}×`;
      line(['pipit/bare', '', '', ratio(p.p50, b.p50), ratio(p.p99, b.p99)]);
    }
    for (const [server, r] of pooled) console.log(`${server.name} slow: ${r.slow.join('; ')}`);
    console.log(
      'connect: the slower of the two runs. loop p99: the higher of the two runs, ms. gen CPU and\n' +
        'slow (as in 1, per run): each run.\n',
    );
  } finally {
    await bare.close();
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

const benchRss = process.memoryUsage.rss();
const database = await createTestDatabase();
try {
  const pipit = pipitServer(await startPipit({ env: { DATABASE_URL: database.url } }));
  let people: Person[] = [];
  try {
    const seedStarted = performance.now();
    people = await seedPeople(
      pipit.pipit.server.storage,
      maxOf([...LEVELS, COMPARE_LEVEL, CLUSTER.sockets]),
    );
    console.log(
      `Seeded ${count(people.length)} people, each with a session, in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s; ` +
        'each run gets new apps.\n',
    );
    await levels(pipit, people, { bench: benchRss, server: process.memoryUsage.rss() });
    await overhead(pipit, people);
  } finally {
    await pipit.close();
  }
  await twoInstances(database, people);
} finally {
  await database.drop();
}
console.log(`\nLoad average ${loadavg()} at the end.`);
// Everything is closed above; should anything still hold the process open, it does not hang.
setTimeout(() => {
  console.log('(something was still open after the bench; exiting)');
  process.exit(0);
}, 5_000).unref();
