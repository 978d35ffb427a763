import {
  type FieldValue,
  isStoredValue,
  type VisitorData,
  type VisitorRecord,
} from '@pipit/app-definition';
import {
  COPY_FROM_RECORDS,
  type CopyNote,
  dropPlainCopyAhead,
  noteKey,
  noteOf,
} from './plain-copy-notes';

/*
 * The plain copies' own database (plain-copy.ts): reading a copy, checked as anything read from
 * the device is, and writing it from the data's store after its changes. Loaded only where a copy
 * is read (an app whose note says it has one) or written (with the store, after the first
 * render): an app of a few records never loads it before its first render.
 */

const DATABASE = 'pipit-plain-copies';
const STORE = 'copies';

export interface StoredCopy {
  name: string;
  records: unknown;
  counters: unknown;
  savedAt: number;
}

let opening: Promise<IDBDatabase> | null = null;

/** The database at `version`, or at whatever version it has (a new one is made at 1). */
function openAt(version?: number): Promise<IDBDatabase> {
  return new Promise<IDBDatabase>((resolve, reject) => {
    const request =
      version === undefined ? indexedDB.open(DATABASE) : indexedDB.open(DATABASE, version);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(STORE)) {
        request.result.createObjectStore(STORE, { keyPath: 'name' });
      }
    };
    request.onsuccess = () => {
      const db = request.result;
      // Another tab deleting or upgrading it: let go, and open it again at the next use.
      db.onversionchange = () => {
        db.close();
        opening = null;
      };
      resolve(db);
    };
    request.onerror = () => reject(request.error ?? new Error('IndexedDB refused'));
    request.onblocked = () => reject(new Error('IndexedDB is blocked'));
  });
}

function database(): Promise<IDBDatabase> {
  opening ??= openAt().then((db) => {
    if (db.objectStoreNames.contains(STORE)) return db;
    // The database is there without its store: something opened the name before we did (an
    // open without a version makes an empty version 1). One version up makes the store.
    const next = db.version + 1;
    db.close();
    return openAt(next);
  });
  // A failure is not kept: the next read or write tries again.
  opening.catch(() => (opening = null));
  return opening;
}

function run<T>(
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  return database().then(
    (db) =>
      new Promise<T>((resolve, reject) => {
        const transaction = db.transaction(STORE, mode);
        const request = work(transaction.objectStore(STORE));
        transaction.oncomplete = () => resolve(request.result);
        transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB failed'));
        transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB aborted'));
      }),
  );
}

/**
 * A stored record as the document's reader would give it, or null: storage is the device's, and
 * anything could be there (another version of Pipit, a damaged database). A record that reads as
 * one is taken as it is (copying 5,000 of them cost the first render ~10 ms at a phone's speed).
 */
function recordOf(raw: unknown): VisitorRecord | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const record = raw as Record<string, unknown>;
  const { id, collectionId, values, createdAt, updatedAt, authorId } = record;
  if (typeof id !== 'string' || typeof collectionId !== 'string' || !collectionId) return null;
  if (typeof values !== 'object' || values === null || Array.isArray(values)) return null;
  if (typeof createdAt !== 'number' || typeof updatedAt !== 'number') return null;
  if (authorId !== undefined && typeof authorId !== 'string') return null;
  let plain: Record<string, FieldValue> | null = null;
  for (const key in values) {
    const value = (values as Record<string, unknown>)[key];
    if (isStoredValue(value)) continue;
    // Values no field holds are left out, as the document's reader leaves them out.
    plain ??= { ...(values as Record<string, FieldValue>) };
    delete plain[key];
  }
  return (plain ? { ...record, values: plain } : record) as unknown as VisitorRecord;
}

/** The copy as read, checked; null for none, or one that does not read as a person's data. */
export function readCopy(stored: unknown): VisitorData | null {
  if (typeof stored !== 'object' || stored === null) return null;
  const { records, counters } = stored as Partial<StoredCopy>;
  if (!Array.isArray(records) || typeof counters !== 'object' || counters === null) return null;
  const out: VisitorRecord[] = [];
  for (const raw of records as unknown[]) {
    const record = recordOf(raw);
    if (!record) return null;
    out.push(record);
  }
  const numbers: Record<string, number> = {};
  for (const [key, value] of Object.entries(counters))
    if (key !== '__proto__' && typeof value === 'number' && Number.isFinite(value))
      numbers[key] = value;
  return { records: out, counters: numbers };
}

/** The copy kept for a document (its database name), or null. Never throws. */
export async function readPlainCopy(name: string): Promise<VisitorData | null> {
  try {
    return readCopy(await run('readonly', (store) => store.get(name)));
  } catch (error) {
    console.warn('Could not read the copy of your data kept on this device:', error);
    return null;
  }
}

/** A copy is written this long after the last change (and at once when the page is hidden). */
const WRITE_AFTER_MS = 2_000;

function noteCopied(name: string, note: CopyNote | null): void {
  try {
    if (note === null) localStorage.removeItem(noteKey(name));
    else localStorage.setItem(noteKey(name), JSON.stringify(note));
  } catch {
    // Without the note the copy is not read: the document is, as for small data.
  }
}

/** Copies waiting to be written, by document: the newest data of each. */
const due = new Map<
  string,
  { records: readonly unknown[]; counters: unknown; version: string | null }
>();
let timer: ReturnType<typeof setTimeout> | null = null;
/** The data last written for each document: the same object is not written twice. */
const written = new Map<string, object>();

/** Writes every copy that is due now. */
export async function writeDueCopies(): Promise<void> {
  if (timer) clearTimeout(timer);
  timer = null;
  const copies = [...due];
  due.clear();
  if (copies.length === 0) return;
  try {
    await run('readwrite', (store) => {
      let last: IDBRequest<unknown> | null = null;
      for (const [name, data] of copies) {
        // Too small to copy now: a copy made when it was larger goes.
        last =
          data.records.length < COPY_FROM_RECORDS
            ? (store.delete(name) as IDBRequest<unknown>)
            : (store.put({
                name,
                records: data.records,
                counters: data.counters,
                savedAt: Date.now(),
              } satisfies StoredCopy) as IDBRequest<unknown>);
      }
      return last!;
    });
    for (const [name, { records, version }] of copies)
      noteCopied(
        name,
        records.length < COPY_FROM_RECORDS ? null : { records: records.length, version },
      );
  } catch (error) {
    // Only the copy: the document has every change. The next change writes it again.
    for (const [name] of copies) written.delete(name);
    console.warn('Could not keep a copy of your data on this device:', error);
  }
}

let listening = false;

/**
 * Keeps `data` as the copy of a document, a moment from now (the data a store shows after a
 * change: a new object then, so the same one is not written again).
 */
export function keepPlainCopy(
  name: string,
  data: { readonly records: readonly VisitorRecord[]; readonly counters: VisitorData['counters'] },
  /** The document's version (its state vector): a copy of the same version is not written again. */
  version: string | null = null,
): void {
  if (written.get(name) === data) return;
  written.set(name, data);
  const note = noteOf(name);
  // The copy is of this very version already (a start that drew it, then read the document).
  if (version !== null && note?.version === version && !due.has(name)) return;
  // Small data has no copy (nor had one): nothing to write.
  if (data.records.length < COPY_FROM_RECORDS && !note && !due.has(name)) return;
  // Only what is data: the store's object carries its writes too, which no copy can hold.
  due.set(name, { records: data.records, counters: data.counters, version });
  if (!listening && typeof document !== 'undefined') {
    listening = true;
    // The page may not come back: what is due is written as it goes.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') void writeDueCopies();
    });
    addEventListener('pagehide', () => void writeDueCopies());
  }
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => void writeDueCopies(), WRITE_AFTER_MS);
}

/** The copy of a document goes (the document's own copy on this device went). Never throws. */
export async function forgetPlainCopy(name: string): Promise<void> {
  due.delete(name);
  written.delete(name);
  dropPlainCopyAhead(name);
  noteCopied(name, null);
  try {
    await run('readwrite', (store) => store.delete(name));
  } catch (error) {
    console.warn('Could not remove the copy of your data kept on this device:', error);
  }
}
