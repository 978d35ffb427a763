/**
 * Resolves after `ms` milliseconds: the server's backoffs and its shutdown's deadlines. The tests
 * and the benches take it from here too (sync-server/test/support/timing.ts), so it is written once.
 */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));
