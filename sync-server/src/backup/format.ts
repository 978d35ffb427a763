import type { StorageEngine } from '@pipit/protocol';

/*
 * A Pipit backup (docs/operations.md#backups): one gzip-compressed file of JSON lines, the same
 * for both engines, so a backup of one restores into the other.
 *
 *   {"pipitBackup":1,"pipit":"0.1.0","engine":"sqlite","schema":"0029_app_drafts","createdAt":…}
 *   {"table":"users","columns":["id","username",…]}
 *   ["u1","ada",…]                       one line per row; bytes as {"$b":"<base64>"}
 *   …
 *   {"end":true,"tables":{"users":2,…},"rows":…,"sha256":"<hex of every line before this one>"}
 *
 * The last line is the manifest's check: a file without it was cut short, one whose lines do not
 * hash to it was changed. Neither is ever restored.
 */

export const BACKUP_FORMAT = 1;
export const BACKUP_EXTENSION = '.pipit-backup.gz';

export interface BackupHeader {
  pipitBackup: typeof BACKUP_FORMAT;
  /** The Pipit that made it (package.json's version). */
  pipit: string;
  engine: StorageEngine;
  /** The newest migration its database had: what a restore migrates to before loading rows. */
  schema: string;
  createdAt: number;
}

export interface BackupTrailer {
  end: true;
  /** Rows per table. */
  tables: Record<string, number>;
  rows: number;
  sha256: string;
}

/** A refusal a person can act on: said as it is, with nothing changed. */
export class BackupError extends Error {}

/** Another backup of the same database holds its lock: this one was not started. */
export class BackupInProgressError extends BackupError {
  constructor(holder: string) {
    super(
      `Another backup of this database is running (${holder}), so this one was not started. Let it finish, then try again.`,
    );
  }
}

/** A row's values as a line: bytes as base64, everything else as JSON has it. */
export function encodeRow(values: unknown[]): string {
  return JSON.stringify(
    values.map((value) =>
      value instanceof Uint8Array ? { $b: Buffer.from(value).toString('base64') } : value,
    ),
  );
}

export function decodeRow(line: string): unknown[] {
  const values = JSON.parse(line) as unknown[];
  if (!Array.isArray(values)) throw new BackupError('A row of this backup is not a row.');
  return values.map((value) =>
    value !== null && typeof value === 'object' && '$b' in value
      ? new Uint8Array(Buffer.from(String((value as { $b: unknown }).$b), 'base64'))
      : value,
  );
}

/** Tables in an order that inserts every row after the rows it refers to. */
export function dependencyOrder(tables: Map<string, Set<string>>): string[] {
  const done = new Set<string>();
  const order: string[] = [];
  const visit = (table: string, path: Set<string>) => {
    if (done.has(table) || path.has(table)) return;
    path.add(table);
    for (const parent of [...(tables.get(table) ?? [])].sort()) {
      if (parent !== table && tables.has(parent)) visit(parent, path);
    }
    path.delete(table);
    done.add(table);
    order.push(table);
  };
  for (const table of [...tables.keys()].sort()) visit(table, new Set());
  return order;
}

/** Pipit's own bookkeeping tables, never in a backup (the schema says where it stood). */
export const isBookkeeping = (table: string) =>
  table.startsWith('kysely_') || OPERATIONS_TABLES.has(table);

/** What the server records about itself: not data, and about another machine once restored. */
const OPERATIONS_TABLES = new Set(['backup_runs', 'instance_status', 'storage_sizes']);
