import type { SpaceSummary } from '@pipit/protocol';
import { useSyncExternalStore } from 'react';

/**
 * The spaces a person belongs to in one app, as this device last heard them, and which one the app
 * shows (docs/product/spaces.md). Kept in localStorage per account and app, so an installed app
 * opens the space it showed last at once, offline too; the server's list replaces it whenever it
 * answers.
 */
export interface DeviceSpaces {
  spaces: SpaceSummary[];
  /** The space whose shared records the app shows; null: the person's own, private data. */
  activeId: string | null;
  /** When the server's list was last read (null: never on this device). */
  fetchedAt: number | null;
  /** Each space's members as last seen: account id → the name shown for what they added. */
  people: Record<string, Record<string, string>>;
}

const EMPTY: DeviceSpaces = { spaces: [], activeId: null, fetchedAt: null, people: {} };
const keyOf = (accountId: string, appId: string) => `pipit:spaces:${accountId}:${appId}`;
const listeners = new Set<() => void>();
const cache = new Map<string, DeviceSpaces>();

function read(key: string): DeviceSpaces {
  const cached = cache.get(key);
  if (cached) return cached;
  let value = EMPTY;
  try {
    const raw = localStorage.getItem(key);
    const parsed = raw ? (JSON.parse(raw) as Partial<DeviceSpaces>) : null;
    if (parsed && Array.isArray(parsed.spaces)) {
      value = {
        spaces: parsed.spaces,
        activeId: typeof parsed.activeId === 'string' ? parsed.activeId : null,
        fetchedAt: typeof parsed.fetchedAt === 'number' ? parsed.fetchedAt : null,
        people:
          parsed.people && typeof parsed.people === 'object' && !Array.isArray(parsed.people)
            ? parsed.people
            : {},
      };
    }
  } catch {
    // Unreadable (or storage blocked): as if nothing were kept.
  }
  cache.set(key, value);
  return value;
}

function write(key: string, value: DeviceSpaces): void {
  cache.set(key, value);
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or blocked: this tab still knows.
  }
  listeners.forEach((listener) => listener());
}

export function deviceSpaces(accountId: string, appId: string): DeviceSpaces {
  return read(keyOf(accountId, appId));
}

/** The server's list: the active space stays chosen while the person is still in it. */
export function rememberSpaces(accountId: string, appId: string, spaces: SpaceSummary[]): void {
  const key = keyOf(accountId, appId);
  const current = read(key);
  const activeId = spaces.some((space) => space.id === current.activeId) ? current.activeId : null;
  const people = Object.fromEntries(
    Object.entries(current.people).filter(([id]) => spaces.some((space) => space.id === id)),
  );
  write(key, { spaces, activeId, fetchedAt: Date.now(), people });
}

/** A space's members as the server listed them (their names show on what they added). */
export function rememberPeople(
  accountId: string,
  appId: string,
  spaceId: string,
  members: ReadonlyArray<{ userId: string; username: string; displayName: string }>,
): void {
  const key = keyOf(accountId, appId);
  const current = read(key);
  const names = Object.fromEntries(
    members.map((member) => [member.userId, member.displayName || member.username]),
  );
  write(key, { ...current, people: { ...current.people, [spaceId]: names } });
}

/** A space made or joined on this device: listed, and shown. */
export function addSpace(accountId: string, appId: string, space: SpaceSummary): void {
  const key = keyOf(accountId, appId);
  const current = read(key);
  write(key, {
    ...current,
    spaces: [...current.spaces.filter((s) => s.id !== space.id), space],
    activeId: space.id,
  });
}

export function chooseSpace(accountId: string, appId: string, spaceId: string | null): void {
  const key = keyOf(accountId, appId);
  write(key, { ...read(key), activeId: spaceId });
}

/** Left, removed or deleted: out of the list (and no longer shown). */
export function forgetSpace(accountId: string, appId: string, spaceId: string): void {
  const key = keyOf(accountId, appId);
  const current = read(key);
  write(key, {
    ...current,
    spaces: current.spaces.filter((space) => space.id !== spaceId),
    activeId: current.activeId === spaceId ? null : current.activeId,
    people: Object.fromEntries(Object.entries(current.people).filter(([id]) => id !== spaceId)),
  });
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

// Another tab of the same app chose or left a space: this one follows.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (!event.key?.startsWith('pipit:spaces:')) return;
    cache.delete(event.key);
    listeners.forEach((listener) => listener());
  });
}

/** This device's spaces for the app (nothing while signed out). */
export function useDeviceSpaces(accountId: string | null, appId: string): DeviceSpaces {
  return useSyncExternalStore(
    subscribe,
    () => (accountId ? read(keyOf(accountId, appId)) : EMPTY),
    () => EMPTY,
  );
}
