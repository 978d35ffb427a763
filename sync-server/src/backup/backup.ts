import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { VERSION } from '../version';
import {
  BACKUP_EXTENSION,
  BACKUP_FORMAT,
  BackupError,
  type BackupHeader,
  type BackupTrailer,
  encodeRow,
} from './format';
import type { BackupSource } from './sources';

/** Where a command says what it does: results, and progress on a terminal. */
export interface BackupOutput {
  log(line: string): void;
  /** A line that replaces the last one (a terminal's progress); absent: no progress shown. */
  progress?(line: string): void;
}

/** `pipit-2026-12-01T04-50-00-123Z.pipit-backup.gz`: sorts by time, safe in every file system. */
export const backupFileName = (at: number) =>
  `pipit-${new Date(at).toISOString().replace(/[:.]/g, '-')}${BACKUP_EXTENSION}`;

/** Why writing failed, in words: a full disk is the one an operator can fix at once. */
function writeProblem(error: unknown, file: string): Error {
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new BackupError(
      `The disk holding ${path.dirname(file)} is full, so the backup was not made. Free some space (or keep fewer backups) and run it again; earlier backups are untouched.`,
    );
  }
  if (code === 'EACCES' || code === 'EROFS') {
    return new BackupError(`Pipit may not write in ${path.dirname(file)}: choose another folder.`);
  }
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Writes a consistent backup of `source` into `dir`, atomically: the file is written as
 * `….partial`, flushed to disk, then renamed, so a backup cut short (a crash, kill -9, a full
 * disk) is never taken for one that is whole, and the ones before it stay as they were.
 */
export async function writeBackup(
  source: BackupSource,
  dir: string,
  options: { now: number; output: BackupOutput },
): Promise<{ file: string; trailer: BackupTrailer; bytes: number }> {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, backupFileName(options.now));
  const partial = `${file}.partial`;
  const out = createWriteStream(partial, { flags: 'wx' });
  const gzip = createGzip({ level: 6 });
  gzip.pipe(out);
  const failed = new Promise<never>((_, reject) => {
    out.on('error', reject);
    gzip.on('error', reject);
  });
  failed.catch(() => undefined);
  const hash = createHash('sha256');
  const write = async (line: string) => {
    const bytes = `${line}\n`;
    hash.update(bytes);
    if (!gzip.write(bytes)) await Promise.race([once(gzip, 'drain'), failed]);
  };
  try {
    const header: BackupHeader = {
      pipitBackup: BACKUP_FORMAT,
      pipit: VERSION,
      engine: source.engine,
      schema: source.schema,
      createdAt: options.now,
    };
    await write(JSON.stringify(header));
    const tables: Record<string, number> = {};
    let rows = 0;
    for (const [i, table] of source.tables.entries()) {
      let count = 0;
      let announced = false;
      for await (const { columns, batch } of source.rows(table)) {
        if (!announced) {
          await write(JSON.stringify({ table, columns }));
          announced = true;
        }
        for (const row of batch) await write(encodeRow(row));
        count += batch.length;
        // A server making a scheduled backup serves people between batches.
        await new Promise((resolve) => setImmediate(resolve));
        options.output.progress?.(
          `Backing up: table ${i + 1} of ${source.tables.length} (${table}), ${count.toLocaleString('en')} rows`,
        );
      }
      tables[table] = count;
      rows += count;
    }
    const trailer: BackupTrailer = { end: true, tables, rows, sha256: hash.digest('hex') };
    gzip.end(`${JSON.stringify(trailer)}\n`);
    await Promise.race([once(out, 'finish'), failed]);
    // On disk before it takes its name: a crash after the rename never leaves a torn file.
    const handle = await open(partial, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, file);
    const folder = await open(dir, 'r');
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
    return { file, trailer, bytes: out.bytesWritten };
  } catch (error) {
    gzip.destroy();
    out.destroy();
    await rm(partial, { force: true });
    throw writeProblem(error, file);
  }
}
