/**
 * Storage latency on both engines: how long storing and loading one Yjs document state takes, by
 * size. Prints figures; not a pass/fail test. Run: npm run bench -- storage
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openStorage, type Storage } from '@pipit/sync-server';
import { createTestDatabase } from '@pipit/sync-server/testing';
// Not re-exported by @pipit/sync-server/testing; imported by path, as the server's own tests do.
import { percentile } from '../sync-server/test/support/timing';

const SIZES = [1024, 64 * 1024, 1024 * 1024];
const ROUNDS = 200;

async function measure(storage: Storage, size: number) {
  const state = new Uint8Array(size).map((_, i) => (i * 7) & 255);
  const stores: number[] = [];
  const loads: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const name = `app/bench${String(i % 20).padStart(22, 'a')}`;
    let t = performance.now();
    await storage.documents.store(name, state);
    stores.push(performance.now() - t);
    t = performance.now();
    await storage.documents.load(name);
    loads.push(performance.now() - t);
  }
  stores.sort((a, b) => a - b);
  loads.sort((a, b) => a - b);
  return { stores, loads };
}

const fmt = (ms: number) => `${ms.toFixed(2)} ms`.padStart(10);

async function bench(label: string, storage: Storage) {
  for (const size of SIZES) {
    const { stores, loads } = await measure(storage, size);
    console.log(
      `${label.padEnd(10)} ${`${size / 1024} KiB`.padStart(9)}  store p50 ${fmt(percentile(stores, 50))} p99 ${fmt(percentile(stores, 99))}  load p50 ${fmt(percentile(loads, 50))} p99 ${fmt(percentile(loads, 99))}`,
    );
  }
  await storage.close();
}

console.log(`Document store/load latency, ${ROUNDS} rounds per size, one connection, loopback.`);
const dir = mkdtempSync(path.join(tmpdir(), 'pipit-bench-'));
try {
  await bench('sqlite', await openStorage({ dataDir: dir, databaseUrl: undefined }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const database = await createTestDatabase();
try {
  await bench('postgres', await openStorage({ dataDir: dir, databaseUrl: database.url }));
} finally {
  await database.drop();
}
