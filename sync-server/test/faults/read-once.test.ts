import { describe, expect, it, vi } from 'vitest';
import { keepUnlessFailed, readOnce } from '../../src/read-once';

/*
 * A value read once is kept, never a failure (one database blip while the human check
 * read its secrets broke sign-up and sign-in on an instance until it restarted).
 */
describe('read once, never keep a failure', () => {
  it('reads once for every caller, together or later', async () => {
    let reads = 0;
    const value = readOnce(() => Promise.resolve((reads += 1)));
    expect(await Promise.all([value(), value()])).toEqual([1, 1]);
    expect(await value()).toBe(1);
    expect(reads).toBe(1);
  });

  it('reads again after a failed read, thrown or rejected', async () => {
    const answers: Array<() => Promise<string>> = [
      () => {
        throw new Error('thrown');
      },
      () => Promise.reject(new Error('rejected')),
      () => Promise.resolve('read'),
    ];
    const value = readOnce(() => answers.shift()!());
    await expect(value()).rejects.toThrow('thrown');
    await expect(value()).rejects.toThrow('rejected');
    expect(await value()).toBe('read');
    expect(await value()).toBe('read');
    expect(answers).toHaveLength(0);
  });

  it('keeps a promise under its key unless it fails, and never removes a newer one', async () => {
    const cache = new Map<string, Promise<string>>();
    let fail!: (error: Error) => void;
    const first = keepUnlessFailed(
      cache,
      'k',
      () => new Promise<string>((_, reject) => (fail = reject)),
    );
    expect(keepUnlessFailed(cache, 'k', () => Promise.resolve('other'))).toBe(first);
    // Replaced meanwhile (an LRU let it go, and another caller made a new one).
    cache.delete('k');
    const second = keepUnlessFailed(cache, 'k', () => Promise.resolve('second'));
    await vi.waitFor(() => expect(fail).toBeTypeOf('function'));
    fail(new Error('blip'));
    await expect(first).rejects.toThrow('blip');
    expect(cache.get('k')).toBe(second);
    expect(await second).toBe('second');
  });
});
