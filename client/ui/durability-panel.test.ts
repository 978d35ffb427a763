import { describe, expect, it } from 'vitest';
import { formatBytes } from './durability-panel';

describe('formatBytes', () => {
  it('says sizes the way people read them', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(72 * 1024)).toBe('72 KB');
    expect(formatBytes(3.24 * 1024 * 1024)).toBe('3.2 MB');
    expect(formatBytes(10 * 1024 ** 3)).toBe('10 GB');
  });
});
