import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * One run, four projects: packages, client, server and e2e. `npm test` runs them all; one alone:
 * `npx vitest run --project server`.
 *
 * Unit and server files run at least two at a time (vitest's default is cores - 1, one file at a
 * time on two cores): most of a server test is waiting on sockets, databases and timers, and each
 * file starts its own servers on free ports and makes its own databases. On two cores that takes
 * the server suite from about 19 minutes to about 12.
 * Browser tests then run one file at a time, by themselves: Chromium draws in software and keeps
 * a core busy, so two browser files at once, or one beside the server files, each took as long
 * as they did one after another, and the slowest of them ran into their timeouts.
 */
export default defineConfig({
  test: {
    maxWorkers: Math.max(2, availableParallelism() - 1),
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
          // Modules loaded once per worker, not once per file: each file starts its own servers on
          // free ports with their own databases, and none mocks a module (the server suite took
          // 551 s against 787 s, all 2,980 tests passing).
          isolate: false,
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
          // One worker for all browser files, modules loaded once: each file starts its own servers
          // and browser and shares no module state with the others, and loading the server and
          // Playwright into a fresh worker 41 times cost about 4 minutes (1,483 s against 1,226 s).
          // A project with its own worker count runs in a group of its own: after the others.
          isolate: false,
          sequence: { groupOrder: 1 },
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
