import { describe, expect, it } from 'vitest';
import { compactCount } from './compact-count';

const intl = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

describe('compactCount', () => {
  it('writes counts as people read them on a card', () => {
    expect(compactCount(0)).toBe('0');
    expect(compactCount(1)).toBe('1');
    expect(compactCount(999)).toBe('999');
    expect(compactCount(1000)).toBe('1K');
    expect(compactCount(1250)).toBe('1.3K');
    expect(compactCount(12_345)).toBe('12.3K');
    expect(compactCount(999_950)).toBe('1M');
    expect(compactCount(2_500_000_000)).toBe('2.5B');
  });

  it('gives what Intl’s compact English formatter gives, for any count', () => {
    const values: number[] = [];
    for (let n = 0; n <= 20_000; n++) values.push(n);
    for (const edge of [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e15]) {
      for (let d = -120; d <= 120; d++) values.push(edge + d * (edge / 2000), edge + d);
    }
    // A fixed pseudo-random spread over every size (the same values on every run).
    let seed = 20_261_127;
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      const digits = (seed % 16) + 1;
      values.push(Math.floor((seed / 2 ** 31) * 10 ** digits));
    }
    values.push(-1, -1234, -999_950, 12.34, 999.96, 0.05);
    const differ = values.filter((n) => compactCount(n) !== intl.format(n));
    expect(differ.map((n) => [n, compactCount(n), intl.format(n)])).toEqual([]);
  });
});
