import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { MIGRATION_NAMES } from '../storage/migrations';
import type { BackupOutput } from './backup';
import {
  BACKUP_FORMAT,
  BackupError,
  type BackupHeader,
  type BackupTrailer,
  decodeRow,
} from './format';
import type { RestoreTarget } from './targets';

/** The backup's lines, uncompressed; a file cut short or not gzip is said so. */
async function* linesOf(file: string): AsyncGenerator<string> {
  if (!existsSync(file)) throw new BackupError(`There is no file ${file}.`);
  const input = createReadStream(file).pipe(createGunzip());
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) yield line;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'Z_BUF_ERROR' || code === 'Z_DATA_ERROR' || code === 'ERR_PADDING_1') {
      throw new BackupError(
        `${file} is not a whole Pipit backup (it was cut short, or is not one). Nothing was restored; use another backup.`,
      );
    }
    throw error;
  } finally {
    lines.close();
  }
}

function readHeader(line: string | undefined, file: string): BackupHeader {
  let header: Partial<BackupHeader> = {};
  try {
    header = JSON.parse(line ?? '') as Partial<BackupHeader>;
  } catch {
    // Said below.
  }
  if (header.pipitBackup !== BACKUP_FORMAT || typeof header.schema !== 'string') {
    throw new BackupError(`${file} is not a Pipit backup this version can read.`);
  }
  if (header.engine !== 'sqlite' && header.engine !== 'postgres') {
    throw new BackupError(`${file} names an engine this Pipit does not know.`);
  }
  if (!MIGRATION_NAMES.includes(header.schema)) {
    throw new BackupError(
      `${file} was made by a newer Pipit (${header.pipit ?? 'unknown'}, schema ${header.schema}). Upgrade this Pipit first, then restore it.`,
    );
  }
  return header as BackupHeader;
}

/**
 * Reads the whole backup once and checks it: a header this Pipit reads, every line hashing to the
 * trailer's checksum, the rows it counts. Resolves with its manifest; throws a BackupError for a
 * file cut short, changed, or made by a newer Pipit.
 */
export async function verifyBackup(
  file: string,
): Promise<{ header: BackupHeader; trailer: BackupTrailer }> {
  const hash = createHash('sha256');
  let header: BackupHeader | null = null;
  let trailer: BackupTrailer | null = null;
  let rows = 0;
  for await (const line of linesOf(file)) {
    if (trailer) throw new BackupError(`${file} goes on after its end: it was changed.`);
    if (!header) {
      header = readHeader(line, file);
    } else if (line.startsWith('{"end":')) {
      trailer = JSON.parse(line) as BackupTrailer;
      continue;
    } else if (line.startsWith('[')) {
      rows += 1;
    }
    hash.update(`${line}\n`);
  }
  if (!header) throw new BackupError(`${file} is empty.`);
  if (!trailer) {
    throw new BackupError(
      `${file} has no end: it was cut short (a backup that did not finish). Nothing was restored; use another backup.`,
    );
  }
  if (hash.digest('hex') !== trailer.sha256 || rows !== trailer.rows) {
    throw new BackupError(
      `${file} does not match its checksum: it was changed or damaged since it was made. Nothing was restored; use another backup.`,
    );
  }
  return { header, trailer };
}

/** The rows of a verified backup, each with its table and columns. */
async function* rowsOf(file: string) {
  let table = '';
  let columns: string[] = [];
  let first = true;
  for await (const line of linesOf(file)) {
    if (first) {
      first = false;
      continue;
    }
    if (line.startsWith('[')) yield { table, columns, row: decodeRow(line) };
    else if (line.startsWith('{"table":')) {
      ({ table, columns } = JSON.parse(line) as { table: string; columns: string[] });
    }
  }
}

/**
 * Restores a backup into an empty database (`target`): checked first (nothing is touched for a
 * backup that is not whole), the schema made as the backup's, the rows loaded in one transaction,
 * then migrated to this Pipit's schema. Any failure leaves the target empty again.
 */
export async function restoreBackup(
  file: string,
  target: RestoreTarget,
  output: BackupOutput,
): Promise<{ header: BackupHeader; trailer: BackupTrailer; migrated: string[] }> {
  try {
    output.progress?.('Checking the backup…');
    const { header, trailer } = await verifyBackup(file);
    await target.migrateTo(header.schema);
    let done = 0;
    const counted = async function* () {
      for await (const row of rowsOf(file)) {
        done += 1;
        if (done % 1000 === 0) {
          output.progress?.(
            `Restoring: ${done.toLocaleString('en')} of ${trailer.rows.toLocaleString('en')} rows`,
          );
        }
        yield row;
      }
    };
    await target.load(counted());
    const migrated = await target.migrateToLatest();
    await target.close();
    return { header, trailer, migrated };
  } catch (error) {
    await target.undo().catch(() => undefined);
    throw error;
  }
}
