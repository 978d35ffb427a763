/**
 * Backups on both engines (docs/operations.md): for 10,000 apps and 1 GB of documents, how long a
 * backup takes and how big it is, how long restoring it takes, and what a person editing meanwhile
 * notices — the time from an edit to the server's acknowledgement ("Saved"), p50/p99, while the
 * server makes a scheduled backup in its own process, against the same edits without one, in the
 * same run. Prints figures; not a pass/fail test.
 * Run: npm run bench -- backup   (--quick: 1,000 apps and 100 MB)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createTestDatabase, insertUser, startPipit } from '@pipit/sync-server/testing';
import * as Y from 'yjs';
// Not re-exported by @pipit/sync-server/testing; imported by path, as the server's own tests do.
import { restoreBackup } from '../sync-server/src/backup/restore';
import { openPostgresTarget, openSqliteTarget } from '../sync-server/src/backup/targets';
import { openPostgresStorage } from '../sync-server/src/storage/postgres';
import { openSqliteStorage } from '../sync-server/src/storage/sqlite';
import type { Storage } from '../sync-server/src/storage/types';
import { grantEveryone } from '../sync-server/test/support/access';
import { percentile } from '../sync-server/test/support/timing';
import { openProvider } from './sync-clients';
import { newId } from './big-app';

const QUICK = process.argv.includes('--quick');
const APPS = QUICK ? 1_000 : 10_000;
/** 10,000 × 100 KB: 1 GB of documents. */
const DOCUMENT_BYTES = 100 * 1024;
const OWNERS = 100;
const EDIT_GAP_MS = 20;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/**
 * Ten app-like documents of about 100 KB (typed text and maps, as an app's are, compressing as
 * real ones do), reused across the apps: gzip's window is 32 KB, so no two rows share bytes.
 */
function sampleDocuments(): Uint8Array[] {
  return Array.from({ length: 10 }, (_, d) => {
    const doc = new Y.Doc();
    // eslint-disable-next-line no-restricted-syntax -- bytes shaped like an app's, not an app
    const screens = doc.getMap('screens');
    let i = 0;
    while (Y.encodeStateAsUpdate(doc).length < DOCUMENT_BYTES) {
      const component = new Y.Map<unknown>();
      component.set('type', ['text', 'heading', 'button', 'image'][i % 4]);
      component.set('text', new Y.Text(`${newId()} item ${i} of sample ${d}: ${newId()}`));
      component.set('props', { size: i % 5, align: i % 2 ? 'start' : 'center', id: newId() });
      screens.set(newId(), component);
      i += 1;
    }
    return Y.encodeStateAsUpdate(doc);
  });
}

async function fill(storage: Storage) {
  const samples = sampleDocuments();
  const owners = [];
  for (let i = 0; i < OWNERS; i++) {
    owners.push(await insertUser(storage, { username: `owner_${i}_${newId().slice(0, 6)}` }));
  }
  let bytes = 0;
  for (let i = 0; i < APPS; i++) {
    const id = newId();
    await storage.apps.insert({
      id,
      ownerId: owners[i % OWNERS]!.id,
      title: `App ${i}`,
      description: 'Benchmark',
      icon: null,
      createdAt: Date.now(),
    });
    const state = samples[i % samples.length]!;
    await storage.documents.store(`app/${id}`, state);
    bytes += state.length;
    if (i % 1_000 === 999) process.stdout.write(`\r  filling: ${i + 1} apps, ${mb(bytes)}   `);
  }
  process.stdout.write('\n');
  return bytes;
}

/** Edits to one document until `until` resolves (or `count` are made); ms to each acknowledgement. */
async function editLatencies(url: string, origin: string, until: Promise<unknown> | number) {
  const opened = openProvider({ url, origin, name: `app/${newId()}` });
  await opened.synced;
  const text = opened.doc.getText('bench');
  const samples: number[] = [];
  let done = false;
  const count = typeof until === 'number' ? until : Infinity;
  if (typeof until !== 'number') void until.then(() => (done = true));
  while (samples.length < count && !done) {
    const acknowledged = new Promise<void>((resolve) => {
      const check = () => {
        if (opened.provider.unsyncedChanges === 0) {
          opened.provider.off('unsyncedChanges', check);
          resolve();
        }
      };
      opened.provider.on('unsyncedChanges', check);
    });
    const started = performance.now();
    text.insert(text.length, 'x');
    await acknowledged;
    samples.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, EDIT_GAP_MS));
  }
  opened.destroy();
  return samples;
}

const latencyLine = (label: string, samples: number[]) =>
  console.log(
    `  ${label.padEnd(44)} p50 ${percentile(samples, 50).toFixed(1).padStart(6)} ms   p99 ${percentile(samples, 99).toFixed(1).padStart(6)} ms   (${samples.length} edits)`,
  );

async function bench(engine: 'sqlite' | 'postgres') {
  console.log(`\n${engine}: ${APPS.toLocaleString('en')} apps`);
  const scratch = mkdtempSync(path.join(tmpdir(), 'pipit-bench-backup-'));
  const database = engine === 'postgres' ? await createTestDatabase() : undefined;
  const into = engine === 'postgres' ? await createTestDatabase() : undefined;
  try {
    const dataDir = path.join(scratch, 'data');
    const storage = database
      ? await openPostgresStorage(database.url)
      : await openSqliteStorage(dataDir);
    const filled = performance.now();
    const bytes = await fill(storage);
    await storage.close();
    console.log(`  documents: ${mb(bytes)} (filled in ${seconds(performance.now() - filled)})`);

    const pipit = await startPipit({
      access: grantEveryone('editor'),
      dataDir,
      env: {
        BACKUP_DIR: path.join(scratch, 'backups'),
        BACKUP_DRILL: 'false',
        ...(database ? { DATABASE_URL: database.url } : {}),
      },
    });
    const url = `${pipit.url.replace(/^http/, 'ws')}/api/sync`;
    try {
      const without = await editLatencies(url, pipit.url, 300);
      const started = performance.now();
      const backup = pipit.server.backups.run({
        id: newId(),
        kind: 'backup',
        key: `backup:bench-${newId()}`,
        payload: { at: Date.now() },
        attempt: 1,
      });
      const during = await editLatencies(url, pipit.url, backup);
      await backup;
      const took = performance.now() - started;
      const [run] = await pipit.server.storage.backupRuns.recent(1);
      if (run?.status !== 'done') throw new Error(`the backup failed: ${run?.message}`);
      console.log(
        `  backup (in the server, people editing):       ${seconds(took)}, ${mb(run.bytes!)} (${((run.bytes! / bytes) * 100).toFixed(0)}% of the documents), ${run.rows!.toLocaleString('en')} rows`,
      );
      latencyLine('edit to "Saved", no backup running', without);
      latencyLine('edit to "Saved", during the backup', during);

      const target = into
        ? await openPostgresTarget(into.url)
        : openSqliteTarget(path.join(scratch, 'restored'));
      const restoring = performance.now();
      await restoreBackup(run.file!, target, { log: () => undefined });
      console.log(
        `  restore into an empty ${engine} database:      ${seconds(performance.now() - restoring)}`,
      );
    } finally {
      await pipit.close();
    }
  } finally {
    await database?.drop();
    await into?.drop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

console.log(
  `Backups: ${APPS.toLocaleString('en')} apps, ${mb(APPS * DOCUMENT_BYTES)} of documents${QUICK ? ' (--quick)' : ''}; one edit every ${EDIT_GAP_MS} ms after the last was saved`,
);
await bench('sqlite');
await bench('postgres');
process.exit(0);
