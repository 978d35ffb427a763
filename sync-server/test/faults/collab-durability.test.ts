import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createId } from '@pipit/protocol';
import { openPostgresStorage } from '../../src/storage/postgres';
import { openSqliteStorage } from '../../src/storage/sqlite';
import type { Storage } from '../../src/storage/types';
import { type ChildPipit, spawnPipit } from '../support/child-server';
import { ENGINES, type Engine } from '../support/engines';
import { createTestDatabase } from '../support/postgres';
import { acknowledged, connectProvider, type TestProvider } from '../support/provider';

/** Two documents, two writers each; each writer keeps nothing but its in-memory Y.Doc. */
const WRITERS_PER_DOCUMENT = 2;
/**
 * SIGKILL once this many entries are acknowledged in all, while every writer is still pushing:
 * the edits are continuous up to the kill, so the store debounce (2 s after the last change, 10 s
 * at most) has not written a snapshot of them (the test checks the log holds them).
 */
const KILL_AFTER_ACKS = 400;

const entry = (writer: number, i: number) => `w${writer}-${i}`;

function entriesIn(snapshot: Uint8Array | null, log: Array<{ update: Uint8Array }>): string[] {
  const doc = new Y.Doc();
  if (snapshot) Y.applyUpdate(doc, snapshot);
  for (const { update } of log) Y.applyUpdate(doc, update);
  return doc.getArray<string>('entries').toArray();
}

describe.each(ENGINES)('acknowledged edits survive kill -9 (%s)', (engine: Engine) => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('keeps every entry the server acknowledged before it was killed', async () => {
    let env: Record<string, string>;
    let openStorage: () => Promise<Storage>;
    if (engine === 'sqlite') {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'pipit-durability-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      env = { DATA_DIR: dataDir };
      openStorage = () => openSqliteStorage(dataDir);
    } else {
      const database = await createTestDatabase();
      cleanups.push(() => database.drop());
      // DATA_DIR still holds the mail outbox; documents go to PostgreSQL.
      const dataDir = mkdtempSync(path.join(tmpdir(), 'pipit-durability-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      env = { DATA_DIR: dataDir, DATABASE_URL: database.url };
      openStorage = () => openPostgresStorage(database.url);
    }

    const server: ChildPipit = await spawnPipit(env);
    cleanups.push(() => server.stop('SIGKILL'));
    expect(server.lines.find((l) => typeof l.url === 'string')).toMatchObject({ storage: engine });

    const names = [`app/${createId()}`, `app/${createId()}`];
    const writers: Array<{ client: TestProvider; name: string; acked: number }> = [];
    for (const name of names) {
      for (let k = 0; k < WRITERS_PER_DOCUMENT; k++) {
        const client = connectProvider({ url: server.url, name });
        cleanups.push(() => client.destroy());
        writers.push({ client, name, acked: 0 });
      }
    }
    expect(await Promise.all(writers.map((w) => w.client.ready))).toEqual(writers.map(() => true));
    // The initial sync's own acknowledgement (of the provider's sync step 2) comes first, so that
    // from here on each acknowledgement answers exactly the one entry in flight.
    await Promise.all(writers.map((w) => acknowledged(w.client.provider)));

    let killed = false;
    let totalAcked = 0;
    let resolveKilled!: () => void;
    // Also ends the burst if the server dies on its own (then too few entries are acknowledged).
    const killedSignal = new Promise<'killed'>((resolve) => {
      resolveKilled = () => resolve('killed');
      void server.exited.then(() => resolve('killed'));
    });
    const startedAt = performance.now();
    let killedAt = 0;
    const bursts = writers.map(async (writer, index) => {
      const entries = writer.client.doc.getArray<string>('entries');
      for (let i = 0; !killed; i++) {
        // One transaction, so one update message, per entry.
        entries.push([entry(index, i)]);
        const outcome = await Promise.race([
          acknowledged(writer.client.provider).then(() => 'acked' as const),
          killedSignal,
        ]);
        if (outcome !== 'acked') return;
        // The server's SyncStatus for this entry's message arrived: it counts as saved.
        writer.acked = i + 1;
        totalAcked += 1;
        if (totalAcked === KILL_AFTER_ACKS) {
          // No await: the other writers are mid-push, their entries in flight.
          server.child.kill('SIGKILL');
          killedAt = performance.now();
          killed = true;
          resolveKilled();
        }
      }
    });
    await Promise.all(bursts);
    expect(await server.exited).toBeNull();
    expect(server.child.signalCode).toBe('SIGKILL');
    writers.forEach((w) => w.client.destroy());

    const acked = writers.map((w) => w.acked);
    // Acknowledgements the server sent just before it died may still arrive after kill().
    const total = acked.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    expect(acked.every((n) => n > 0)).toBe(true);

    /**
     * Writer `index` sends entry i+1 only after entry i was acknowledged, and the server logs an
     * update before acknowledging it: so its stored entries are exactly its first `acked` ones,
     * plus at most the one that was in flight when the server died.
     */
    const expectAllAcknowledged = (name: string, present: string[]) => {
      writers.forEach((writer, index) => {
        if (writer.name !== name) return;
        const own = present.filter((e) => e.startsWith(`w${index}-`));
        expect(own.length, `writer ${index} on ${name}`).toBeGreaterThanOrEqual(writer.acked);
        expect(own.length, `writer ${index} on ${name}`).toBeLessThanOrEqual(writer.acked + 1);
        expect(own).toEqual(Array.from({ length: own.length }, (_, i) => entry(index, i)));
      });
    };

    // Straight from storage, as the killed process left it.
    const storage = await openStorage();
    let onlyInLog = 0;
    let inSnapshot = 0;
    try {
      for (const name of names) {
        const { snapshot, log } = await storage.documents.loadWithLog(name);
        expect(log.length, `${name} has a log`).toBeGreaterThan(0);
        const present = entriesIn(snapshot, log);
        expectAllAcknowledged(name, present);
        const snapshotOnly = new Set(entriesIn(snapshot, []));
        inSnapshot += snapshotOnly.size;
        onlyInLog += present.filter((e) => !snapshotOnly.has(e)).length;
      }
    } finally {
      await storage.close();
    }
    // The acknowledged entries were saved by the log, not by a debounced snapshot.
    expect(onlyInLog).toBeGreaterThanOrEqual(total);

    // A new server process on the same storage serves them (snapshot + log reloaded).
    const restarted = await spawnPipit(env);
    cleanups.push(() => restarted.stop('SIGKILL'));
    for (const name of names) {
      const reader = connectProvider({ url: restarted.url, name });
      cleanups.push(() => reader.destroy());
      expect(await reader.ready).toBe(true);
      expectAllAcknowledged(name, reader.doc.getArray<string>('entries').toArray());
      reader.destroy();
    }
    expect(await restarted.stop('SIGTERM')).toBe(0);

    console.log(
      `[${engine}] kill -9 after ${Math.round(killedAt - startedAt)} ms of edits: ` +
        `${total} entries acknowledged (per writer ${acked.join('/')}), all present ` +
        `after restart; ${onlyInLog} entries only in the log, ${inSnapshot} in snapshots`,
    );
  });
});
