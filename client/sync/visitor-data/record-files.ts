import { liveQuery } from 'dexie';
import { createBackoff } from '../core/backoff';
import { type DeviceFile, localDb, type PendingUpload } from '../core/local-db';

/*
 * Photos and files on records, on this device (docs/product/records.md#photos-and-files-on-records):
 * the bytes are kept in IndexedDB by their SHA-256 the moment they are picked — so a photo taken
 * offline shows at once, and after a reload — and sent to the server by a queue that runs when the
 * device is online, again the moment it comes back online, and with backoff after a failure. The
 * records' document only ever holds the reference. How the queue reaches the server is its
 * caller's (`send`): this folder never calls the API itself.
 */

export type { DeviceFile, PendingUpload };

/** The SHA-256 of a blob's bytes, in lowercase hex: what a record names them by. */
export async function sha256Hex(blob: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Keeps picked bytes (and a photo's thumbnail) on this device; the same bytes twice are one. */
export async function keepOnDevice(file: Omit<DeviceFile, 'createdAt'>): Promise<void> {
  await localDb().deviceFiles.put({ ...file, createdAt: Date.now() });
}

/** Object URLs of this device's copies, made once per page (each stands for a blob in memory). */
const objectUrls = new Map<string, string>();

/**
 * Where this device's copy of a file shows (`thumbnail`: the small one made when it was picked,
 * what lists and galleries show), or null when this device does not have it.
 */
export async function deviceFileUrl(
  hash: string,
  variant: 'thumbnail' | 'original',
): Promise<string | null> {
  const key = `${hash}:${variant}`;
  const known = objectUrls.get(key);
  if (known) return known;
  const file = await deviceFile(hash);
  if (!file) return null;
  const blob = variant === 'thumbnail' ? (file.thumbnail ?? file.blob) : file.blob;
  const url = URL.createObjectURL(blob);
  objectUrls.set(key, url);
  return url;
}

interface Asked {
  resolve(file: DeviceFile | undefined): void;
  reject(error: unknown): void;
}

/** Files asked for in this moment, by hash: read together (flushDeviceFiles). */
let asked: Map<string, Asked[]> | null = null;

/**
 * This device's copy of a file, read with every other asked for in the same moment: a gallery
 * drawing 40 cards reads 40 files in one IndexedDB request, and its cards' pictures all arrive in
 * one task (one render) rather than 40 (docs/performance.md, "Records at scale").
 */
function deviceFile(hash: string): Promise<DeviceFile | undefined> {
  if (!asked) {
    asked = new Map();
    queueMicrotask(flushDeviceFiles);
  }
  const waiting = asked;
  return new Promise((resolve, reject) => {
    const list = waiting.get(hash);
    if (list) list.push({ resolve, reject });
    else waiting.set(hash, [{ resolve, reject }]);
  });
}

function flushDeviceFiles(): void {
  const batch = asked;
  asked = null;
  if (!batch) return;
  const hashes = [...batch.keys()];
  localDb()
    .deviceFiles.bulkGet(hashes)
    .then(
      (files) => hashes.forEach((hash, i) => batch.get(hash)?.forEach((a) => a.resolve(files[i]))),
      (error: unknown) => batch.forEach((list) => list.forEach((a) => a.reject(error))),
    );
}

/** Queues a kept file to be sent to `path` for `owner` (sending one already queued is one). */
export async function queueUpload(
  upload: Pick<PendingUpload, 'owner' | 'path' | 'hash' | 'kind'>,
): Promise<void> {
  await localDb().pendingUploads.put({
    ...upload,
    key: `${upload.owner}:${upload.path}`,
    queuedAt: Date.now(),
  });
}

/**
 * Calls `onChange` with `owner`'s files the server refused (not an image it can read, the quota
 * full), oldest first, now and after every change: what the person is told about.
 */
export function watchRefusedUploads(
  owner: string,
  onChange: (refused: PendingUpload[]) => void,
): () => void {
  const subscription = liveQuery(async () =>
    (await localDb().pendingUploads.where('owner').equals(owner).sortBy('queuedAt')).filter(
      (upload) => upload.problem !== undefined,
    ),
  ).subscribe({
    next: onChange,
    error: (error: unknown) =>
      console.warn('Could not read the files waiting on this device:', error),
  });
  return () => subscription.unsubscribe();
}

/** Forgets a refused file's upload (the person read why); its copy stays on this device. */
export async function dismissRefusedUpload(key: string): Promise<void> {
  await localDb().pendingUploads.delete(key);
}

/** What sending one file came to: kept by the server, not now (offline, busy), or refused. */
export type UploadSent =
  { status: 'done' } | { status: 'later' } | { status: 'refused'; problem: string };

/** The first retry after a failed pass, then doubling up to the most. */
const FIRST_RETRY_MS = 1_000;
const MOST_RETRY_MS = 60_000;

/**
 * Sends `owner`'s queued files, oldest first, now, each time the device comes back online, and
 * after a pass the server could not finish (backing off). `kick` runs a pass now (a file was just
 * queued); `stop` ends it all (the person left, the app closed).
 */
export function startUploads(options: {
  owner: string;
  send(upload: PendingUpload, blob: Blob): Promise<UploadSent>;
}): { kick(): void; stop(): void } {
  const { owner, send } = options;
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  const backoff = createBackoff(() => kick(), FIRST_RETRY_MS, MOST_RETRY_MS);

  async function pass(): Promise<void> {
    const db = localDb();
    const queued = await db.pendingUploads.where('owner').equals(owner).sortBy('queuedAt');
    for (const upload of queued) {
      if (stopped) return;
      if (upload.problem) continue;
      const file = await db.deviceFiles.get(upload.hash);
      if (!file) {
        // Its bytes are gone from this device (storage cleared): nothing left to send.
        await db.pendingUploads.delete(upload.key);
        continue;
      }
      let sent: UploadSent;
      try {
        sent = await send(upload, file.blob);
      } catch {
        sent = { status: 'later' };
      }
      if (sent.status === 'later') {
        backoff.schedule();
        return;
      }
      if (sent.status === 'done') await db.pendingUploads.delete(upload.key);
      else await db.pendingUploads.update(upload.key, { problem: sent.problem });
    }
    backoff.reset();
  }

  function kick() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .catch((error: unknown) => console.warn('Could not send photos and files yet:', error))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          kick();
        }
      });
  }

  const online = () => {
    backoff.cancel();
    backoff.reset();
    kick();
  };
  window.addEventListener('online', online);
  // A file queued from anywhere (a form, a record moved into a space, another tab) is sent at once.
  const queued = liveQuery(() =>
    localDb().pendingUploads.where('owner').equals(owner).count(),
  ).subscribe({ next: () => kick(), error: () => undefined });
  return {
    kick,
    stop() {
      stopped = true;
      backoff.cancel();
      queued.unsubscribe();
      window.removeEventListener('online', online);
    },
  };
}
