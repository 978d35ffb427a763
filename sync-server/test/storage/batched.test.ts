import { describe, expect, it } from 'vitest';
import { batched } from '../../src/storage/kysely/batched';

/** A look-up whose statements are answered by hand, to see how calls are grouped into them. */
function manual() {
  const statements: Array<{
    keys: readonly number[];
    answer: () => void;
    fail: (error: Error) => void;
  }> = [];
  const loadMany = (keys: readonly number[]) =>
    new Promise<string[]>((resolve, reject) => {
      statements.push({
        keys,
        answer: () => resolve(keys.map((key) => `value ${key}`)),
        fail: reject,
      });
    });
  return { statements, loadMany };
}

/** Lets pending immediates and the promise jobs after them run. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('batched look-ups', () => {
  it('sends the calls of one turn in one statement and answers each with its own value', async () => {
    const { statements, loadMany } = manual();
    const load = batched(loadMany);
    const answers = Promise.all([3, 1, 3, 2].map(load));
    await turn();
    expect(statements.map((s) => s.keys)).toEqual([[3, 1, 3, 2]]);
    statements[0]!.answer();
    expect(await answers).toEqual(['value 3', 'value 1', 'value 3', 'value 2']);
  });

  it('gathers the calls made while its statements are under way into the next one', async () => {
    const { statements, loadMany } = manual();
    const load = batched(loadMany, { inFlight: 2 });
    const first = load(1);
    await turn();
    const second = load(2);
    await turn();
    // Two under way: whatever comes now waits, together.
    const waiting = [3, 4, 5].map(load);
    await turn();
    expect(statements.map((s) => s.keys)).toEqual([[1], [2]]);
    statements[1]!.answer();
    await turn();
    expect(statements.map((s) => s.keys)).toEqual([[1], [2], [3, 4, 5]]);
    statements[0]!.answer();
    statements[2]!.answer();
    expect(await Promise.all([first, second, ...waiting])).toEqual([
      'value 1',
      'value 2',
      'value 3',
      'value 4',
      'value 5',
    ]);
  });

  it('splits a burst larger than one statement takes', async () => {
    const { statements, loadMany } = manual();
    const load = batched(loadMany, { maxBatch: 2, inFlight: 1 });
    const all = Promise.all([1, 2, 3, 4, 5].map(load));
    for (let i = 0; i < 3; i += 1) {
      await turn();
      statements[i]!.answer();
    }
    expect(await all).toHaveLength(5);
    expect(statements.map((s) => s.keys)).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('rejects the calls of a failed statement only, and reads again for the next call', async () => {
    const { statements, loadMany } = manual();
    const load = batched(loadMany, { inFlight: 1 });
    const failed = [1, 2].map(load);
    await turn();
    const after = load(1);
    statements[0]!.fail(new Error('connection reset'));
    for (const call of failed) await expect(call).rejects.toThrow('connection reset');
    await turn();
    expect(statements.map((s) => s.keys)).toEqual([[1, 2], [1]]);
    statements[1]!.answer();
    expect(await after).toBe('value 1');
  });
});
