/**
 * What the records bench's figures share (bench/records.ts): its options, goals, number formats,
 * and reading a measured page through CDP without evaluating Playwright's scripts into it.
 */
import os from 'node:os';
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import type { RunningPipit } from '@pipit/sync-server/testing';
import type { publishDefinition } from '../sync-server/test/support/publishing';
// Not re-exported by @pipit/sync-server/testing; imported by path, as the server's own tests do.
import { percentile } from '../sync-server/test/support/timing';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const GALLERY_PHOTOS = 200;
export const PHONE = { width: 375, height: 740 };
export const GOAL_OPEN_MS = 300;
export const GOAL_COMPUTE_MS = 16;
export const GOAL_UPLOAD_MS = 2000;
export const GOAL_FPS = 60;
export const TIMEOUT_MS = 30_000;

export function option(name: string, fallback: number): number {
  const given = process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const value = Number(given ?? fallback);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}
export const RECORDS = option('records', 5_000);
/** The same list with this few records: the app's own cost, measured in the same run. */
export const BASELINE_RECORDS = 50;
export const RUNS = option('runs', 10);
export const PHOTO_RUNS = option('photo-runs', 5);
export const PARTS = new Set(
  (process.argv.find((a) => a.startsWith('--parts='))?.split('=')[1] ?? '1,2,3,4').split(','),
);

export const p = (values: number[], n: number) => percentile(values, n, 'nearest-rank');
export const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
export const meets = (ok: boolean) => (ok ? 'meets the goal' : 'MISSES the goal');
export const load = () => os.loadavg()[0]?.toFixed(2) ?? '?';
export const harness = (pipit: RunningPipit) =>
  ({ pipit }) as unknown as Parameters<typeof publishDefinition>[0];

export async function throttle(page: Page, rate: number): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  return cdp;
}

/** Polls a page value through CDP (no Playwright script evaluated into the measured page). */
export async function pollPage<T>(
  cdp: CDPSession,
  expression: string,
  timeout = TIMEOUT_MS,
): Promise<T> {
  const deadline = performance.now() + timeout;
  while (performance.now() < deadline) {
    const value = await cdp
      .send('Runtime.evaluate', { expression, returnByValue: true })
      .then(({ result }) => result.value as unknown)
      .catch(() => null);
    if (value !== null && value !== undefined && value !== false) return value as T;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${expression}`);
}

/**
 * Waits until the page is controlled by Pipit's service worker. e2e/support/service-worker.ts has
 * the same wait, but its module imports vitest, which a bench run outside vitest cannot load.
 */
export async function untilControlled(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  if (!(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)))) {
    await page.reload();
  }
  await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
}
