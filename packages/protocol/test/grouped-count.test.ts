import { describe, expect, it } from 'vitest';
import { groupedCount } from '../src/grouped-count';

describe('groupedCount', () => {
  it('writes what toLocaleString("en") writes for whole numbers', () => {
    const samples = [0, 1, 12, 999, 1000, 1001, 9999, 10_000, 123_456, 999_999, 1_000_000];
    for (let i = 0; i < 200; i++) samples.push(Math.floor(Math.random() * 10 ** (i % 16)));
    for (const n of [...samples, ...samples.filter((s) => s > 0).map((s) => -s)]) {
      expect(groupedCount(n), String(n)).toBe(n.toLocaleString('en'));
    }
  });

  it('leaves what is not a safe whole number to the formatter', () => {
    for (const n of [1.5, 1234.56, Number.MAX_SAFE_INTEGER + 2, Infinity, NaN]) {
      expect(groupedCount(n)).toBe(n.toLocaleString('en'));
    }
  });
});
