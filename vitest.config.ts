import { defineConfig } from 'vitest/config';

/**
 * One run, four projects: packages, client, server and e2e. `npm test` runs them all; one alone:
 * `npx vitest run --project server`.
 * Browser tests share one Chromium and the machine's two cores, so they run one file at a time.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'packages',
          include: ['packages/*/test/**/*.test.ts'],
          environment: 'node',
          // A guard against hangs, not a speed test: the 300-seed convergence fuzz takes ~4 s alone
          // and ~6 s beside the server suites on two cores, past vitest's default of 5 s.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          // The client's plain logic (no DOM); what a person sees is the browser suites' (e2e).
          name: 'client',
          include: ['client/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['sync-server/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 120_000,
          // A page's next state in a browser on a loaded CI machine (a route's code and data after
          // a sign-in) can take seconds, not the 1 s vitest waits by default; a state that never
          // comes still fails.
          expect: { poll: { timeout: 15_000 } },
          globalSetup: ['e2e/support/global-setup.ts'],
        },
      },
    ],
  },
});
