/**
 * The PWA figures (docs/performance.md), on the production build and a freshly started production
 * server (its own process, SQLite in a temporary data directory) seeded with a person and their
 * published public apps: the gzip JavaScript a first visit to `/apps/{id}/pwa` transfers, the time
 * to the first render of `/apps/{id}/pwa` offline from the service worker at full CPU speed and 4×
 * slower, Lighthouse (desktop) scores of the pages people find apps on, and Lighthouse (mobile) of
 * those pages and of `/apps/{id}/pwa`. Prints figures; not a pass/fail test.
 * Run: npm run bench -- pwa   (needs the built client: node scripts/pipit.mjs build)
 *   --runs=N              offline reloads measured per run (default 10)
 *   --rounds=N            runs of those reloads per CPU speed, the median is shown (default 3)
 *   --lighthouse-runs=N   Lighthouse desktop runs per page, the median by performance is shown
 *                         (default 1)
 *   --mobile-runs=N       Lighthouse mobile runs per page, the median is shown (default 3)
 *   --blocking-runs=N     first visits per page with the CPU really slowed 4×, for the main
 *                         thread's long tasks (default 5)
 *   --no-mobile-pages     Lighthouse mobile of /apps/{id}/pwa only
 *   --no-lighthouse       skip the Lighthouse part
 *   --modules             attribute the page's JavaScript to packages and files (a second build,
 *                         with source maps, into a temporary directory; ~10–20 s)
 * CLIENT_DIR=… measures another build, as it configures the server.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { buildIsCurrent, precachedJs } from './pwa-build';
import {
  type Blocking,
  CHROMIUM_PATH,
  type FirstVisit,
  launchChromium,
  measureBlocking,
  measureFirstVisit,
  measureOffline,
  type OfflineReload,
} from './pwa-browser';
import {
  auditPageMedian,
  CATEGORIES,
  type FormFactor,
  launchForLighthouse,
  LIGHTHOUSE_VERSION,
  TARGETS,
} from './pwa-lighthouse';
import { attributeModules } from './pwa-modules';
import { type BenchServer, type SeededApp, seed, startServer } from './pwa-server';
// Not re-exported by @pipit/sync-server/testing; imported by path, as the server's own tests do.
import { percentile } from '../sync-server/test/support/timing';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLIENT_DIR = path.resolve(ROOT, process.env.CLIENT_DIR ?? 'dist/client');
/** The ceiling on a first visit's JavaScript, and the goal for a phone. */
const TARGET_JS_KB = 150;
const TARGET_JS_PHONE_KB = 110;
const TARGET_OFFLINE_MS = 1000;
/** On a phone's CPU (4× slower than this machine's) the app opens within 200 ms. */
const TARGET_OFFLINE_SLOW_CPU_MS = 200;
const CPU_SLOWDOWNS = [1, 4];
/** The installed app in Lighthouse's mobile configuration. */
const TARGET_MOBILE_PWA_PERFORMANCE = 0.98;

const flag = (name: string) => process.argv.includes(`--${name}`);
function option(name: string, fallback: number): number {
  const given = process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const value = Number(given ?? fallback);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}
const RUNS = option('runs', 10);
const LIGHTHOUSE_RUNS = option('lighthouse-runs', 1);
const ROUNDS = option('rounds', 3);
const MOBILE_RUNS = option('mobile-runs', 3);
const BLOCKING_RUNS = option('blocking-runs', 5);

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const verdict = (ok: boolean) => (ok ? 'within target' : 'OVER TARGET');
const message = (error: unknown) =>
  error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);

async function reportModules(visit: FirstVisit) {
  const files = visit.js
    .map((r) => new URL(r.url).pathname.slice(1))
    .filter((file) => existsSync(path.join(CLIENT_DIR, file)));
  try {
    const report = await attributeModules(CLIENT_DIR, files);
    const bundled = report.matched + report.unmatched.length;
    console.log(
      `   By source (a build with source maps, ${(report.buildMs / 1000).toFixed(1)} s; ` +
        `${report.matched}/${bundled} chunks reproduced exactly${report.matched < bundled ? ', the others matched by name: sources changed since the build' : ''}):`,
    );
    console.log('   gzip share   minified  package or folder');
    for (const g of report.groups.slice(0, 12)) {
      console.log(`   ${kb(g.gzipShare).padStart(10)} ${kb(g.minified).padStart(10)}  ${g.name}`);
    }
    console.log('   largest files:');
    for (const f of report.files.slice(0, 12)) {
      console.log(`   ${kb(f.gzipShare).padStart(10)} ${kb(f.minified).padStart(10)}  ${f.name}`);
    }
    console.log('   what each chunk holds (gzip share):');
    for (const c of report.chunks.filter((c) => c.gzip >= 2048)) {
      const parts = c.groups.slice(0, 5).map((g) => `${g.name} ${kb(g.gzipShare)}`);
      console.log(`   ${kb(c.gzip).padStart(10)}  ${path.basename(c.file)}: ${parts.join(', ')}`);
    }
  } catch (error) {
    // Build errors span lines and carry colours: the start of it, plain.
    const text = error instanceof Error ? error.message : String(error);
    // eslint-disable-next-line no-control-regex -- ANSI colour codes
    const plain = text.replace(/\x1b\[[0-9;]*m/g, '').replace(/\s+/g, ' ');
    console.log(`   ! the source-map build failed: ${plain.slice(0, 400)}`);
  }
}

async function reportFirstVisit(browser: Browser, url: string, app: SeededApp) {
  const visit = await measureFirstVisit(browser, url, app.firstScreenTitle);
  const body = visit.js.reduce((sum, r) => sum + r.bodyBytes, 0);
  const transfer = visit.js.reduce((sum, r) => sum + r.transferBytes, 0);
  // The build precompresses files of 1 KiB and more; smaller ones are sent as they are.
  const notGzip = visit.js.filter((r) => r.encoding !== 'gzip' && r.bodyBytes >= 1024);
  const rendered =
    visit.renderMs === null
      ? `; ! ${visit.error}`
      : ` (rendered at ${visit.renderMs.toFixed(0)} ms)`;
  console.log(
    '\n1. JavaScript transferred by a first visit to /apps/{id}/pwa (fresh context, empty cache, every\n' +
      '   request sent with "Accept-Encoding: gzip" only; body bytes on the wire as Chromium counts them\n' +
      `   (CDP Network.dataReceived), until network idle after the app rendered${rendered}${visit.idle ? '' : '; no network idle within 10 s'};
` +
      '   KB = 1,024 bytes):',
  );
  console.log(
    `   ${visit.js.length} JS responses: ${kb(body)} gzip (${kb(transfer)} with headers) — ` +
      `target ≤ ${TARGET_JS_KB} KB: ${verdict(body <= TARGET_JS_KB * 1024)}; ` +
      `a phone's goal ≤ ${TARGET_JS_PHONE_KB} KB: ${verdict(body <= TARGET_JS_PHONE_KB * 1024)}`,
  );
  if (notGzip.length > 0) {
    const list = notGzip.map((r) => `${new URL(r.url).pathname} (${r.encoding})`).join(', ');
    console.log(`   ! not gzip: ${list}`);
  }
  console.log('   largest:');
  for (const r of [...visit.js].sort((a, b) => b.bodyBytes - a.bodyBytes).slice(0, 10)) {
    console.log(`   ${kb(r.bodyBytes).padStart(10)}  ${new URL(r.url).pathname}`);
  }
  const precache = precachedJs(CLIENT_DIR);
  console.log(
    '   Not counted: the service worker then precaches the whole client in the background, ' +
      `${precache.files} JS files, ${kb(precache.gzipBytes)} gzip.`,
  );
  if (flag('modules')) await reportModules(visit);
  return visit;
}

/** Nearest rank, as this bench always read it: the median of 10 values is the 5th. */
const median = (values: number[]) => percentile(values, 50, 'nearest-rank');
/** The machine's load average over the last minute, read when a run ends. */
const loadAverage = () => os.loadavg()[0]?.toFixed(2) ?? '?';

async function reportOffline(browser: Browser, url: string, app: SeededApp, online: FirstVisit) {
  console.log(
    '\n2. Time to first render of /apps/{id}/pwa offline from the service worker: one online visit until\n' +
      '   the service worker controls the page and the app rendered, then offline (context.setOffline),\n' +
      `   ${RUNS} reloads after 1 warm-up; navigation start → the frame after the first screen's heading\n` +
      `   "${app.firstScreenTitle}" is laid out, ms. ${ROUNDS === 1 ? 'one run' : `${ROUNDS} runs`} (a fresh context each) per CPU speed;\n` +
      '   the figure is the median of the runs, each printed with the load average (1 min) it ended at:',
  );
  if (online.renderMs === null) {
    console.log('   ! not measured: the app did not render online either (see 1.)');
    return;
  }
  for (const slowdown of CPU_SLOWDOWNS) {
    const target = slowdown === 1 ? TARGET_OFFLINE_MS : TARGET_OFFLINE_SLOW_CPU_MS;
    console.log(
      `\n   CPU ${slowdown}×${slowdown > 1 ? ' slower (CDP Emulation.setCPUThrottlingRate)' : ''}:`,
    );
    console.log(
      `   ${''.padEnd(34)}    p50    p95    max  heading p50 / p95 of each run (load average)`,
    );
    const runs: Array<{ reloads: OfflineReload[]; load: string }> = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const reloads = await measureOffline(browser, url, app.firstScreenTitle, RUNS, slowdown);
        runs.push({ reloads, load: loadAverage() });
      }
    } catch (error) {
      console.log(`   ! not measured: ${message(error)}`);
      continue;
    }
    const medianOf = (pick: (r: OfflineReload) => number) =>
      [50, 95, 100]
        .map((p) => median(runs.map((run) => percentile(run.reloads.map(pick), p, 'nearest-rank'))))
        .map((v) => v.toFixed(0).padStart(6))
        .join(' ');
    const perRun = runs
      .map((run) => {
        const values = run.reloads.map((r) => r.renderMs);
        return `${percentile(values, 50, 'nearest-rank').toFixed(0)} / ${percentile(values, 95, 'nearest-rank').toFixed(0)} (${run.load})`;
      })
      .join(', ');
    console.log(
      `   ${'first screen heading painted'.padEnd(34)} ${medianOf((r) => r.renderMs)}  ${perRun}`,
    );
    console.log(`   ${'HTML from the service worker'.padEnd(34)} ${medianOf((r) => r.htmlMs)}`);
    console.log(`   ${'DOMContentLoaded'.padEnd(34)} ${medianOf((r) => r.domContentLoadedMs)}`);
    // The floor: the HTML's own "Opening the app…" painted, before the app reads or renders.
    console.log(
      `   ${"first paint (the page's own HTML)".padEnd(34)} ${medianOf((r) => r.firstPaintMs)}`,
    );
    const p95 = median(
      runs.map((run) =>
        percentile(
          run.reloads.map((r) => r.renderMs),
          95,
          'nearest-rank',
        ),
      ),
    );
    const all = runs.flatMap((run) => run.reloads);
    const fromSw = all.filter((r) => r.fromServiceWorker).length;
    console.log(
      `   target ≤ ${target} ms (median of the runs' p95): ${verdict(p95 <= target)}; ` +
        `documents served by the service worker: ${fromSw}/${all.length}`,
    );
  }
}

/** The pages people find apps on, measured in every section that looks at pages. */
const publicPagesOf = (username: string, app: SeededApp) => [
  '/',
  '/explore',
  `/${username}`,
  `/apps/${app.id}`,
];

/** A page's path as the report shows it: the seeded ids written as the routes name them. */
const pageLabel = (pagePath: string, username: string, app: SeededApp) =>
  pagePath.replace(app.id, '{id}').replace(username, '{username}');

/** The main thread of a first visit on a phone's CPU, as the slowed browser reports it. */
async function reportBlocking(browser: Browser, origin: string, username: string, app: SeededApp) {
  const pages = [...publicPagesOf(username, app), `/apps/${app.id}/pwa`];
  console.log(
    `\n3. The main thread of a first visit with the CPU really 4× slower (CDP\n` +
      `   Emulation.setCPUThrottlingRate, no tracing; a fresh context each, 412 × 823): the page's own\n` +
      `   long tasks until 4 s after load — their time past 50 ms summed from the first paint on (Total\n` +
      `   Blocking Time) and the longest. Median of ${BLOCKING_RUNS} visits per page; ms:`,
  );
  console.log(
    `   ${'page'.padEnd(24)}   FCP  blocking  longest  blocking of each visit (load average)`,
  );
  for (const pagePath of pages) {
    const runs: Blocking[] = [];
    try {
      for (let i = 0; i < BLOCKING_RUNS; i++) {
        runs.push(await measureBlocking(browser, `${origin}${pagePath}`, 4));
      }
    } catch (error) {
      console.log(`   ${pagePath}: ! not measured: ${message(error)}`);
      continue;
    }
    const mid = (pick: (b: Blocking) => number) => median(runs.map(pick)).toFixed(0);
    console.log(
      `   ${pageLabel(pagePath, username, app).padEnd(24)} ${mid((b) => b.fcpMs).padStart(5)} ${mid((b) => b.blockingMs).padStart(9)} ` +
        `${mid((b) => b.longestMs).padStart(8)}  ${runs.map((b) => b.blockingMs.toFixed(0)).join(', ')} (${loadAverage()})`,
    );
  }
}

async function reportLighthouse(server: BenchServer, username: string, app: SeededApp) {
  const publicPages = publicPagesOf(username, app);
  const pwa = `/apps/${app.id}/pwa`;
  const audits: Array<{ path: string; formFactor: FormFactor; runs: number }> = [
    ...[...publicPages, pwa].map((p) => ({
      path: p,
      formFactor: 'desktop' as const,
      runs: LIGHTHOUSE_RUNS,
    })),
    // Most visitors arrive on a phone.
    ...(flag('no-mobile-pages') ? [] : publicPages).map((p) => ({
      path: p,
      formFactor: 'mobile' as const,
      runs: MOBILE_RUNS,
    })),
    { path: pwa, formFactor: 'mobile', runs: MOBILE_RUNS },
  ];
  const targetsOf = (formFactor: FormFactor, page: string) =>
    formFactor === 'mobile' && page === pwa
      ? { ...TARGETS, performance: TARGET_MOBILE_PWA_PERFORMANCE }
      : TARGETS;
  const label = (p: string, formFactor: FormFactor) =>
    pageLabel(p, username, app) + (formFactor === 'mobile' ? ' (mobile)' : '');
  const runs = (n: number) => (n === 1 ? 'one cold run' : `median of ${n} cold runs`);
  console.log(
    `\n4. Lighthouse ${LIGHTHOUSE_VERSION}, ` +
      `desktop configuration, ${runs(LIGHTHOUSE_RUNS)} per page; targets: performance ≥ ${TARGETS.performance}, ` +
      `accessibility ≥ ${TARGETS.accessibility}, best practices ≥ ${TARGETS['best-practices']}.\n` +
      `   Then the same pages in Lighthouse's default, mobile, configuration (simulated slow 4G and a\n` +
      `   4× slower CPU), ${runs(MOBILE_RUNS)}, performance target ≥ ${TARGETS.performance} ` +
      `(/apps/{id}/pwa ≥ ${TARGET_MOBILE_PWA_PERFORMANCE});` +
      ' load average (1 min) after the runs:',
  );
  console.log(`   ${'page'.padEnd(24)}  perf  a11y  best  FCP     LCP     TBT     CLS     SI`);
  const browser = await launchForLighthouse();
  const results = [];
  try {
    for (const audit of audits) {
      const died = server.exitReport();
      if (died) throw new Error(`the server stopped: ${died}`);
      const result = await auditPageMedian(
        browser.port,
        server.url,
        audit.path,
        audit.runs,
        audit.formFactor,
        targetsOf(audit.formFactor, audit.path),
      );
      const load = loadAverage();
      results.push({ ...result, formFactor: audit.formFactor });
      const score = (s: number | null) => (s === null ? '–' : s.toFixed(2)).padStart(5);
      const spread =
        result.performanceRuns.length > 1
          ? `  (perf runs: ${result.performanceRuns.join(', ')}; load ${load})`
          : `  (load ${load})`;
      console.log(
        `   ${label(audit.path, audit.formFactor).padEnd(24)} ${CATEGORIES.map((c) => score(result.scores[c])).join(' ')}  ` +
          `${result.metrics.map((m) => m.value.padEnd(7)).join(' ')}${spread}`,
      );
    }
  } finally {
    await browser.close();
  }
  for (const result of results) {
    if (result.error) {
      console.log(`\n   ${label(result.path, result.formFactor)}: ! ${result.error}`);
    }
    for (const category of CATEGORIES) {
      const shortfalls = result.shortfalls[category];
      if (!shortfalls || result.error) continue;
      const score = result.scores[category]?.toFixed(2) ?? '–';
      console.log(
        `\n   ${label(result.path, result.formFactor)} — ${category} ${score} < ${targetsOf(result.formFactor, result.path)[category]}:`,
      );
      if (shortfalls.length === 0) console.log('     (no single audit failed)');
      for (const s of shortfalls.slice(0, 10)) {
        const weight = s.weight > 0 ? `, weight ${s.weight}` : '';
        const value = s.value ? ` (${s.value})` : '';
        console.log(
          `     ${s.id} — ${s.title}${value}; score ${s.score?.toFixed(2) ?? '–'}${weight}`,
        );
        for (const example of s.examples) console.log(`         ${example}`);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------

if (
  !existsSync(path.join(CLIENT_DIR, 'index.html')) ||
  !existsSync(path.join(CLIENT_DIR, 'sw.js'))
) {
  console.error(
    `The client is not built (${CLIENT_DIR}). Run "node scripts/pipit.mjs build" first.`,
  );
  process.exit(1);
}
const cpus = os.cpus();
console.log(
  `PWA benchmark: Node ${process.version}, ${os.availableParallelism()} cores ` +
    `(${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${CHROMIUM_PATH}; the production server in its own ` +
    `process on SQLite, serving ${path.relative(ROOT, CLIENT_DIR) || CLIENT_DIR}.`,
);
if (buildIsCurrent(ROOT, CLIENT_DIR) === false) {
  console.log(
    'Note: the client was built from older sources; rebuild (node scripts/pipit.mjs build) for current figures.',
  );
}

const started = performance.now();
const server = await startServer(CLIENT_DIR);
try {
  const seeded = await seed(server);
  const [app] = seeded.apps;
  if (!app) throw new Error('no app was seeded');
  console.log(
    `Seed: @${seeded.username}, ${seeded.apps.length} public apps from templates (${seeded.apps.map((a) => a.title).join(', ')}); ` +
      `measured: ${app.title}, first screen "${app.firstScreenTitle}".`,
  );
  for (const a of seeded.apps.filter((x) => x.publishError)) {
    console.log(
      `  ! ${a.title} is not published (${a.publishError}): visitors see it as not found.`,
    );
  }
  const url = `${server.url}/apps/${app.id}/pwa`;
  const browser = await launchChromium();
  try {
    const visit = await reportFirstVisit(browser, url, app);
    await reportOffline(browser, url, app, visit);
    await reportBlocking(browser, server.url, seeded.username, app);
  } finally {
    await browser.close();
  }
  if (!flag('no-lighthouse')) await reportLighthouse(server, seeded.username, app);
} finally {
  await server.stop();
}
console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s)`);
