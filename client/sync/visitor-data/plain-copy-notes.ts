import type { VisitorData } from '@pipit/app-definition';

/*
 * Which data has a plain copy on this device (plain-copy.ts), noted in localStorage, and the copies
 * read ahead of the first render: what both the start (plain-copy.ts) and the copies' database
 * (plain-copy-store.ts) read.
 */

/**
 * Data this large is copied; smaller data is read from its document before the first render, as
 * quickly (1,000 records: ~100 ms at a phone's speed, within the start's wait), and stays
 * writable from the first render on, where a copy is drawn read-only until its document is read.
 */
export const COPY_FROM_RECORDS = 1_000;

/**
 * Which documents have a copy, and of how many records: noted in localStorage, read at once at
 * the start, so data too small to copy costs no read of the copies' database.
 */
export const noteKey = (name: string) => `pipit-plain-copy:${name}`;

export interface CopyNote {
  /** How many records the copy holds. */
  records: number;
  /** The document's version the copy was made from (its state vector), if known. */
  version: string | null;
}

export function noteOf(name: string): CopyNote | null {
  try {
    const note = JSON.parse(localStorage.getItem(noteKey(name)) ?? 'null') as Partial<CopyNote>;
    if (typeof note?.records !== 'number') return null;
    return {
      records: note.records,
      version: typeof note.version === 'string' ? note.version : null,
    };
  } catch {
    return null;
  }
}

export const copiedRecords = (name: string) => noteOf(name)?.records ?? 0;

/** Copies read before the first render (readPlainCopyAhead), by document, until drawn over. */
const ahead = new Map<string, VisitorData>();

/** A copy read ahead, drawn until its document is read. */
export function holdAhead(name: string, copy: VisitorData): void {
  ahead.set(name, copy);
}

/** The copy read ahead for a document, if any (it stays until `dropPlainCopyAhead`). */
export function plainCopyAhead(name: string): VisitorData | null {
  return ahead.get(name) ?? null;
}

/** The document is read: its copy read ahead is not drawn again. */
export function dropPlainCopyAhead(name: string): void {
  ahead.delete(name);
}
