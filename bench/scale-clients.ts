/**
 * The client half of `npm run bench -- scale`: runs in its own process (forked by bench/scale.ts),
 * so the load generator's work does not queue behind the server's on one event loop. Each socket
 * is a raw Hocuspocus client — no HocuspocusProvider, no awareness — so that thousands of them
 * stay cheap: a `ws` WebSocket with the browser's `Origin` and the person's session cookie, one
 * document, and a local Y.Doc. Every writer makes one edit a second, at a random phase of its
 * own; each other writer on the document records how long the edit took to reach it. Reports its
 * own CPU time and event-loop delay, so a reader can see whether the generator was the bottleneck.
 * Not meant to be run by hand.
 *
 * The wire format is Hocuspocus's: [varString document][varUint message type]…, with y-protocols'
 * sync messages inside type 0. bench/ cannot resolve y-protocols or lib0 (they are the server's
 * dependencies, not the bench's), so the few varints and the two sync steps are written here, with
 * Yjs doing what y-protocols' readSyncMessage does (encodeStateAsUpdate for a step 1,
 * applyUpdate for a step 2 or an update).
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import * as Y from 'yjs';
import {
  busyRetryDelay,
  reconnectDelay,
  socketRetryDelay,
} from '../packages/protocol/src/sync-retry';
import { isSyncCloseReason } from '../packages/protocol/src/sync-refusals';
import { sleep } from '../sync-server/test/support/timing';

export interface ScaleSocket {
  /** ws://… of the sync endpoint. */
  url: string;
  /** The `Origin` header of the handshake (Pipit refuses foreign origins). */
  origin: string;
  /** The Cookie header (the person's session); none for a bare Hocuspocus server. */
  cookie?: string;
  document: string;
  /** Which server instance this socket is on (same- and cross-instance pairs are told apart). */
  instance: number;
}

export interface ScaleJob {
  sockets: ScaleSocket[];
  /** Sockets opened at once; the next batch starts when the last one is synced. */
  connectBatch: number;
  warmupMs: number;
  measureMs: number;
  /** Each writer edits once per interval, at its own random phase. */
  intervalMs: number;
  /** Same seed, same phases: both servers of a comparison get the same schedule. */
  seed: number;
  /** A delivery slower than this marks its half-second as slow (see `slow` in the result). */
  slowMs: number;
  /**
   * A reconnect storm instead of edits: once every socket is synced, says `connected` and waits
   * (at most this long, ms) until the server has restarted and every socket is synced again.
   */
  stormTimeoutMs?: number;
}

/** Sent while the job runs, so the server's process measures the same window. */
export interface ScaleProgress {
  kind: 'measuring' | 'measured' | 'connected';
}

/** A reconnect storm: the sockets' times down, and how long until the last was synced again. */
export interface StormResult {
  /** Per socket that went down: ms from its close to synced again. */
  downs: number[];
  /** From the first socket closing until the last was synced again, ms. */
  allSyncedMs: number;
  /** Sockets not synced again before the timeout. */
  stillDown: number;
}

export type ScaleResult =
  | {
      kind: 'result';
      ok: true;
      connectMs: number;
      /** Measured edits made. */
      edits: number;
      /** Deliveries expected (each measured edit, to each other writer on its document). */
      expectedSame: number;
      expectedCross: number;
      /** Edit-to-remote latency, ms: receiver on the sender's instance, and on another one. */
      same: number[];
      cross: number[];
      /** This process's CPU time during the measured window, and the window's length. */
      cpuUserMs: number;
      cpuSystemMs: number;
      windowMs: number;
      loopP99: number;
      loopMax: number;
      /**
       * Half-seconds whose slowest delivery took longer than `slowMs`: [seconds after the first
       * edit (warm-up included) at which the edits were made, that slowest latency in ms].
       */
      slow: Array<[number, number]>;
      /** Messages the server sent that ended a document's connection (type 7), and lost sockets. */
      closed: number;
      /** Upgrades answered 503 and documents refused with `server_busy` (each tried again). */
      shedSockets: number;
      shedDocuments: number;
      /** Documents the server refused or closed, by reason (each tried again if it passes). */
      refusals: Array<[string, number]>;
      storm?: StormResult;
    }
  | { kind: 'result'; ok: false; error: string };

/** Hocuspocus's MessageType values used here. */
const MESSAGE = { sync: 0, awareness: 1, auth: 2, syncReply: 4, close: 7, ping: 9, pong: 10 };
/** y-protocols sync message types. */
const SYNC = { step1: 0, step2: 1, update: 2 };
const AUTH = { token: 0, permissionDenied: 1, authenticated: 2 };
/** The transaction origin of everything that came from the server. */
const REMOTE = 'remote';
const CONNECT_TIMEOUT_MS = 90_000;
const ATTEMPT_TIMEOUT_MS = 30_000;
/** Refusals that pass by themselves, and how long the app waits after one (documents.ts). */
const PASSING_REFUSALS = new Set([
  'storage_unavailable',
  'too_many_documents',
  'over_capacity',
  'slow_down',
]);
const RETRY_AFTER_REFUSAL_MS = 60_000;
const DELIVERY_TIMEOUT_MS = 15_000;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** mulberry32: a small seeded generator, so every run makes the same schedule. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------------
// lib0's encoding, as far as the protocol needs it

function varUint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push(0x80 | (n & 0x7f));
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

function varBytes(bytes: Uint8Array): Uint8Array[] {
  return [Uint8Array.from(varUint(bytes.byteLength)), bytes];
}

/** [varString document][varUint type][varUint…][varUint8Array payload]. */
function frame(document: string, uints: number[], payload?: Uint8Array | string): Uint8Array {
  const name = utf8.encode(document);
  const parts: Uint8Array[] = [
    ...varBytes(name),
    Uint8Array.from(uints.flatMap((n) => varUint(n))),
  ];
  if (payload !== undefined) {
    parts.push(...varBytes(typeof payload === 'string' ? utf8.encode(payload) : payload));
  }
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

class Reader {
  private at = 0;
  constructor(private readonly data: Uint8Array) {}
  uint(): number {
    let n = 0;
    let scale = 1;
    for (;;) {
      const byte = this.data[this.at++];
      if (byte === undefined) throw new Error('message ended inside a number');
      n += (byte & 0x7f) * scale;
      if (byte < 0x80) return n;
      scale *= 128;
    }
  }
  bytes(): Uint8Array {
    const length = this.uint();
    const out = this.data.subarray(this.at, this.at + length);
    this.at += length;
    return out;
  }
  string(): string {
    return fromUtf8.decode(this.bytes());
  }
}

// ---------------------------------------------------------------------------------------------
// One client

interface Edit {
  /** performance.now() of the sending client (same process, same clock). */
  t: number;
  measured: boolean;
  /** The sender's instance. */
  i: number;
}

interface Client {
  doc: Y.Doc;
  map: Y.Map<Edit>;
  /** Resolves once the first connection is synced; rejects when it cannot be. */
  synced: Promise<void>;
  /** For each time the synced socket closed: ms until it was synced again (see `down`). */
  downs: number[];
  /** Whether the socket is closed (or not synced again yet) after having been synced. */
  down(): boolean;
  close(): void;
}

interface Tally {
  same: number[];
  cross: number[];
  /** performance.now() of the first scheduled edit. */
  t0: number;
  /** The slowest delivery of the edits made in each half-second after t0. */
  slowest: Map<number, number>;
  warmupSeen: number;
  closed: number;
  /** Upgrades answered 503 and documents refused with `server_busy`: tried again later. */
  shedSockets: number;
  shedDocuments: number;
  /** performance.now() of the first synced socket that closed (a storm's start). */
  firstDown: number | null;
  /** Documents the server refused or closed, by reason. */
  refusals: Map<string, number>;
}

/** One more refusal (or try given up) for `reason`. */
function noteRefusal(tally: Tally, reason: string) {
  tally.refusals.set(reason, (tally.refusals.get(reason) ?? 0) + 1);
}

/**
 * A client: opens the socket, authenticates, syncs, and keeps it so. Like the app, it tries again
 * when the server sheds it (an upgrade answered 503, a document refused with `server_busy`) or
 * when its socket closes, each wait spread as the app's are (@pipit/protocol sync-retry.ts).
 */
function connect(socket: ScaleSocket, tally: Tally): Client {
  const doc = new Y.Doc();
  // eslint-disable-next-line no-restricted-syntax -- the benchmark's own document, not an app's
  const map = doc.getMap<Edit>('bench');
  const name = socket.document;
  let ws: WebSocket | null = null;
  /** The current socket is synced. */
  let synced = false;
  let everSynced = false;
  let closed = false;
  let downSince: number | null = null;
  let attempt = 0;
  let busyInRow = 0;
  const downs: number[] = [];
  const send = (data: Uint8Array) => {
    if (ws?.readyState === WebSocket.OPEN) ws.send(data);
  };

  doc.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin !== REMOTE) send(frame(name, [MESSAGE.sync, SYNC.update], update));
  });
  map.observe((event, transaction) => {
    if (transaction.origin !== REMOTE) return;
    const now = performance.now();
    for (const key of event.keysChanged) {
      const edit = map.get(key);
      if (!edit) continue;
      if (!edit.measured) tally.warmupSeen += 1;
      else {
        const latency = now - edit.t;
        (edit.i === socket.instance ? tally.same : tally.cross).push(latency);
        const half = Math.floor((edit.t - tally.t0) / 500);
        tally.slowest.set(half, Math.max(tally.slowest.get(half) ?? 0, latency));
      }
    }
  });

  let resolveSynced!: () => void;
  let rejectSynced!: (error: Error) => void;
  const firstSync = new Promise<void>((resolve, reject) => {
    resolveSynced = resolve;
    rejectSynced = reject;
  });
  const timer = setTimeout(
    () => giveUp(`not synced after ${CONNECT_TIMEOUT_MS} ms`),
    CONNECT_TIMEOUT_MS,
  );
  function giveUp(why: string) {
    clearTimeout(timer);
    if (!everSynced) rejectSynced(new Error(`${name}: ${why}`));
    closed = true;
    ws?.terminate();
  }

  function open() {
    if (closed) return;
    attempt += 1;
    synced = false;
    const current = new WebSocket(socket.url, {
      headers: { Origin: socket.origin, ...(socket.cookie ? { Cookie: socket.cookie } : {}) },
      handshakeTimeout: ATTEMPT_TIMEOUT_MS,
    });
    // As the provider does when it hears nothing for 30 s (messageReconnectTimeout): a try that
    // is not synced by then starts over.
    const attemptTimer = setTimeout(() => {
      if (!synced) {
        noteRefusal(tally, 'no answer');
        end('no answer', socketRetryDelay(attempt));
      }
    }, ATTEMPT_TIMEOUT_MS);
    current.once('close', () => clearTimeout(attemptTimer));
    ws = current;
    current.binaryType = 'nodebuffer';
    let ended = false;
    /**
     * The server refused the document, or closed its connection, with one of its reasons: tried
     * again as the app's documents do (client/sync/core/documents.ts), or never.
     */
    const refusedWith = (reason: string) => {
      noteRefusal(tally, reason);
      if (reason === 'server_busy') {
        tally.shedDocuments += 1;
        busyInRow += 1;
        end('busy', busyRetryDelay(busyInRow));
      } else if (PASSING_REFUSALS.has(reason)) {
        end(reason, RETRY_AFTER_REFUSAL_MS * (0.75 + Math.random() / 2));
      } else end(`refused: ${reason}`, null);
    };
    /** This try is over: again after `retryAfter` ms, or never (null). */
    const end = (why: string, retryAfter: number | null) => {
      if (ended) return;
      ended = true;
      current.terminate();
      if (closed) return;
      if (retryAfter === null) giveUp(why);
      else setTimeout(open, retryAfter);
    };
    current.on('open', () => send(frame(name, [MESSAGE.auth, AUTH.token], 'token')));
    current.on('unexpected-response', (_request, response) => {
      if (response.statusCode !== 503) {
        noteRefusal(tally, `upgrade ${response.statusCode}`);
        end(`the upgrade was answered ${response.statusCode}`, null);
        return;
      }
      tally.shedSockets += 1;
      end('busy', socketRetryDelay(attempt));
    });
    // Refused or reset while the server restarts: the socket tries again, backing off.
    current.on('error', () => end('error', socketRetryDelay(attempt)));
    current.on('close', () => {
      if (ended || closed) return;
      if (!synced) {
        end('closed before it was synced', socketRetryDelay(attempt));
        return;
      }
      // A synced socket closed (the server stopped): back at its own moment, as the app's are.
      tally.closed += 1;
      downSince ??= performance.now();
      tally.firstDown ??= downSince;
      attempt = 0;
      end('closed', reconnectDelay());
    });
    current.on('message', (data: Buffer) => {
      const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      if (bytes.length === 1 && bytes[0] === MESSAGE.ping) {
        current.send(Uint8Array.of(MESSAGE.pong));
        return;
      }
      const reader = new Reader(bytes);
      reader.string();
      const type = reader.uint();
      if (type === MESSAGE.auth) {
        const answer = reader.uint();
        if (answer === AUTH.authenticated) {
          send(frame(name, [MESSAGE.sync, SYNC.step1], Y.encodeStateVector(doc)));
        } else if (answer === AUTH.permissionDenied) {
          refusedWith(reader.string());
        }
      } else if (type === MESSAGE.sync || type === MESSAGE.syncReply) {
        const syncType = reader.uint();
        const payload = reader.bytes();
        if (syncType === SYNC.step1) {
          send(frame(name, [MESSAGE.sync, SYNC.step2], Y.encodeStateAsUpdate(doc, payload)));
        } else {
          Y.applyUpdate(doc, payload, REMOTE);
          if (syncType === SYNC.step2 && !synced) {
            synced = true;
            attempt = 0;
            busyInRow = 0;
            if (downSince !== null) downs.push(performance.now() - downSince);
            downSince = null;
            if (!everSynced) {
              everSynced = true;
              clearTimeout(timer);
              resolveSynced();
            }
          }
        }
      } else if (type === MESSAGE.close) {
        // The server ended this document's connection: for good when it refuses the person
        // (a SyncCloseReason), else (a restart's "Reset Connection") the client comes back.
        tally.closed += 1;
        const reason = reader.string();
        if (isSyncCloseReason(reason)) {
          refusedWith(reason);
          return;
        }
        downSince ??= performance.now();
        tally.firstDown ??= downSince;
        attempt = 0;
        end('closed', reconnectDelay());
      }
      // Awareness (1) and sync status (8) are of no interest here.
    });
  }
  open();

  return {
    doc,
    map,
    synced: firstSync,
    downs,
    down: () => downSince !== null,
    close() {
      closed = true;
      clearTimeout(timer);
      ws?.close();
      doc.destroy();
    },
  };
}

// ---------------------------------------------------------------------------------------------

async function run(job: ScaleJob): Promise<ScaleResult> {
  const tally: Tally = {
    same: [],
    cross: [],
    t0: 0,
    slowest: new Map(),
    warmupSeen: 0,
    closed: 0,
    shedSockets: 0,
    shedDocuments: 0,
    firstDown: null,
    refusals: new Map(),
  };
  const clients: Client[] = [];
  const started = performance.now();
  try {
    for (let i = 0; i < job.sockets.length; i += job.connectBatch) {
      const batch = job.sockets.slice(i, i + job.connectBatch).map((s) => connect(s, tally));
      clients.push(...batch);
      await Promise.all(batch.map((client) => client.synced));
    }
  } catch (error) {
    for (const client of clients) client.close();
    throw error;
  }
  const connectMs = performance.now() - started;
  if (job.stormTimeoutMs !== undefined) return storm(job, clients, tally, connectMs);

  const writers = new Map<string, ScaleSocket[]>();
  for (const socket of job.sockets) {
    writers.set(socket.document, [...(writers.get(socket.document) ?? []), socket]);
  }
  const random = seeded(job.seed);
  const phases = job.sockets.map(() => random() * job.intervalMs);

  const t0 = performance.now() + 100;
  tally.t0 = t0;
  const measureFrom = t0 + job.warmupMs;
  const measureTo = measureFrom + job.measureMs;
  let edits = 0;
  let expectedSame = 0;
  let expectedCross = 0;
  let warmupExpected = 0;

  // Every writer edits at t0 + phase + k × interval until the measured window ends.
  const schedule = job.sockets.map(
    (socket, index) =>
      new Promise<void>((resolve) => {
        const client = clients[index];
        const others = (writers.get(socket.document) ?? []).filter((other) => other !== socket);
        let k = 0;
        const next = () => {
          const at = t0 + (phases[index] ?? 0) + k * job.intervalMs;
          if (at >= measureTo || !client) return resolve();
          setTimeout(
            () => {
              const measured = at >= measureFrom;
              client.map.set(`${index}:${k}`, {
                t: performance.now(),
                measured,
                i: socket.instance,
              });
              if (measured) {
                edits += 1;
                for (const other of others) {
                  if (other.instance === socket.instance) expectedSame += 1;
                  else expectedCross += 1;
                }
              } else {
                warmupExpected += others.length;
              }
              k += 1;
              next();
            },
            Math.max(0, at - performance.now()),
          );
        };
        next();
      }),
  );

  const loop = monitorEventLoopDelay({ resolution: 1 });
  let cpu = process.cpuUsage();
  setTimeout(
    () => {
      loop.enable();
      cpu = process.cpuUsage();
      process.send?.({ kind: 'measuring' } satisfies ScaleProgress);
    },
    Math.max(0, measureFrom - performance.now()),
  );
  await Promise.all(schedule);
  const windowMs = performance.now() - measureFrom;
  const used = process.cpuUsage(cpu);
  loop.disable();
  process.send?.({ kind: 'measured' } satisfies ScaleProgress);

  const deadline = performance.now() + DELIVERY_TIMEOUT_MS;
  while (
    (tally.same.length + tally.cross.length < expectedSame + expectedCross ||
      tally.warmupSeen < warmupExpected) &&
    performance.now() < deadline
  ) {
    await sleep(20);
  }

  for (const client of clients) client.close();
  await sleep(300); // lets the sockets' closing handshakes finish
  return {
    kind: 'result',
    ok: true,
    connectMs,
    edits,
    expectedSame,
    expectedCross,
    same: tally.same,
    cross: tally.cross,
    cpuUserMs: used.user / 1000,
    cpuSystemMs: used.system / 1000,
    windowMs,
    loopP99: loop.percentile(99) / 1e6,
    loopMax: loop.max / 1e6,
    slow: [...tally.slowest]
      .filter(([, latency]) => latency > job.slowMs)
      .sort(([a], [b]) => a - b)
      .map(([half, latency]) => [half / 2, latency]),
    closed: tally.closed,
    shedSockets: tally.shedSockets,
    shedDocuments: tally.shedDocuments,
    refusals: [...tally.refusals],
  };
}

/** Every socket synced: the server restarts (bench/scale.ts), and each comes back. */
async function storm(
  job: ScaleJob,
  clients: Client[],
  tally: Tally,
  connectMs: number,
): Promise<ScaleResult> {
  const shedBefore = { sockets: tally.shedSockets, documents: tally.shedDocuments };
  process.send?.({ kind: 'connected' } satisfies ScaleProgress);
  const deadline = performance.now() + (job.stormTimeoutMs ?? 0);
  const back = (client: Client) => client.downs.length > 0 && !client.down();
  while (!clients.every(back) && performance.now() < deadline) await sleep(20);
  const lastBack = performance.now();
  const downs = clients.flatMap((client) => client.downs);
  for (const client of clients) client.close();
  await sleep(300);
  return {
    kind: 'result',
    ok: true,
    connectMs,
    edits: 0,
    expectedSame: 0,
    expectedCross: 0,
    same: [],
    cross: [],
    cpuUserMs: 0,
    cpuSystemMs: 0,
    windowMs: 0,
    loopP99: 0,
    loopMax: 0,
    slow: [],
    closed: tally.closed,
    shedSockets: tally.shedSockets - shedBefore.sockets,
    shedDocuments: tally.shedDocuments - shedBefore.documents,
    refusals: [...tally.refusals],
    storm: {
      downs,
      allSyncedMs: tally.firstDown === null ? NaN : lastBack - tally.firstDown,
      stillDown: clients.filter((client) => !back(client)).length,
    },
  };
}

/** Forked by bench/scale.ts with this flag; importing this module runs nothing. */
export const RUN_SCALE_CLIENTS_FLAG = '--run-scale-clients';

if (process.argv.includes(RUN_SCALE_CLIENTS_FLAG) && process.send) {
  process.once('message', (job: ScaleJob) => {
    run(job)
      .catch((error: unknown): ScaleResult => ({ kind: 'result', ok: false, error: String(error) }))
      .then((result) =>
        process.send?.(result, () => {
          process.disconnect();
          // Nothing should be left running; if something is, it does not keep the bench waiting.
          setTimeout(() => process.exit(0), 2_000).unref();
        }),
      )
      .catch(() => process.exit(1));
  });
}
