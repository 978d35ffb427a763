import { describe, expect, it } from 'vitest';
import type { CheckpointKind } from '@pipit/protocol';
import { checkpointsToDrop, roomForNamed } from '../../src/history/thinning';
import type { CheckpointRecord } from '../../src/storage/types';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = 1_000 * DAY;

function checkpoint(id: string, ageMs: number, kind: CheckpointKind = 'auto', size = 100) {
  return {
    id,
    appId: 'app',
    kind,
    name: null,
    version: null,
    createdAt: NOW - ageMs,
    createdBy: null,
    authorIds: [],
    changesJson: '{}',
    definitionHash: id,
    size,
  } satisfies CheckpointRecord;
}

/** Newest first, as the store lists them. */
const newestFirst = (rows: CheckpointRecord[]) =>
  [...rows].sort((a, b) => b.createdAt - a.createdAt);

describe('thinning an app’s history', () => {
  it('keeps every checkpoint of the last day', () => {
    const rows = newestFirst(
      Array.from({ length: 50 }, (_, i) => checkpoint(`c${i}`, i * 20 * 60_000)),
    );
    expect(checkpointsToDrop(rows, NOW)).toEqual([]);
  });

  it('keeps the newest automatic checkpoint of each hour for a week, of each day for 90 days, of each week after', () => {
    const rows = newestFirst([
      checkpoint('h1-new', 2 * DAY + 10 * 60_000),
      checkpoint('h1-old', 2 * DAY + 40 * 60_000),
      checkpoint('d1-new', 10 * DAY + HOUR),
      checkpoint('d1-old', 10 * DAY + 5 * HOUR),
      checkpoint('w1-new', 200 * DAY),
      checkpoint('w1-old', 200 * DAY + HOUR),
    ]);
    // A bucket's boundaries are the clock's, so compute them the way people read them.
    const dropped = checkpointsToDrop(rows, NOW);
    expect(dropped).toContain('h1-old');
    expect(dropped).toContain('d1-old');
    expect(dropped).toContain('w1-old');
    expect(dropped).not.toContain('h1-new');
    expect(dropped).not.toContain('d1-new');
    expect(dropped).not.toContain('w1-new');
  });

  it('never drops named or published checkpoints, nor the newest one', () => {
    const rows = newestFirst([
      checkpoint('newest', 30 * DAY + HOUR),
      checkpoint('named', 30 * DAY + 2 * HOUR, 'manual'),
      checkpoint('published', 30 * DAY + 3 * HOUR, 'publish'),
      checkpoint('auto', 30 * DAY + 4 * HOUR),
    ]);
    expect(checkpointsToDrop(rows, NOW)).toEqual(['auto']);
  });

  it('drops the oldest automatic checkpoints while the app is over its count or size', () => {
    const rows = newestFirst([
      checkpoint('a', HOUR),
      checkpoint('m', 2 * HOUR, 'manual'),
      checkpoint('b', 3 * HOUR),
      checkpoint('c', 4 * HOUR, 'ai'),
      checkpoint('d', 5 * HOUR),
    ]);
    expect(checkpointsToDrop(rows, NOW, { count: 3, bytes: 10_000 })).toEqual(['d', 'c']);
    expect(checkpointsToDrop(rows, NOW, { count: 100, bytes: 250 })).toEqual(['d', 'c', 'b']);
    // Only named ones (and the newest) left: nothing more is dropped, whatever the limits say.
    expect(checkpointsToDrop(rows, NOW, { count: 1, bytes: 1 }).sort()).toEqual(['b', 'c', 'd']);
  });

  it('counts only kept kinds when asked for room for one more named checkpoint', () => {
    const many = Array.from({ length: 200 }, (_, i) => checkpoint(`m${i}`, i, 'manual'));
    expect(roomForNamed(many)).toBe(false);
    expect(roomForNamed(many.slice(1))).toBe(true);
    expect(roomForNamed([...many.slice(1), checkpoint('x', 1), checkpoint('y', 2)])).toBe(true);
  });
});
