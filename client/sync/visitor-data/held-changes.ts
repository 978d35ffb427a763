import type { MemoryWrite } from '@pipit/runtime';

/*
 * A first visit's changes not yet in the visitor's document (visitor-data.ts, HeldDataStore),
 * also written to localStorage as they are made: synchronous, so a page closed while the
 * document's code loads, or a load that failed (the network went before the service worker had
 * the code), loses none of them. The next open of the document writes what is left
 * (document-store.ts). Every change carries its record's id, values and time, so writing one
 * twice changes nothing.
 */

const keyOf = (appId: string) => `pipit:held-changes:${appId}`;

/**
 * How long after its changes went into the document their note stays: IndexedDB stores them a
 * moment later, and a page closed in between writes them again at the next open.
 */
const FORGET_AFTER_MS = 2_000;

const KINDS = new Set<unknown>(['create', 'update', 'remove', 'counter']);

/** Notes the changes held now for the app (none: the note goes). */
export function noteHeld(appId: string, changes: readonly MemoryWrite[]): void {
  try {
    if (changes.length === 0) localStorage.removeItem(keyOf(appId));
    else localStorage.setItem(keyOf(appId), JSON.stringify(changes));
  } catch {
    // Storage full or blocked: the changes are still held in memory and written when it opens.
  }
}

/** The changes noted for the app and not written yet (a tolerant read: anything else is left). */
export function heldOnDevice(appId: string): MemoryWrite[] {
  try {
    const value = JSON.parse(localStorage.getItem(keyOf(appId)) ?? '[]') as unknown;
    if (!Array.isArray(value)) return [];
    return value.filter(
      (change: unknown): change is MemoryWrite =>
        typeof change === 'object' &&
        change !== null &&
        KINDS.has((change as { kind?: unknown }).kind),
    );
  } catch {
    return [];
  }
}

/** Forgets the app's note once its changes are surely stored, if `still()` says so then. */
export function forgetHeldLater(appId: string, still: () => boolean = () => true): void {
  setTimeout(() => {
    if (still()) noteHeld(appId, []);
  }, FORGET_AFTER_MS);
}
