import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createHash, randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { createId } from '@pipit/protocol';
import pg from 'pg';
import { writeBackup } from '../../src/backup/backup';
import { BackupError } from '../../src/backup/format';
import { restoreBackup, verifyBackup } from '../../src/backup/restore';
import { type BackupSource, openPostgresSource, openSqliteSource } from '../../src/backup/sources';
import { openPostgresTarget, openSqliteTarget } from '../../src/backup/targets';
import { openPostgresStorage } from '../../src/storage/postgres';
import { openSqliteStorage, SQLITE_FILE_NAME } from '../../src/storage/sqlite';
import type { Storage } from '../../src/storage/types';
import { ENGINES, type Engine } from '../support/engines';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import { insertUser } from '../support/users';

/**
 * `npm run backup` and `npm run restore` (docs/operations.md#backups) on both engines and across
 * them: a backup taken while people keep writing holds every write acknowledged before it
 * began, restores into an empty database that the server then opens, and a backup that is cut
 * short, changed, made by a newer Pipit, or restored over data is refused with nothing changed.
 */

const quiet = { log: () => undefined };
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A database of one engine, and how a backup or a restore reaches it. */
async function database(engine: Engine) {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'pipit-backup-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return {
      env: { DATA_DIR: dir } as Record<string, string>,
      open: () => openSqliteStorage(dir),
      source: async (): Promise<BackupSource> => openSqliteSource(dir),
      target: async () => openSqliteTarget(dir),
      isEmpty: () => !existsSync(path.join(dir, SQLITE_FILE_NAME)),
    };
  }
  const db: TestDatabase = await createTestDatabase();
  cleanups.push(() => db.drop());
  return {
    env: { DATABASE_URL: db.url } as Record<string, string>,
    open: () => openPostgresStorage(db.url),
    source: () => openPostgresSource(db.url),
    target: () => openPostgresTarget(db.url),
    isEmpty: async () => {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const { rows } = await client.query<{ n: string }>(
        "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public'",
      );
      await client.end();
      return Number(rows[0]!.n) === 0;
    },
  };
}

/** A few people, apps and documents, bytes among them. */
async function fill(storage: Storage) {
  const ada = await insertUser(storage, { username: 'ada_backup' });
  const appId = createId();
  await storage.apps.insert({
    id: appId,
    ownerId: ada.id,
    title: 'Field notes',
    description: 'Backed up',
    icon: null,
    createdAt: 1_700_000_000_000,
  });
  const name = `app/${appId}`;
  await storage.documents.store(name, new Uint8Array([0, 1, 2, 255]));
  await storage.documents.append([{ name, update: new Uint8Array([9, 8, 7]) }]);
  return { ada, appId, name };
}

const backupDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pipit-backups-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

async function backUp(source: BackupSource, dir: string) {
  try {
    return await writeBackup(source, dir, { now: Date.now(), output: quiet });
  } finally {
    await source.close();
  }
}

describe.each(ENGINES)('backup and restore (%s)', (engine) => {
  it('backs up while people write, and restores every acknowledged write into an empty database', async () => {
    const from = await database(engine);
    const storage = await from.open();
    const { ada, appId, name } = await fill(storage);
    // People keep editing while the backup runs: what was acknowledged before it began is in it.
    const source = await from.source();
    let writing = true;
    const writes = (async () => {
      let n = 0;
      // (A person's edits come from elsewhere: each write leaves the event loop its turn.)
      while (writing && n < 5_000) {
        await storage.documents.append([{ name, update: new Uint8Array([n++ % 256]) }]);
        await new Promise((resolve) => setImmediate(resolve));
      }
      return n;
    })();
    const made = await backUp(source, backupDir());
    writing = false;
    expect(await writes).toBeGreaterThan(0);
    await storage.close();
    expect(path.basename(made.file)).toMatch(/^pipit-.*\.pipit-backup\.gz$/);
    expect(readdirSync(path.dirname(made.file))).toEqual([path.basename(made.file)]);
    expect(made.trailer.tables.users).toBe(1);

    for (const into of ENGINES) {
      const to = await database(into);
      const result = await restoreBackup(made.file, await to.target(), quiet);
      expect(result.header.engine).toBe(engine);
      const restored = await to.open();
      try {
        expect(await restored.users.findById(ada.id)).toMatchObject({ username: 'ada_backup' });
        expect((await restored.apps.getWithRole(appId, ada.id))?.app.title).toBe('Field notes');
        const document = await restored.documents.loadWithLog(name);
        expect(document.snapshot).toEqual(new Uint8Array([0, 1, 2, 255]));
        // The update acknowledged before the backup, first in the log; the log goes on after it.
        expect(document.log[0]?.update).toEqual(new Uint8Array([9, 8, 7]));
        const next = await restored.documents.append([{ name, update: new Uint8Array([1]) }]);
        expect(next[0]).toBeGreaterThan(document.log.at(-1)!.seq);
      } finally {
        await restored.close();
      }
    }
  });

  it('refuses a backup cut short, changed, or from a newer Pipit, and restoring over data, changing nothing', async () => {
    const from = await database(engine);
    const storage = await from.open();
    await fill(storage);
    await storage.close();
    const made = await backUp(await from.source(), backupDir());
    const bytes = readFileSync(made.file);
    const dir = backupDir();
    const variant = (label: string, content: Buffer) => {
      const file = path.join(dir, `${label}.pipit-backup.gz`);
      writeFileSync(file, content);
      return file;
    };
    const lines = gunzipSync(bytes).toString('utf8').split('\n');
    const rehashed = (changed: string[]) => {
      const body = changed.slice(0, -2);
      const trailer = JSON.parse(changed.at(-2)!) as { sha256: string };
      trailer.sha256 = createHash('sha256')
        .update(body.map((l) => `${l}\n`).join(''))
        .digest('hex');
      return gzipSync([...body, JSON.stringify(trailer), ''].join('\n'));
    };
    const newer = lines.map((l, i) =>
      i === 0 ? l.replace(/"schema":"[^"]*"/, '"schema":"9999_from_the_future"') : l,
    );
    const row = lines.findIndex((l) => l.startsWith('['));
    const cases: Array<[string, string, RegExp]> = [
      ['cut short', variant('cut', bytes.subarray(0, Math.floor(bytes.length / 2))), /cut short/],
      ['without its end', variant('no-end', gzipSync(lines.slice(0, -2).join('\n'))), /has no end/],
      [
        'changed',
        variant(
          'changed',
          gzipSync(lines.map((l, i) => (i === row ? l.replace(/.$/, ' ]') : l)).join('\n')),
        ),
        /does not match its checksum/,
      ],
      ['from a newer Pipit', variant('newer', rehashed(newer)), /newer Pipit/],
      ['not a backup', variant('text', gzipSync('hello\n')), /not a Pipit backup/],
    ];
    for (const [what, file, says] of cases) {
      const to = await database(engine);
      const refused = restoreBackup(file, await to.target(), quiet);
      await expect(refused, what).rejects.toThrow(BackupError);
      await expect(refused, what).rejects.toThrow(says);
      expect(await to.isEmpty(), what).toBe(true);
    }
    await expect(verifyBackup(made.file)).resolves.toMatchObject({ header: { engine } });

    // Over a database that has data: refused before anything is read or written.
    await expect(from.target()).rejects.toThrow(/empty/);
    const again = await from.open();
    try {
      expect(
        (await again.apps.listForUser((await again.users.findByUsername('ada_backup'))!.id)).length,
      ).toBe(1);
    } finally {
      await again.close();
    }
  });

  it('a backup killed half-way (kill -9) is never taken for whole; the one before stays good', async () => {
    const from = await database(engine);
    const storage = await from.open();
    const { name } = await fill(storage);
    // Enough to take a while (about a second): 15,000 updates of 2 KB that do not compress.
    for (let i = 0; i < 150; i++) {
      await storage.documents.append(
        Array.from({ length: 100 }, () => ({ name, update: new Uint8Array(randomBytes(2048)) })),
      );
    }
    await storage.close();
    const dir = backupDir();
    const before = await backUp(await from.source(), dir);
    // The command as an operator runs it, killed as soon as its file is being written.
    const env = { ...process.env, ...from.env };
    if (!('DATABASE_URL' in from.env)) delete env.DATABASE_URL;
    const child = spawn(
      process.execPath,
      [path.resolve('scripts/pipit.mjs'), 'backup', '--to', dir],
      { env, stdio: 'ignore' },
    );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await expect
      .poll(() => readdirSync(dir).some((f) => f.endsWith('.partial')), {
        timeout: 30_000,
        interval: 5,
      })
      .toBe(true);
    child.kill('SIGKILL');
    await exited;
    const files = readdirSync(dir);
    const partial = files.find((f) => f.endsWith('.partial'))!;
    expect(files.filter((f) => f.endsWith('.pipit-backup.gz'))).toEqual([
      path.basename(before.file),
    ]);
    // What was left is not a backup: a restore refuses it and makes nothing.
    const to = await database(engine);
    await expect(restoreBackup(path.join(dir, partial), await to.target(), quiet)).rejects.toThrow(
      BackupError,
    );
    expect(await to.isEmpty()).toBe(true);
    // The killed backup's lock is not held against the next one.
    const after = await backUp(await from.source(), dir);
    await expect(verifyBackup(after.file)).resolves.toMatchObject({ header: { engine } });
    // The one before is whole, and restores.
    await restoreBackup(before.file, await to.target(), quiet);
    const restored = await to.open();
    try {
      expect((await restored.documents.loadWithLog(name)).log.length).toBe(15_001);
    } finally {
      await restored.close();
    }
  }, 60_000);

  it('never makes two backups of one database at once', async () => {
    const from = await database(engine);
    const storage = await from.open();
    await fill(storage);
    await storage.close();
    const first = await from.source();
    try {
      await expect(from.source()).rejects.toThrow(/Another backup of this database is running/);
    } finally {
      await first.close();
    }
    // Once it is done, the next one runs.
    await expect(backUp(await from.source(), backupDir())).resolves.toMatchObject({
      trailer: { tables: { users: 1 } },
    });
  });

  it('a full disk stops the backup with a message; the backups before it stay as they were', async () => {
    const from = await database(engine);
    const storage = await from.open();
    const { name } = await fill(storage);
    await storage.close();
    const earlier = await backUp(await from.source(), backupDir());
    // Then 3 MB that does not compress, for a disk of 1 MB that holds the earlier backup.
    const more = await from.open();
    for (let i = 0; i < 15; i++) {
      await more.documents.append(
        Array.from({ length: 100 }, () => ({ name, update: new Uint8Array(randomBytes(2048)) })),
      );
    }
    await more.close();
    const disk = backupDir();
    const env = { ...process.env, ...from.env };
    if (!('DATABASE_URL' in from.env)) delete env.DATABASE_URL;
    // A small file system of its own (tmpfs in a mount namespace, root or not), as an operator's
    // full disk: the command as they run it, then what the disk holds after it.
    const script =
      'mount -t tmpfs -o size=1m tmpfs "$1" && cp "$2" "$1"/ && "$3" "$4" backup --to "$1"; echo "exit=$?"; ls -A "$1"';
    const child = spawn(
      'unshare',
      ['--user', '--map-root-user', '--mount', 'sh', '-c', script, 'sh', disk, earlier.file].concat(
        [process.execPath, path.resolve('scripts/pipit.mjs')],
      ),
      { env },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise((resolve) => child.on('exit', resolve));
    const [, after = ''] = stdout.split(/^exit=/m);
    const [exit, ...left] = after.trim().split('\n');
    expect(stderr).toMatch(/The disk holding .* is full, so the backup was not made/);
    expect(exit).toBe('1');
    // Only the earlier backup, whole; nothing half-written beside it.
    expect(left).toEqual([path.basename(earlier.file)]);
    await expect(verifyBackup(earlier.file)).resolves.toMatchObject({ header: { engine } });
  }, 60_000);
});
