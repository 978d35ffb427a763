/**
 * Sync figures: how fast an edit reaches the other clients on its document, on the Pipit server
 * (durable update log before every acknowledgement) and on a bare Hocuspocus server under the same
 * load; how long opening a 1,000-component app takes from IndexedDB and from the server; and
 * what the server's checks of each update cost. Prints figures; not a pass/fail test.
 * Run: npm run bench -- sync   (--quick: fewer edits/rounds)
 */
import 'fake-indexeddb/auto';
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Server } from '@hocuspocus/server';
import { entityCount, LIMITS, readDefinition } from '@pipit/app-definition';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { IndexeddbPersistence } from 'y-indexeddb';
import * as Y from 'yjs';
import { buildApp, COMPONENTS } from './big-app';
// Not re-exported by @pipit/sync-server/testing; imported by path, as the server's own tests do.
import { ResourceBounds } from '../sync-server/src/collab/resource-bounds';
import { DEFAULT_RESOURCE_LIMITS } from '../sync-server/src/collab/resource-limits';
import { clientsWriting } from '../sync-server/src/collab/client-owners';
import {
  decodeUpdate,
  misplacedPartWay,
  planIntegration,
} from '../sync-server/src/collab/yjs-integration';
import { growthOf } from '../sync-server/src/collab/yjs-usage';
import { grantEveryone } from '../sync-server/test/support/access';
import { percentile, sleep } from '../sync-server/test/support/timing';
import {
  type ClientsJob,
  type ClientsResult,
  openProvider,
  RUN_CLIENTS_FLAG,
} from './sync-clients';

const QUICK = process.argv.includes('--quick');
const ROOT = path.resolve(import.meta.dirname, '..');
const WARMUP_EDITS = 5;
/**
 * A steady rate with a random gap before each edit. 300 clients at one edit a second each is about
 * 300 edits/s in all; at five times that (gaps of 100–300 ms) the Pipit server fell behind by
 * seconds here: with the synchronous SQLite driver each update became a commit of its own.
 */
const LOADS = [
  {
    label: '2 clients, 1 document',
    documents: 1,
    clientsPerDocument: 2,
    edits: QUICK ? 40 : 250,
    gapMs: [20, 60] as [number, number],
  },
  {
    label: '300 clients, 100 documents',
    documents: 100,
    clientsPerDocument: 3,
    edits: QUICK ? 6 : 20,
    gapMs: [500, 1500] as [number, number],
  },
];
const OPEN_ROUNDS = QUICK ? 5 : 20;
const UNLOAD_TIMEOUT_MS = 15_000;

/** 26 characters of lowercase base32, like @pipit/protocol's createId (document names need it). */
function newId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return [...randomBytes(26)].map((byte) => alphabet[byte & 31]).join('');
}

const ms = (n: number, width = 8) => (Number.isFinite(n) ? n.toFixed(2) : '–').padStart(width);
const count = (n: number) => n.toLocaleString('en-US');

// ---------------------------------------------------------------------------------------------
// Servers

interface BenchServer {
  name: 'pipit' | 'bare';
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
    await sleep(5);
  }
}

async function startPipitServer(): Promise<BenchServer & { pipit: RunningPipit }> {
  const pipit = await startPipit({ access: grantEveryone('editor') });
  const hocuspocus = pipit.server.hocuspocus;
  return {
    name: 'pipit',
    pipit,
    url: `${pipit.url.replace(/^http/, 'ws')}/api/sync`,
    origin: pipit.url,
    idle: () => waitFor('the Pipit server to unload', () => hocuspocus.getDocumentsCount() === 0),
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
    idle: () =>
      waitFor('the bare server to unload', () => server.hocuspocus.getDocumentsCount() === 0),
    close: () => server.destroy(),
  };
}

// ---------------------------------------------------------------------------------------------
// 1. Edit-to-remote propagation

async function runClients(job: ClientsJob) {
  const child: ChildProcess = fork(
    path.join(import.meta.dirname, 'sync-clients.ts'),
    [RUN_CLIENTS_FLAG],
    {
      cwd: ROOT,
      execArgv: ['--import', 'tsx'],
      stdio: 'inherit',
    },
  );
  const exited = once(child, 'exit');
  const result = await new Promise<ClientsResult>((resolve, reject) => {
    child.once('message', (message) => resolve(message as ClientsResult));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the client process exited (${code}) early`)));
    child.send(job);
  });
  await exited;
  if (!result.ok) throw new Error(`clients: ${result.error}`);
  return result;
}

interface Pooled {
  latencies: number[];
  expected: number;
  connectMs: number;
  loopP99: number;
}

/** One run of the clients against one server; the server's documents are unloaded afterwards. */
async function measure(server: BenchServer, load: (typeof LOADS)[number], seed: number) {
  const job: ClientsJob = {
    url: server.url,
    origin: server.origin,
    documents: Array.from({ length: load.documents }, () => `app/${newId()}`),
    clientsPerDocument: load.clientsPerDocument,
    warmupEdits: WARMUP_EDITS,
    edits: load.edits / 2,
    gapMs: load.gapMs,
    seed,
  };
  // How long this process's event loop (the servers') was held up during the run.
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  const result = await runClients(job);
  loopDelay.disable();
  await server.idle();
  return { ...result, loopP99: loopDelay.percentile(99) / 1e6 };
}

async function propagation(bare: BenchServer, pipit: BenchServer) {
  console.log(
    'Edit-to-remote propagation, ms: each edit sets a new key in a Y.Map; latency is until each other\n' +
      'client on that document observes it. Real providers, one websocket per client, in a separate\n' +
      `process; providers send at once (no flushDelay). Each server runs twice, in the order\n` +
      `bare, pipit, pipit, bare, with the same seeded schedules, half the edits each time, after\n` +
      `${WARMUP_EDITS} warm-up edits per client; the figures pool both runs.\n`,
  );
  const WIDTHS = [27, 12, 9, 10, 8, 9, 8, 8, 8, 9];
  const line = (cells: string[]) =>
    console.log(
      cells.map((cell, i) => (i === 0 ? cell.padEnd(27) : cell.padStart(WIDTHS[i] ?? 8))).join(' '),
    );
  line([
    'load',
    'edits/client',
    'gap ms',
    'server',
    'connect',
    'samples',
    'p50',
    'p99',
    'max',
    'loop p99',
  ]);
  let seed = 0;
  for (const load of LOADS) {
    const pooled = new Map<BenchServer, Pooled>([
      [bare, { latencies: [], expected: 0, connectMs: 0, loopP99: 0 }],
      [pipit, { latencies: [], expected: 0, connectMs: 0, loopP99: 0 }],
    ]);
    seed += 2;
    for (const [server, runSeed] of [
      [bare, seed],
      [pipit, seed],
      [pipit, seed + 1],
      [bare, seed + 1],
    ] as const) {
      const result = await measure(server, load, runSeed);
      const into = pooled.get(server);
      if (!into) continue;
      into.latencies.push(...result.latencies);
      into.expected += result.expected;
      into.connectMs = Math.max(into.connectMs, result.connectMs);
      into.loopP99 = Math.max(into.loopP99, result.loopP99);
    }
    const stats = new Map<string, { p50: number; p99: number }>();
    for (const [server, result] of pooled) {
      const samples =
        result.latencies.length === result.expected
          ? count(result.expected)
          : `${count(result.latencies.length)}/${count(result.expected)}`;
      const p50 = percentile(result.latencies, 50);
      const p99 = percentile(result.latencies, 99);
      const first = stats.size === 0;
      stats.set(server.name, { p50, p99 });
      line([
        first ? load.label : '',
        first ? String(load.edits) : '',
        first ? `${load.gapMs[0]}–${load.gapMs[1]}` : '',
        server.name,
        `${result.connectMs.toFixed(0)} ms`,
        samples,
        ms(p50),
        ms(p99),
        ms(Math.max(...result.latencies)),
        ms(result.loopP99),
      ]);
    }
    const p = stats.get('pipit');
    const b = stats.get('bare');
    if (p && b) {
      const ratio = (x: number, y: number) => `${(x / y).toFixed(1)}×`;
      line(['', '', '', 'pipit/bare', '', '', ratio(p.p50, b.p50), ratio(p.p99, b.p99)]);
    }
  }
  console.log(
    'connect: the slower run, until all its clients were synced (batches of 50). loop p99: event-loop\n' +
      'delay of this process (it runs both servers) during a run, the higher of the two runs, ms.',
  );
}

// ---------------------------------------------------------------------------------------------
// 2. Opening a 1,000-component app

function checkLoaded(doc: Y.Doc, where: string) {
  const components = entityCount(doc, 'components');
  if (components !== COMPONENTS) throw new Error(`${where}: ${components} components loaded`);
}

/** One unmeasured warm-up round, then OPEN_ROUNDS measured ones. */
async function rounds(fn: () => Promise<number> | number): Promise<number[]> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < OPEN_ROUNDS; i++) times.push(await fn());
  return times;
}

/** Writes a y-indexeddb database through y-indexeddb itself: each update becomes one row. */
async function writeIndexedDb(name: string, updates: Uint8Array[]) {
  const doc = new Y.Doc();
  const persistence = new IndexeddbPersistence(name, doc);
  await persistence.whenSynced;
  for (const update of updates) Y.applyUpdate(doc, update);
  await persistence.destroy();
  doc.destroy();
}

async function openFromIndexedDb(name: string): Promise<number> {
  const started = performance.now();
  const doc = new Y.Doc();
  const persistence = new IndexeddbPersistence(name, doc);
  await persistence.whenSynced;
  const elapsed = performance.now() - started;
  checkLoaded(doc, 'IndexedDB');
  await persistence.destroy();
  doc.destroy();
  return elapsed;
}

async function openFromServer(server: BenchServer, name: string): Promise<number> {
  const started = performance.now();
  const opened = openProvider({ url: server.url, origin: server.origin, name });
  await opened.synced;
  const elapsed = performance.now() - started;
  checkLoaded(opened.doc, 'server');
  opened.destroy();
  opened.doc.destroy();
  return elapsed;
}

async function opening(pipit: BenchServer & { pipit: RunningPipit }) {
  const doc = new Y.Doc();
  const buildStarted = performance.now();
  const updates = buildApp(doc, newId);
  const buildMs = performance.now() - buildStarted;
  const state = Y.encodeStateAsUpdate(doc);
  const screens = Math.ceil(COMPONENTS / LIMITS.componentsPerScreen);

  const read = await rounds(() => {
    const started = performance.now();
    const definition = readDefinition(doc);
    const elapsed = performance.now() - started;
    const read = definition.screens.reduce((sum, s) => sum + s.components.length, 0);
    if (read !== COMPONENTS) throw new Error(`readDefinition: ${read} components`);
    return elapsed;
  });

  await writeIndexedDb('bench-compacted', [state]);
  const idbCompacted = await rounds(() => openFromIndexedDb('bench-compacted'));
  await writeIndexedDb('bench-per-edit', updates);
  const idbPerEdit = await rounds(() => openFromIndexedDb('bench-per-edit'));

  // Upload the app through a provider, wait until the server acknowledged it, let it unload.
  const name = `app/${newId()}`;
  const hocuspocus = pipit.pipit.server.hocuspocus;
  const uploader = openProvider({ url: pipit.url, origin: pipit.origin, name, doc });
  await uploader.synced;
  await waitFor('the upload', () => !uploader.provider.hasUnsyncedChanges);
  uploader.destroy();
  const unloaded = () => waitFor('the app to unload', () => !hocuspocus.documents.has(name));
  await unloaded();
  const cold = await rounds(async () => {
    const elapsed = await openFromServer(pipit, name);
    await unloaded();
    return elapsed;
  });
  const holder = openProvider({ url: pipit.url, origin: pipit.origin, name });
  await holder.synced;
  const warm = await rounds(() => openFromServer(pipit, name));
  holder.destroy();
  holder.doc.destroy();
  await pipit.idle();

  console.log(
    `\nOpening a ${count(COMPONENTS)}-component app (${screens} screens × ${LIMITS.componentsPerScreen}; ` +
      `state ${(state.byteLength / 1024).toFixed(1)} KiB; built with @pipit/app-definition in ` +
      `${count(updates.length)} edits, ${buildMs.toFixed(0)} ms), ${OPEN_ROUNDS} rounds after 1 warm-up, ms:`,
  );
  console.log(`${''.padEnd(58)}      p50      p90      max`);
  const row = (label: string, times: number[]) =>
    console.log(
      `${label.padEnd(58)} ${ms(percentile(times, 50))} ${ms(percentile(times, 90))} ${ms(Math.max(...times))}`,
    );
  row('readDefinition(doc)', read);
  row('IndexedDB → Y.Doc, compacted (1 row)', idbCompacted);
  row(`IndexedDB → Y.Doc, one row per edit (${count(updates.length)} rows)`, idbPerEdit);
  row('Pipit server, attach → synced, document not loaded', cold);
  row('Pipit server, attach → synced, document already loaded', warm);
  console.log(
    'IndexedDB: y-indexeddb 9 in Node on fake-indexeddb (in memory, no disk): the figure is\n' +
      "y-indexeddb's own reading and applying of its rows, not a browser's storage. Server opens:\n" +
      'a fresh socket and provider each time, loopback; "not loaded": the server reads it from SQLite.',
  );
}

// ---------------------------------------------------------------------------------------------
// 3. What the server's checks of each update cost

/** Microseconds per call of `fn`, p50 of 21 batches of `calls`. */
function microseconds(calls: number, fn: () => void): number {
  const batches: number[] = [];
  for (let b = 0; b < 21; b++) {
    const started = performance.now();
    for (let i = 0; i < calls; i++) fn();
    batches.push(((performance.now() - started) * 1000) / calls);
  }
  return percentile(batches, 50);
}

/**
 * Every update a client sends is decoded before it touches the document (that was already so);
 * the memory bounds add counting its items from that decode and adding up the sender's open
 * documents. Printed beside the decode, for a typical edit and for a whole app sent at once.
 */
async function updateChecks() {
  const doc = new Y.Doc();
  const updates = buildApp(doc, newId);
  const edit = updates[updates.length - 1]!;
  const whole = Y.encodeStateAsUpdate(doc);
  const bounds = new ResourceBounds({
    limits: { ...DEFAULT_RESOURCE_LIMITS, heapBudgetBytes: Number.MAX_SAFE_INTEGER },
    usageOf: () => ({ bytes: 100_000, items: 3_000 }),
    isLoaded: () => true,
  });
  bounds.openSocket('socket', 'person');
  for (let i = 0; i < 25; i++) await bounds.admit('socket', `app/${i}`);
  const growth = { bytes: edit.byteLength, items: 10 };
  const rows: Array<[string, Uint8Array, number]> = [
    [`one edit (${edit.byteLength} B)`, edit, 20_000],
    [
      `a ${count(COMPONENTS)}-component app at once (${(whole.byteLength / 1024).toFixed(0)} KiB)`,
      whole,
      5,
    ],
  ];
  console.log('\nChecks of each update on the server, µs per update (p50):');
  console.log(`${''.padEnd(58)}   decode  +items  +person    +plan +clients`);
  const empty = new Y.Doc();
  for (const [label, update, calls] of rows) {
    const decoded = decodeUpdate(update);
    const decode = microseconds(calls, () => decodeUpdate(update));
    const items = microseconds(calls * 10, () => growthOf(decoded, () => 0));
    const person = microseconds(calls * 10, () => bounds.overLimits('socket', growth));
    const plan = microseconds(calls * 10, () => {
      const planned = planIntegration(decoded, empty);
      misplacedPartWay(planned, empty);
    });
    const clients = microseconds(calls * 10, () => clientsWriting(decoded, empty));
    console.log(
      `${label.padEnd(58)} ${decode.toFixed(1).padStart(8)} ${items.toFixed(2).padStart(7)} ${person.toFixed(2).padStart(8)} ${plan.toFixed(2).padStart(8)} ${clients.toFixed(2).padStart(8)}`,
    );
  }
  empty.destroy();
  console.log(
    "decode: decodeUpdate (Yjs's, noting its sections), which refuses malformed updates (done\n" +
      'before the bounds too). items: counting from it the structs, their values and the deleted\n' +
      "ranges. person: adding up the bytes and items of the sender's 25 open documents. plan: what\n" +
      'Yjs will do with it (what waits, where part-way items land: yjs-integration.ts). clients:\n' +
      'the client ids it writes under, checked against their owners (client-owners.ts).',
  );
  doc.destroy();
}

// ---------------------------------------------------------------------------------------------

const cpus = os.cpus();
console.log(
  `Sync benchmark${QUICK ? ' (--quick)' : ''}: Node ${process.version}, ${os.availableParallelism()} cores ` +
    `(${cpus[0]?.model.trim() ?? 'unknown CPU'}), loopback; servers in this process, Pipit on SQLite ` +
    'in a temporary data directory.\n',
);
const pipit = await startPipitServer();
const bare = await startBareServer();
try {
  await propagation(bare, pipit);
  await opening(pipit);
  await updateChecks();
} finally {
  await bare.close();
  await pipit.close();
}
