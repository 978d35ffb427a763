import path from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { type BackupOutput, writeBackup } from './backup';
import { BackupError } from './format';
import { restoreBackup } from './restore';
import { openServerSource } from './sources';
import { openPostgresTarget, openSqliteTarget } from './targets';

/*
 * `npm run backup [-- --to DIR]` and `npm run restore -- FILE` (docs/operations.md#backups): the
 * server's own settings (DATA_DIR's SQLite file, or DATABASE_URL), so they read and write exactly
 * the database the server does. Exit codes: 0 done, 1 refused or failed, 2 misused.
 */

const USAGE = [
  'Usage: npm run backup [-- --to DIR]   a backup of the database now (default DIR: BACKUP_DIR, or DATA_DIR/backups)',
  '       npm run restore -- FILE        into an empty DATA_DIR, or an empty DATABASE_URL database',
].join('\n');

const terminal: BackupOutput = {
  log: (line) => {
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
    console.log(line);
  },
  ...(process.stderr.isTTY
    ? { progress: (line: string) => process.stderr.write(`\r\x1b[K${line}`) }
    : {}),
};

const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;

async function backup(args: string[]): Promise<number> {
  const to = args[0] === '--to' ? args[1] : undefined;
  if ((args.length > 0 && !to) || args.length > 2) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const dir = to ? path.resolve(to) : config.backups.dir;
  const source = await openServerSource(config);
  try {
    const made = await writeBackup(source, dir, { now: Date.now(), output: terminal });
    terminal.log(
      `Backed up ${made.trailer.rows.toLocaleString('en')} rows of ${Object.keys(made.trailer.tables).length} tables (${source.engine}, schema ${source.schema}) into ${made.file} (${size(made.bytes)}).`,
    );
    return 0;
  } finally {
    await source.close();
  }
}

async function restore(args: string[]): Promise<number> {
  const [file, ...extra] = args;
  if (!file || extra.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const target = config.databaseUrl
    ? await openPostgresTarget(config.databaseUrl)
    : openSqliteTarget(config.dataDir);
  const { header, trailer, migrated } = await restoreBackup(path.resolve(file), target, terminal);
  const made = new Date(header.createdAt).toISOString();
  terminal.log(
    `Restored ${trailer.rows.toLocaleString('en')} rows of ${Object.keys(trailer.tables).length} tables from a ${header.engine} backup made ${made} by Pipit ${header.pipit} into ${target.engine}${migrated.length > 0 ? `, then migrated forward (${migrated.join(', ')})` : ''}. Start Pipit on it.`,
  );
  return 0;
}

const [command, ...rest] = process.argv.slice(2);
try {
  process.exitCode =
    command === 'backup' ? await backup(rest) : command === 'restore' ? await restore(rest) : 2;
  if (command !== 'backup' && command !== 'restore') console.error(USAGE);
} catch (error) {
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  console.error(
    error instanceof BackupError || error instanceof ConfigError
      ? error.message
      : `The ${command} failed: ${String(error instanceof Error ? error.message : error)}`,
  );
  process.exitCode = 1;
}
