import { describe, expect, it } from 'vitest';
import {
  createId,
  isNewerVersion,
  type LibraryEntry,
  listLibrary,
  mergeLibraries,
  mergeLibraryEntry,
  parseLibraryEntry,
  sameLibraryEntry,
} from '../src/index';

const APP = createId();
const OTHER = createId();

function entry(patch: Partial<LibraryEntry> = {}): LibraryEntry {
  return {
    appId: APP,
    title: 'Habit tracker',
    icon: { kind: 'emoji', emoji: '🌱', background: '#1a7f5a' },
    author: 'ada',
    version: 1,
    openedAt: 1_000,
    ...patch,
  };
}

/** A small seeded generator, so a failing case can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function randomEntry(next: () => number): LibraryEntry {
  const time = () => Math.floor(next() * 20);
  const maybe = () => (next() < 0.5 ? undefined : time());
  const e: LibraryEntry = entry({
    title: ['A', 'B', 'C'][Math.floor(next() * 3)] ?? 'A',
    version: next() < 0.2 ? null : 1 + Math.floor(next() * 3),
    openedAt: time(),
  });
  const installedAt = maybe();
  const savedAt = maybe();
  const removedAt = maybe();
  if (installedAt !== undefined) e.installedAt = installedAt;
  if (savedAt !== undefined) e.savedAt = savedAt;
  if (removedAt !== undefined) e.removedAt = removedAt;
  return e;
}

describe('mergeLibraryEntry', () => {
  it('keeps the latest of every time and the listing of the copy opened last', () => {
    const phone = entry({ title: 'Habits v2', version: 2, openedAt: 5_000, installedAt: 4_000 });
    const laptop = entry({ openedAt: 3_000, savedAt: 6_000 });
    expect(mergeLibraryEntry(phone, laptop)).toEqual({
      ...entry(),
      title: 'Habits v2',
      version: 2,
      openedAt: 5_000,
      installedAt: 4_000,
      savedAt: 6_000,
    });
  });

  it('gives the same answer in any order, and merging again changes nothing (300 seeds)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const [a, b, c] = [randomEntry(next), randomEntry(next), randomEntry(next)];
      const ab = mergeLibraryEntry(a, b);
      expect(sameLibraryEntry(ab, mergeLibraryEntry(b, a)), `seed ${seed}`).toBe(true);
      expect(
        sameLibraryEntry(mergeLibraryEntry(ab, c), mergeLibraryEntry(a, mergeLibraryEntry(b, c))),
        `seed ${seed}`,
      ).toBe(true);
      expect(sameLibraryEntry(mergeLibraryEntry(ab, ab), ab), `seed ${seed}`).toBe(true);
      expect(sameLibraryEntry(mergeLibraryEntry(ab, a), ab), `seed ${seed}`).toBe(true);
    }
  });

  it('refuses to merge entries of two different apps', () => {
    expect(() => mergeLibraryEntry(entry(), entry({ appId: OTHER }))).toThrow();
  });
});

describe('removing from the library', () => {
  it('reaches a device that still has the entry, instead of being undone by it', () => {
    const removedHere = entry({ openedAt: 1_000, removedAt: 2_000 });
    const stillThere = entry({ openedAt: 1_000 });
    const merged = mergeLibraries([removedHere], [stillThere]);
    expect(listLibrary(merged)).toEqual([]);
  });

  it('is undone by opening, saving or installing the app again later', () => {
    const removed = entry({ openedAt: 1_000, removedAt: 2_000 });
    expect(listLibrary([mergeLibraryEntry(removed, entry({ openedAt: 3_000 }))])).toHaveLength(1);
    expect(listLibrary([{ ...removed, savedAt: 2_500 }])).toHaveLength(1);
    expect(listLibrary([{ ...removed, installedAt: 2_500 }])).toHaveLength(1);
    // At the same moment, the removal wins.
    expect(listLibrary([{ ...removed, savedAt: 2_000 }])).toHaveLength(0);
  });
});

describe('listLibrary', () => {
  it('lists the app used last first', () => {
    const old = entry({ appId: OTHER, openedAt: 1_000, installedAt: 9_000 });
    const recent = entry({ openedAt: 5_000 });
    expect(listLibrary([recent, old]).map((e) => e.appId)).toEqual([OTHER, APP]);
  });

  it('merges two devices’ libraries into one entry per app', () => {
    const merged = mergeLibraries(
      [entry({ openedAt: 1 }), entry({ appId: OTHER, openedAt: 2 })],
      [entry({ openedAt: 3 })],
    );
    expect(merged.map((e) => [e.appId, e.openedAt])).toEqual([
      [APP, 3],
      [OTHER, 2],
    ]);
  });
});

describe('parseLibraryEntry', () => {
  it('reads a stored entry and refuses anything else', () => {
    expect(parseLibraryEntry(entry())).toEqual(entry());
    expect(parseLibraryEntry({ ...entry(), appId: 'not an id' })).toBeNull();
    expect(parseLibraryEntry({ ...entry(), openedAt: -1 })).toBeNull();
    expect(parseLibraryEntry('habit tracker')).toBeNull();
    expect(parseLibraryEntry(null)).toBeNull();
  });
});

describe('isNewerVersion', () => {
  it('is true only for a higher published version than the one showing', () => {
    expect(isNewerVersion(2, 1)).toBe(true);
    expect(isNewerVersion(1, 1)).toBe(false);
    expect(isNewerVersion(1, 2)).toBe(false);
    expect(isNewerVersion(null, 1)).toBe(false);
    expect(isNewerVersion(1, null)).toBe(true);
    expect(isNewerVersion(null, null)).toBe(false);
  });
});
