/*
 * Waiting and measuring, for the tests and the benches. bench/ imports this file by path, as it
 * does the other helpers of this folder it needs: the benches' client processes
 * (sync-clients.ts, scale-clients.ts) then load nothing else of the server.
 */

/**
 * Resolves after `ms` milliseconds (the server's own, sync-server/src/sleep.ts, which imports
 * nothing). A fixed wait: for where the wait is the point (pacing a load, proving nothing happens
 * within it), never for a state, which is polled (`vi.waitFor`).
 */
export { sleep } from '../../src/sleep';

/**
 * The `p`th percentile of `values`, given in any order (a sorted copy is read); NaN when there are
 * none. Two readings, each kept for the benches that have always printed it:
 * - `'floor'` (the default): the value at index ⌊p/100 · n⌋ of the sorted values: p50 of 10
 *   values is the 6th, p99 of 100 the 100th;
 * - `'nearest-rank'`: index ⌈p/100 · n⌉ − 1: p50 of 10 values is the 5th, p95 of 10 the 10th.
 */
export function percentile(
  values: readonly number[],
  p: number,
  rank: 'floor' | 'nearest-rank' = 'floor',
): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p / 100) * sorted.length;
  const index = rank === 'floor' ? Math.floor(at) : Math.max(0, Math.ceil(at) - 1);
  return sorted[Math.min(sorted.length - 1, index)] ?? NaN;
}
