/**
 * The client half of `npm run bench -- sync`: runs in its own process (forked by bench/sync.ts), so
 * the clients' work does not queue behind the server's on one event loop, as on real devices. Opens
 * one real Hocuspocus provider per client, each on its own websocket, edits on a seeded schedule,
 * and measures how long each edit takes to reach the other clients on its document. Not meant to
 * be run by hand; bench/sync.ts also uses its `openProvider`.
 */
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { sleep } from '../sync-server/test/support/timing';

export interface ClientsJob {
  /** ws://… of the sync endpoint. */
  url: string;
  /** The `Origin` header every handshake sends (Pipit refuses foreign origins). */
  origin: string;
  documents: string[];
  clientsPerDocument: number;
  warmupEdits: number;
  edits: number;
  /** Each client waits a random time in [min, max) ms before each of its edits. */
  gapMs: [number, number];
  /** Same seed, same schedule: both servers get the same load. */
  seed: number;
}

export type ClientsResult =
  | { ok: true; connectMs: number; expected: number; latencies: number[] }
  | { ok: false; error: string };

interface Client {
  index: number;
  map: Y.Map<Edit>;
  destroy(): void;
}

interface Edit {
  /** performance.now() of the sending client when it made the edit (same process, same clock). */
  t: number;
  measured: boolean;
}

const CONNECT_BATCH = 50;
const CONNECT_TIMEOUT_MS = 20_000;
const DELIVERY_TIMEOUT_MS = 15_000;

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

export interface BenchProvider {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  /** Resolves once the server authorized and synced the document; rejects if it refused. */
  synced: Promise<void>;
  destroy(): void;
}

/**
 * A real provider on its own websocket, as a browser tab on `origin` would open it (Node has no
 * WebSocket global: `ws`, sending that `Origin`).
 */
export function openProvider(options: {
  url: string;
  origin: string;
  name: string;
  doc?: Y.Doc;
}): BenchProvider {
  class OriginWebSocket extends WebSocket {
    constructor(address: string) {
      super(address, { headers: { Origin: options.origin } });
    }
  }
  const socket = new HocuspocusProviderWebsocket({
    url: options.url,
    WebSocketPolyfill: OriginWebSocket,
    maxAttempts: 1,
  });
  const doc = options.doc ?? new Y.Doc();
  const provider = new HocuspocusProvider({
    name: options.name,
    document: doc,
    websocketProvider: socket,
  });
  const synced = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${options.name} was not synced after ${CONNECT_TIMEOUT_MS} ms`)),
      CONNECT_TIMEOUT_MS,
    );
    provider.on('synced', () => {
      clearTimeout(timer);
      resolve();
    });
    provider.on('authenticationFailed', ({ reason }: { reason: string }) => {
      clearTimeout(timer);
      reject(new Error(`${options.name} was refused: ${reason}`));
    });
  });
  provider.attach();
  return {
    doc,
    provider,
    synced,
    destroy() {
      provider.destroy();
      socket.destroy();
    },
  };
}

async function connect(job: ClientsJob, index: number, name: string): Promise<Client> {
  const opened = openProvider({ url: job.url, origin: job.origin, name });
  await opened.synced;
  // eslint-disable-next-line no-restricted-syntax -- the benchmark's own document, not an app's
  return { index, map: opened.doc.getMap<Edit>('bench'), destroy: opened.destroy };
}

async function run(job: ClientsJob): Promise<ClientsResult> {
  const started = performance.now();
  const clients: Client[] = [];
  const names = job.documents.flatMap((name) =>
    Array.from({ length: job.clientsPerDocument }, () => name),
  );
  for (let i = 0; i < names.length; i += CONNECT_BATCH) {
    const batch = names.slice(i, i + CONNECT_BATCH);
    clients.push(...(await Promise.all(batch.map((name, j) => connect(job, i + j, name ?? '')))));
  }
  const connectMs = performance.now() - started;

  const latencies: number[] = [];
  let warmupSeen = 0;
  for (const client of clients) {
    client.map.observe((event, transaction) => {
      if (transaction.local) return;
      const now = performance.now();
      for (const key of event.keysChanged) {
        const edit = client.map.get(key);
        if (!edit) continue;
        if (edit.measured) latencies.push(now - edit.t);
        else warmupSeen += 1;
      }
    });
  }

  const random = seeded(job.seed);
  // Draw every gap up front, client by client: the schedule does not depend on timing.
  const schedule = clients.map(() =>
    Array.from(
      { length: job.warmupEdits + job.edits },
      () => job.gapMs[0] + random() * (job.gapMs[1] - job.gapMs[0]),
    ),
  );
  const others = job.clientsPerDocument - 1;

  async function phase(from: number, count: number, measured: boolean, seen: () => number) {
    await Promise.all(
      clients.map(async (client) => {
        for (let n = from; n < from + count; n++) {
          await sleep(schedule[client.index]?.[n] ?? 0);
          client.map.set(`${client.index}:${n}`, { t: performance.now(), measured });
        }
      }),
    );
    const expected = clients.length * count * others;
    const deadline = performance.now() + DELIVERY_TIMEOUT_MS;
    while (seen() < expected && performance.now() < deadline) await sleep(10);
    return expected;
  }

  await phase(0, job.warmupEdits, false, () => warmupSeen);
  const expected = await phase(job.warmupEdits, job.edits, true, () => latencies.length);

  for (const client of clients) client.destroy();
  await sleep(200); // lets the sockets' closing handshakes finish
  return { ok: true, connectMs, expected, latencies };
}

/** Forked by bench/sync.ts with this flag; importing this module (for openProvider) runs nothing. */
export const RUN_CLIENTS_FLAG = '--run-clients';

if (process.argv.includes(RUN_CLIENTS_FLAG) && process.send) {
  process.once('message', (job: ClientsJob) => {
    run(job)
      .catch((error: unknown): ClientsResult => ({ ok: false, error: String(error) }))
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
