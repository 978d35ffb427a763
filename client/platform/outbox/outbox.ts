import { useSyncExternalStore } from 'react';
import { createBackoff } from '../../sync/core/backoff';
import { OfflineError } from '../api/request';

/**
 * Writes made offline, kept on this device until the server can take them (docs/product/routes.md:
 * contact and feedback messages and profile edits wait until online). Each kind has a sender;
 * when the device comes back online (or Pipit starts online), queued writes are sent in order.
 */
export interface QueuedWrite {
  id: string;
  kind: string;
  payload: unknown;
  queuedAt: number;
  /** Who wrote it (account id, or null when signed out): only they send it, on a shared device. */
  owner: string | null;
}

type Sender = (payload: unknown) => Promise<unknown>;

/** The account signed in now (set by the session), to match queued writes with their writer. */
let currentOwner: () => string | null = () => null;
export function setOutboxOwner(owner: () => string | null): void {
  currentOwner = owner;
}

const STORAGE_KEY = 'pipit:outbox';
const senders = new Map<string, Sender>();
const listeners = new Set<() => void>();
let flushing: Promise<void> | undefined;
/** The network is often not usable for a moment after `online`: retry, backing off to a minute. */
const retry = createBackoff(() => void flushOutbox(), 1_000, 60_000);

function scheduleRetry() {
  if (navigator.onLine) retry.schedule();
}

function read(): QueuedWrite[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(value) ? (value as QueuedWrite[]) : [];
  } catch {
    return [];
  }
}

let snapshot = read();

function write(items: QueuedWrite[]) {
  snapshot = items;
  localStorage.setItem(STORAGE_KEY, JSON.stringify(items));
  listeners.forEach((l) => l());
}

export function registerSender(kind: string, sender: Sender): void {
  senders.set(kind, sender);
}

export function enqueue(kind: string, payload: unknown): void {
  write([
    ...read(),
    { id: crypto.randomUUID(), kind, payload, queuedAt: Date.now(), owner: currentOwner() },
  ]);
}

async function sendQueued(): Promise<void> {
  for (const item of read()) {
    const sender = senders.get(item.kind);
    // Another person's write waits for them; it is never sent under this session.
    if (!sender || (item.owner ?? null) !== currentOwner()) continue;
    try {
      await sender(item.payload);
    } catch (error) {
      if (error instanceof OfflineError) {
        scheduleRetry();
        return;
      }
      // The server refused it (e.g. invalid now): it will never go; drop it, say so in the console.
      console.warn(`A queued ${item.kind} could not be sent and was dropped:`, error);
    }
    write(read().filter((other) => other.id !== item.id));
  }
  retry.reset();
}

/**
 * Sends what is queued, oldest first; stops at the first write that still cannot go. One flush at
 * a time. (The flag is cleared in `.finally` after it is set: clearing it inside the async body
 * would run first when the body finishes synchronously, leaving a stale promise that never flushes
 * again.)
 */
export function flushOutbox(): Promise<void> {
  if (!flushing) {
    flushing = sendQueued().finally(() => {
      flushing = undefined;
    });
  }
  return flushing;
}

/** The writes of the person signed in now (optionally of one kind). */
export function useOutbox(kind?: string): QueuedWrite[] {
  const all = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => snapshot,
    () => snapshot,
  );
  const mine = all.filter((item) => (item.owner ?? null) === currentOwner());
  return kind ? mine.filter((item) => item.kind === kind) : mine;
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => void flushOutbox());
}
