/**
 * The records bench's first figure (bench/records.ts): the installed app opening offline on its
 * list of 5,000 records, in a new window and reloaded, beside the same app with 50 records.
 */
import fs from 'node:fs/promises';
import type { Browser, CDPSession, Page, Response } from 'playwright-core';
import type { RunningPipit } from '@pipit/sync-server/testing';
import { launchPersistent } from '../e2e/support/browser';
import { deviceOf, type Person, signInContext } from '../e2e/support/people';
import {
  BASELINE_RECORDS,
  GOAL_OPEN_MS,
  load,
  meets,
  ms,
  p,
  PHONE,
  pollPage,
  RECORDS,
  RUNS,
  throttle,
  untilControlled,
} from './records-support';

/**
 * Where an open's time went, from the page's Navigation Timing: the page answered (by the service
 * worker), and its scripts run (DOMContentLoaded ends after the deferred module scripts).
 */
async function loadTimings(
  cdp: CDPSession,
): Promise<{ answered: number; scriptsRun: number; painted: number }> {
  return pollPage(
    cdp,
    `(() => { const n = performance.getEntriesByType('navigation')[0]; return n && n.domContentLoadedEventEnd > 0 ? { answered: n.responseEnd, scriptsRun: n.domContentLoadedEventEnd, painted: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1 } : null; })()`,
  );
}

const MARKS = '__pipitRecordsBench';

/**
 * Runs before the page's scripts: notes `performance.now()` (ms since the navigation started) at
 * the animation frame that first paints (a) the list's first record laid out with a size, (b) its
 * subtitle — a formula's value — with text, and how many records the list then holds. Looked for
 * once per frame, in the frame's own callback (its layout is the frame's; a MutationObserver
 * forced a layout after every change of the page, ~100 ms of a new window's start at 4×). Plain
 * JavaScript in a string, as bench/pwa-browser.ts's watcher.
 */
const listWatcher = `(() => {
  const marks = (window[${JSON.stringify(MARKS)}] = {});
  const selector = 'ul[aria-label="Tasks"] > li';
  const shown = (first) => {
    const box = first && first.getBoundingClientRect();
    return Boolean(box && box.width > 0 && box.height > 0);
  };
  function frame() {
    const now = performance.now();
    const first = document.querySelector(selector);
    if (shown(first)) {
      if (marks.list === undefined) {
        marks.list = now;
        marks.count = document.querySelectorAll(selector).length;
        marks.kept = Boolean(first.closest('#pipit-first-screen'));
      }
      const subtitle = first.querySelector('.rt-list-subtitle');
      if (marks.formula === undefined && subtitle && subtitle.textContent) marks.formula = now;
    }
    const live = document.querySelector('#root ' + selector);
    if (marks.live === undefined && shown(live) && !document.getElementById('pipit-first-screen')) {
      marks.live = now;
    }
    if (marks.formula === undefined || marks.live === undefined) requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);
})();`;

interface OpenRun {
  list: number;
  formula: number;
  /** The app's own list drawn, the kept first screen gone. */
  live: number;
  count: number;
  /** The list first seen was the kept first screen. */
  kept: boolean;
  answered: number;
  scriptsRun: number;
  painted: number;
  fromServiceWorker: boolean;
}

const MARKS_READY = `(() => { const m = window.${MARKS}; return m && m.formula !== undefined && m.list !== undefined && m.live !== undefined ? m : null; })()`;

/** One open of `page` (a reload, or a first navigation), measured once the list has drawn. */
async function measureOneOpen(
  page: Page,
  cdp: CDPSession,
  open: () => Promise<Response | null>,
): Promise<OpenRun> {
  const response = await open();
  const marks = await pollPage<{
    list: number;
    formula: number;
    live: number;
    count: number;
    kept: boolean;
  }>(cdp, MARKS_READY);
  await page.waitForLoadState('load');
  return {
    ...marks,
    ...(await loadTimings(cdp)),
    fromServiceWorker: response?.fromServiceWorker() ?? false,
  };
}

export async function measureOpen(
  browser: Browser,
  pipit: RunningPipit,
  visitor: Person,
  appId: string,
  records: number,
): Promise<{ reloaded: OpenRun[]; opened: OpenRun[] }> {
  // A profile on disk (launchPersistent's) is deleted as the device closes.
  const persistent = process.env.BENCH_PERSISTENT ? await launchPersistent(PHONE) : null;
  if (persistent) await signInContext(persistent.context, pipit, visitor);
  const context =
    persistent?.context ??
    (await deviceOf(browser, pipit, visitor, { serviceWorkers: 'allow', viewport: PHONE }));
  const pageUrl = `${pipit.url}/apps/${appId}/pwa`;
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: listWatcher });
    await page.goto(pageUrl);
    await untilControlled(page);
    // Synced to the device: every record listed with its formulas, then a moment for IndexedDB.
    // A long list draws its first rows and says how many are left: together, every record.
    await page.waitForFunction(
      (n) => {
        const drawn = document.querySelectorAll('ul[aria-label="Tasks"] > li').length;
        const more = /of ([\d,]+)$/.exec(
          document.querySelector('.rt-more-rows')?.textContent ?? '',
        );
        return drawn + Number(more?.[1]?.replace(/,/g, '') ?? 0) === n;
      },
      records,
      { timeout: 60_000 },
    );
    await page.locator('.sync-indicator__label', { hasText: /^Saved$/ }).waitFor();
    await page.waitForTimeout(2000);
    await context.setOffline(true);
    const cdp = await throttle(page, 4);
    const reloaded: OpenRun[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const run = await traced(cdp, `reload-${records}`, i === RUNS, () =>
        measureOneOpen(page, cdp, () => page.reload({ waitUntil: 'commit' })),
      );
      if (i > 0) reloaded.push(run);
    }
    // Opened as a person opens the installed app: a new window, with no page of it to tear down
    // first (a reload's navigation includes unloading the page before, its records and all).
    await page.close();
    const opened: OpenRun[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const fresh = await context.newPage();
      await fresh.addInitScript({ content: listWatcher });
      const freshCdp = await throttle(fresh, 4);
      const run = await traced(freshCdp, `open-${records}`, i === RUNS, () =>
        measureOneOpen(fresh, freshCdp, () => fresh.goto(pageUrl, { waitUntil: 'commit' })),
      );
      await fresh.close();
      if (i > 0) opened.push(run);
    }
    return { reloaded, opened };
  } finally {
    await (persistent ? persistent.close() : context.close());
  }
}

/** With BENCH_TRACE set, `run` in a Chrome trace written to /tmp/{name}.trace.json. */
async function traced<T>(cdp: CDPSession, name: string, last: boolean, run: () => Promise<T>) {
  if (!process.env.BENCH_TRACE || !last) return run();
  await cdp.send('Tracing.start', {
    transferMode: 'ReturnAsStream',
    traceConfig: {
      includedCategories: ['devtools.timeline', 'v8', 'v8.execute', 'blink', 'loading', 'toplevel'],
    },
  });
  const result = await run();
  const done = new Promise<string>((resolve) =>
    cdp.once('Tracing.tracingComplete', (e) => resolve(e.stream as string)),
  );
  await cdp.send('Tracing.end');
  const handle = await done;
  let text = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle });
    text += chunk.data;
    if (chunk.eof) break;
  }
  await fs.writeFile(`/tmp/${name}.trace.json`, text);
  return result;
}

type Opens = { reloaded: OpenRun[]; opened: OpenRun[] };

export function reportOpen(full: Opens, baseline: Opens) {
  console.log(
    `\n1. The installed app opening offline on its list of ${RECORDS.toLocaleString('en')} records (3 formulas, a rollup over\n` +
      "   a relation to 20 creator records; the visitor's own data, synced to the device's IndexedDB by the\n" +
      '   app itself), CPU 4× slower (CDP Emulation.setCPUThrottlingRate), 375 × 740, signed in, service\n' +
      `   worker serving the page. ${RUNS} opens in a new window, then ${RUNS} reloads (a reload's navigation\n` +
      '   also unloads the page before), each after one warm-up; navigation start → the animation frame\n' +
      '   that paints the first record of the list laid out ("records visible": the first screen this\n' +
      "   device kept, or the app's own), its subtitle, a formula's value, with text, and the app's own\n" +
      '   list with the kept screen gone ("app drawn"). Baseline, in the same run: the same app and device\n' +
      `   with ${BASELINE_RECORDS} records — what the app costs before its records do. Where the time went: the page\n` +
      '   answered by the service worker, its first paint, and its scripts run (DOMContentLoaded ended):',
  );
  const at = (runs: OpenRun[], key: keyof OpenRun, n: number) =>
    ms(
      p(
        runs.map((r) => Number(r[key])),
        n,
      ),
    );
  for (const what of ['opened', 'reloaded'] as const) {
    for (const [label, runs] of [
      [`${RECORDS.toLocaleString('en')} records`, full[what]],
      [`baseline, ${BASELINE_RECORDS}`, baseline[what]],
    ] as const) {
      const counts = [...new Set(runs.map((r) => r.count))].join(', ');
      const kept = runs.filter((r) => r.kept).length;
      const goal =
        runs === full[what]
          ? ` — goal ≤ ${GOAL_OPEN_MS} ms p95: ${meets(
              p(
                runs.map((r) => r.list),
                95,
              ) <= GOAL_OPEN_MS,
            )}`
          : '';
      console.log(
        `   ${what}, ${label}: records visible p50 ${at(runs, 'list', 50)}, p95 ${at(runs, 'list', 95)}${goal}; ` +
          `formulas shown p50 ${at(runs, 'formula', 50)}, p95 ${at(runs, 'formula', 95)}; ` +
          `app drawn p50 ${at(runs, 'live', 50)}, p95 ${at(runs, 'live', 95)}`,
      );
      console.log(
        `     page answered p50 ${at(runs, 'answered', 50)}, first paint p50 ${at(runs, 'painted', 50)}, ` +
          `scripts run p50 ${at(runs, 'scriptsRun', 50)}; first seen from the kept screen: ${kept}/${runs.length}; ` +
          `records in the list at that frame: ${counts}; from the service worker: ${runs.filter((r) => r.fromServiceWorker).length}/${runs.length}; load ${load()}`,
      );
      console.log(
        `     each run (visible/formulas/app drawn): ${runs.map((r) => `${r.list.toFixed(0)}/${r.formula.toFixed(0)}/${r.live.toFixed(0)}`).join(' ')}`,
      );
    }
  }
}
