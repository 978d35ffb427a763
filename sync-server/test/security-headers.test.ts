import { describe, expect, it } from 'vitest';
import { preferredEncoding } from '../src/http/security-headers';

describe('preferredEncoding', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.0, gzip;q=0', undefined],
    ['identity', undefined],
    ['', undefined],
    [undefined, undefined],
    ['BR;Q=0.5', 'br'],
  ])('%s → %s', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});
