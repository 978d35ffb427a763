/**
 * The records bench's first figure (bench/records.ts): the installed app opening offline on its
 * list of 5,000 records, in a new window and reloaded, beside the same app with 50 records.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, CDPSession, Page, Response } from 'playwright-core';
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

const marksReady = (live: boolean) =>
  `(() => { const m = window.${MARKS}; return m && m.formula !== undefined && m.list !== undefined && ${live ? 'm.live !== undefined' : 'true'} ? m : null; })()`;

/**
 * One open of `page` (a reload, or a first navigation), measured once the list has drawn (and
 * the app's own, unless `live` is false: a page with no app).
 */
async function measureOneOpen(
  page: Page,
  cdp: CDPSession,
  open: () => Promise<Response | null>,
  live = true,
): Promise<OpenRun> {
  const response = await open();
  const marks = await pollPage<{
    list: number;
    formula: number;
    live: number;
    count: number;
    kept: boolean;
  }>(cdp, marksReady(live));
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
): Promise<Opens> {
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
    let floorPage = '';
    const opened = await openedInNewWindows(context, pageUrl, {
      trace: `open-${records}`,
      // The last open's kept screen, as the floor's static page.
      last: async (fresh) => {
        if (records === RECORDS) floorPage = await keptScreenAsStaticPage(fresh, appId);
      },
    });
    return { reloaded, opened, floor: floorPage ? await measureFloor(browser, floorPage) : [] };
  } finally {
    await (persistent ? persistent.close() : context.close());
  }
}

/**
 * The kept first screen as a static page: its markup (styles set as attributes: nothing runs in
 * it), the styles the app's page holds or links in its HTML, the page's own attributes. What
 * the browser alone costs to show the same screen in a new window: the floor under the app's.
 */
async function keptScreenAsStaticPage(page: Page, appId: string): Promise<string> {
  const { html, attributes } = await page.evaluate(
    (key) => ({
      html:
        (JSON.parse(localStorage.getItem(key) ?? 'null') as { html: string } | null)?.html ?? '',
      attributes: [...document.documentElement.attributes]
        .filter((a) => a.name !== 'style')
        .map((a) => `${a.name}="${a.value.replace(/"/g, '&quot;')}"`)
        .join(' '),
    }),
    `pipit:first-screen:${appId}`,
  );
  if (!html) throw new Error('no first screen was kept to measure the floor with');
  // The page as the server sends it (this process is online; the device is not), for the styles
  // it holds or links before any script runs.
  const source = await (await fetch(page.url())).text();
  const inline = [...source.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map(([, css]) => css);
  const links = [...source.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)];
  const css = [
    ...inline,
    ...(await Promise.all(
      links.map(async ([, href]) => (await fetch(new URL(href!, page.url()))).text()),
    )),
  ];
  return (
    `<!doctype html><html ${attributes}><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<style>${css.join('\n')}</style></head><body><div id="root"></div>` +
    `<div id="pipit-first-screen" aria-hidden="true"><div inert>` +
    `${html.replace(/ data-pipit-style="/g, ' style="')}</div></div></body></html>`
  );
}

/** `RUNS` new windows (each after one warm-up) on the static page, at 4×, from a plain server. */
async function measureFloor(browser: Browser, html: string): Promise<OpenRun[]> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const context = await browser.newContext({ viewport: PHONE });
  try {
    return await openedInNewWindows(context, url, { live: false });
  } finally {
    await context.close();
    server.close();
  }
}

/**
 * `RUNS` opens of `url`, each in a new window of `context` at 4×, after one warm-up: `live` false
 * for a page with no app; `trace` names the last open's trace (BENCH_TRACE); `last` sees the last
 * page before it closes.
 */
async function openedInNewWindows(
  context: BrowserContext,
  url: string,
  options: { live?: boolean; trace?: string; last?: (page: Page) => Promise<void> },
): Promise<OpenRun[]> {
  const runs: OpenRun[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const page = await context.newPage();
    await page.addInitScript({ content: listWatcher });
    const cdp = await throttle(page, 4);
    const open = () =>
      measureOneOpen(page, cdp, () => page.goto(url, { waitUntil: 'commit' }), options.live);
    const run = options.trace ? await traced(cdp, options.trace, i === RUNS, open) : await open();
    if (i === RUNS) await options.last?.(page);
    await page.close();
    if (i > 0) runs.push(run);
  }
  return runs;
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

type Opens = { reloaded: OpenRun[]; opened: OpenRun[]; floor: OpenRun[] };

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
    if (what === 'opened') {
      const floor = full.floor;
      console.log(
        `   the floor: the same kept screen as a static page (no script, no service worker, the page's styles),
` +
          `   from a plain local server, in a new window at 4×: records visible p50 ${at(floor, 'list', 50)}, p95 ${at(floor, 'list', 95)}; ` +
          `load ${load()}\n` +
          `     each run: ${floor.map((r) => r.list.toFixed(0)).join(' ')}`,
      );
    }
  }
}
