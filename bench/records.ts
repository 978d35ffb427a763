/**
 * Records at a visitor's scale (docs/performance.md, "Records at scale"): a list of 5,000 records
 * with formulas and a rollup opening offline, formulas worked out again after a change, a photo
 * taken offline reaching the server, and a gallery of 200 photos scrolling. Prints figures next to
 * their goals; not a pass/fail test. The server runs in this process (SQLite, a temporary data
 * directory), as the browser tests start it, so the photo's figure includes its re-encoding here.
 * Run: npm run bench -- records   (needs the built client: node scripts/pipit.mjs build)
 *   --runs=N          offline reloads of the 5,000-record list (default 10, after one warm-up)
 *   --records=N       records in the list instead of 5,000
 *   --photo-runs=N    photos taken offline per CPU speed (default 5)
 *   --parts=1,2,3,4   only these figures (default all)
 * Environment: BENCH_PERSISTENT=1 opens the list in a browser profile on disk (as a person's
 * installed app runs, with its code cache) instead of an incognito one; BENCH_TRACE=1 writes a
 * Chrome trace of the last open and the last reload of each list to /tmp/{open,reload}-N.trace.json.
 */
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page, Request, Response } from 'playwright-core';
import { build } from 'vite';
// @pipit/protocol is not among the bench's dependencies; its source, as the server's tests read it.
import { documentName } from '../packages/protocol/src/documents';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { deviceOf, type Person, signUp } from '../e2e/support/people';
import { publishDefinition } from '../sync-server/test/support/publishing';
import { buildIsCurrent } from './pwa-build';
import { CHROMIUM_PATH, launchChromium } from './pwa-browser';
import type { ComputeTimes } from './records-compute';
import { measureOpen, reportOpen } from './records-open';
import {
  LABEL_FORMULA,
  photoAlbum,
  TASKS,
  taskLog,
  taskValues,
  writePhotos,
  writeTasks,
} from './records-apps';
import {
  BASELINE_RECORDS,
  GALLERY_PHOTOS,
  GOAL_COMPUTE_MS,
  GOAL_FPS,
  GOAL_UPLOAD_MS,
  harness,
  load,
  meets,
  ms,
  p,
  PARTS,
  PHONE,
  PHOTO_RUNS,
  RECORDS,
  ROOT,
  throttle,
  TIMEOUT_MS,
  untilControlled,
} from './records-support';

// ---------------------------------------------------------------------------------------------
// 2. Formulas worked out again

/** bench/records-compute.ts as one script for a blank page (Vite, the installed app's resolver). */
async function computeBundle(): Promise<string> {
  const output = await build({
    configFile: false,
    root: ROOT,
    logLevel: 'silent',
    // React reads it; a library build leaves it for a bundler that never comes.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      write: false,
      minify: true,
      lib: { entry: path.join(ROOT, 'bench', 'records-compute.ts'), formats: ['iife'], name: 'x' },
    },
  });
  const results = Array.isArray(output) ? output : [output];
  for (const result of results) {
    if (!('output' in result)) continue;
    const chunk = result.output.find((o) => o.type === 'chunk');
    if (chunk && chunk.type === 'chunk') return chunk.code;
  }
  throw new Error('the compute bundle was not built');
}

async function measureCompute(browser: Browser, rate: number, code: string): Promise<ComputeTimes> {
  const definition = taskLog();
  const now = Date.now();
  const records = Array.from({ length: RECORDS }, (_, i) => ({
    id: `task-${i}`,
    collectionId: TASKS,
    values: taskValues(i),
    createdAt: now + i,
    updatedAt: now + i,
  }));
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const failures: string[] = [];
    page.on('pageerror', (error) => failures.push(error.message));
    await page.addScriptTag({ content: code });
    if (failures.length) throw new Error(`the compute bundle failed: ${failures.join('; ')}`);
    await throttle(page, rate);
    const formulas = Array.from({ length: 10 }, (_, k) => `ROUND({Hours} * {Rate} * 1.${k}, 2)`);
    return await page.evaluate(
      ({ definition, records, formulas }) =>
        (
          window as unknown as {
            pipitRecordsBench: { measure: (...args: unknown[]) => ComputeTimes };
          }
        ).pipitRecordsBench.measure(definition, records, 'tasks', 'cost', formulas, 30, 20),
      { definition, records, formulas },
    );
  } finally {
    await context.close();
  }
}

function reportCompute(rate: number, t: ComputeTimes) {
  const line = (what: string, values: number[]) =>
    `   ${what.padEnd(58)} p50 ${ms(p(values, 50))}, p95 ${ms(p(values, 95))}`;
  console.log(`\n   CPU ${rate}×${rate > 1 ? ' slower' : ''} (20 of each; load ${load()}):`);
  console.log(
    line(
      `one record changed: indexRecords over all ${RECORDS.toLocaleString('en')}, afresh`,
      t.oneChangeAfresh,
    ),
  );
  console.log(line('one record changed: keeping what did not (the app)', t.oneChange));
  console.log(line('a formula changed: compiled, then indexRecords over all', t.formulaChange));
  console.log(
    line('a formula changed: compiled, worked out for the first 30', t.visibleOnly) +
      ` — goal ≤ ${GOAL_COMPUTE_MS} ms: ${meets(p(t.visibleOnly, 95) <= GOAL_COMPUTE_MS)}`,
  );
  const all = p(t.formulaChange, 95);
  console.log(
    `   every record after a formula change, p95 ${ms(all)} — goal ≤ ${GOAL_COMPUTE_MS} ms: ${meets(all <= GOAL_COMPUTE_MS)}` +
      `; check: ${t.indexed} tasks indexed, the first's label "${String(t.sample[LABEL_FORMULA] ?? '')}", status "${String(t.sample.status ?? '')}"`,
  );
}

// ---------------------------------------------------------------------------------------------
// 3. A photo taken offline, sent on reconnecting

/** A phone-sized photo (4032 × 3024 JPEG), drawn in the page: shapes over a gradient, distinct per `seed`. */
async function phonePhoto(page: Page, seed: number): Promise<Buffer> {
  // A string, not a function: tsx's helpers for named functions do not exist in the page.
  const base64 = await page.evaluate<string>(`(async () => {
    const seed = ${seed};
    const canvas = new OffscreenCanvas(4032, 3024);
    const g = canvas.getContext('2d');
    const gradient = g.createLinearGradient(0, 0, 4032, 3024);
    gradient.addColorStop(0, 'hsl(' + ((seed * 47) % 360) + ' 60% 45%)');
    gradient.addColorStop(1, 'hsl(' + ((seed * 47 + 120) % 360) + ' 60% 65%)');
    g.fillStyle = gradient;
    g.fillRect(0, 0, 4032, 3024);
    let x = seed * 9973;
    function next() {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x / 2147483648;
    }
    for (let i = 0; i < 3000; i++) {
      g.fillStyle = 'hsl(' + next() * 360 + ' 50% ' + (30 + next() * 50) + '%)';
      g.fillRect(next() * 4032, next() * 3024, 20 + next() * 200, 20 + next() * 200);
    }
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.85 });
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000)
      text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(text);
  })()`);
  return Buffer.from(base64, 'base64');
}

interface UploadRun {
  ms: number;
  bytes: number;
  /** From online to the device's PUT starting, and to the server's answer reaching the page. */
  requestMs: number;
  answerMs: number;
}

async function measureUpload(
  browser: Browser,
  pipit: RunningPipit,
  photographer: Person,
  appId: string,
  rate: number,
  seedFrom: number,
): Promise<UploadRun[]> {
  const { createHash } = await import('node:crypto');
  const context = await deviceOf(browser, pipit, photographer, {
    serviceWorkers: 'allow',
    viewport: PHONE,
  });
  const stored = (hash: string) =>
    pipit.server.storage.recordFiles.info(
      documentName({ kind: 'data', appId, userId: photographer.id }),
      hash,
    );
  try {
    const page = await context.newPage();
    await page.goto(`${pipit.url}/apps/${appId}/pwa`);
    await untilControlled(page);
    await page.getByRole('heading', { name: 'Album', exact: true }).waitFor();
    await throttle(page, rate);
    const runs: UploadRun[] = [];
    for (let i = 0; i < PHOTO_RUNS; i++) {
      const photo = await phonePhoto(page, seedFrom + i);
      const hash = createHash('sha256').update(photo).digest('hex');
      await goOffline(context, page);
      const form = page.getByRole('form', { name: 'New Photos' });
      await form.getByLabel(/^Name/).fill(`Photo ${seedFrom + i}`);
      await form.getByLabel('Take a photo for Photo').setInputFiles({
        name: `photo-${seedFrom + i}.jpg`,
        mimeType: 'image/jpeg',
        buffer: photo,
      });
      await form.getByRole('img', { name: `Photo: photo-${seedFrom + i}.jpg` }).waitFor();
      await form.getByRole('button', { name: 'Add photo' }).click();
      await page
        .getByRole('list', { name: 'Photos' })
        .getByRole('img', { name: `Photo ${seedFrom + i}` })
        .waitFor();
      // Time to settle what the device does offline (keeping the bytes), so only the send is timed.
      await page.waitForTimeout(500);
      if ((await stored(hash)) !== null) throw new Error('the photo reached the server offline');
      let requestAt = NaN;
      let answerAt = NaN;
      const sent = (request: Request) => {
        if (request.method() === 'PUT' && request.url().includes(hash))
          requestAt = performance.now();
      };
      const answered = (response: Response) => {
        const request = response.request();
        if (request.method() === 'PUT' && request.url().includes(hash))
          answerAt = performance.now();
      };
      page.on('request', sent);
      page.on('response', answered);
      const started = performance.now();
      await goOnline(context, page);
      const deadline = started + TIMEOUT_MS;
      while ((await stored(hash)) === null) {
        if (performance.now() > deadline) throw new Error('the photo was not sent within 30 s');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const ms = performance.now() - started;
      await page.waitForTimeout(200);
      page.off('request', sent);
      page.off('response', answered);
      runs.push({
        ms,
        bytes: photo.length,
        requestMs: requestAt - started,
        answerMs: answerAt - started,
      });
    }
    return runs;
  } finally {
    await context.close();
  }
}

async function goOffline(context: BrowserContext, page: Page) {
  await context.setOffline(true);
  await page.evaluate(() => window.dispatchEvent(new Event('offline')));
}

async function goOnline(context: BrowserContext, page: Page) {
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
}

function reportUpload(rate: number, runs: UploadRun[]) {
  const times = runs.map((r) => r.ms);
  const size = runs.reduce((sum, r) => sum + r.bytes, 0) / runs.length / 1024 / 1024;
  console.log(
    `   CPU ${rate}×: median ${ms(p(times, 50))}, p95 ${ms(p(times, 95))} (${runs.length} photos, ${size.toFixed(1)} MB on average) — ` +
      `goal ≤ ${GOAL_UPLOAD_MS} ms: ${meets(p(times, 95) <= GOAL_UPLOAD_MS)}; load ${load()}`,
  );
  console.log(
    `     each (stored / the PUT sent / its answer's headers in the page): ${runs.map((r) => `${r.ms.toFixed(0)}/${r.requestMs.toFixed(0)}/${r.answerMs.toFixed(0)}`).join(', ')}`,
  );
}

// ---------------------------------------------------------------------------------------------
// 4. A gallery of 200 photos scrolling

/**
 * 200 distinct 640 × 480 PNGs, drawn in a page twenty at a time (one evaluation of all 200 once
 * stalled for minutes on this machine).
 */
async function galleryPhotos(browser: Browser): Promise<Buffer[]> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const photos: Buffer[] = [];
    for (let from = 0; from < GALLERY_PHOTOS; from += 20) {
      const encoded = await page.evaluate(
        async ({ from, to }) => {
          const out: string[] = [];
          for (let i = from; i < to; i++) {
            const canvas = new OffscreenCanvas(640, 480);
            const g = canvas.getContext('2d')!;
            const gradient = g.createLinearGradient(0, 0, 640, 480);
            gradient.addColorStop(0, `hsl(${(i * 37) % 360} 70% 40%)`);
            gradient.addColorStop(1, `hsl(${(i * 37 + 90) % 360} 70% 70%)`);
            g.fillStyle = gradient;
            g.fillRect(0, 0, 640, 480);
            g.fillStyle = '#fff';
            g.font = 'bold 160px sans-serif';
            g.fillText(String(i + 1), 60, 300);
            const bytes = new Uint8Array(
              await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer(),
            );
            let text = '';
            for (let j = 0; j < bytes.length; j += 0x8000)
              text += String.fromCharCode(...bytes.subarray(j, j + 0x8000));
            out.push(btoa(text));
          }
          return out;
        },
        { from, to: Math.min(from + 20, GALLERY_PHOTOS) },
      );
      photos.push(...encoded.map((b) => Buffer.from(b, 'base64')));
    }
    return photos;
  } finally {
    await context.close();
  }
}

interface ScrollRun {
  fps: number;
  p95: number;
  longest: number;
  dropped: number;
  frames: number;
  seconds: number;
  thumbnails: number;
}

/**
 * One scroll from the top of the album to its bottom, driven by the browser as a mouse wheel's
 * (CDP Input.synthesizeScrollGesture, 2,500 px/s, no fling), with
 * every animation frame's time noted in the page: frames per second, the 95th percentile of the
 * time between frames, the longest, and the frames dropped (each gap counted in 60 Hz frames).
 */
async function measureScroll(
  browser: Browser,
  pipit: RunningPipit,
  visitor: Person,
  appId: string,
  rate: number,
): Promise<ScrollRun> {
  const context = await deviceOf(browser, pipit, visitor, { viewport: PHONE });
  try {
    const page = await context.newPage();
    await page.goto(`${pipit.url}/apps/${appId}/pwa`);
    // A long gallery draws its first cards and says how many are left (growing-rows.tsx): it
    // grows as the scroll nears its end, during the measured scroll, as it does for a person.
    await page.waitForFunction(
      (n) => {
        const drawn = document.querySelectorAll('ul[aria-label="Photos"] > li').length;
        const more = /of ([\d,]+)$/.exec(
          document.querySelector('.rt-more-rows')?.textContent ?? '',
        );
        return drawn > 0 && drawn + Number(more?.[1]?.replace(/,/g, '') ?? 0) === n;
      },
      GALLERY_PHOTOS,
      { timeout: 60_000 },
    );
    await page.waitForLoadState('networkidle');
    const cdp = await throttle(page, rate);
    await page.waitForTimeout(500);
    // The whole album's height, from the drawn cards' (rows of equal cards).
    const distance = await page.evaluate((n) => {
      const cards = [...document.querySelectorAll('ul[aria-label="Photos"] > li')];
      const list = cards[0]!.parentElement!.getBoundingClientRect();
      const perCard = list.height / cards.length;
      return Math.round(list.top + window.scrollY + perCard * n - window.innerHeight);
    }, GALLERY_PHOTOS);
    await page.evaluate(`(() => {
      const frames = (window.__frames = []);
      function tick(t) {
        frames.push(t);
        if (!window.__stop) requestAnimationFrame(tick);
      }
      requestAnimationFrame(tick);
    })()`);
    await cdp.send('Input.synthesizeScrollGesture', {
      x: PHONE.width / 2,
      y: PHONE.height / 2,
      yDistance: -distance,
      speed: 2500,
      // A touch drag does not scroll headless Chromium here; a mouse wheel's does, as compositor
      // scrolling (the album's cards open nothing, so no hover style follows the pointer).
      gestureSourceType: 'mouse',
      preventFling: true,
    });
    const { frames, thumbnails, scrolled, end, drawn } = await page.evaluate(() => {
      (window as unknown as { __stop: boolean }).__stop = true;
      return {
        drawn: document.querySelectorAll('ul[aria-label="Photos"] > li').length,
        frames: (window as unknown as { __frames: number[] }).__frames,
        thumbnails: performance
          .getEntriesByType('resource')
          .filter((e) => e.name.includes('/thumbnail')).length,
        scrolled: window.scrollY,
        end: document.documentElement.scrollHeight - window.innerHeight,
      };
    });
    // Cards out of view may take their real height only once drawn: the end is read again.
    if (scrolled < Math.min(distance, end) * 0.9 || drawn !== GALLERY_PHOTOS) {
      throw new Error(`the gallery scrolled ${scrolled} of ${end} px, ${drawn} cards drawn`);
    }
    const gaps = frames.slice(1).map((t, i) => t - frames[i]!);
    const seconds = (frames.at(-1)! - frames[0]!) / 1000;
    return {
      fps: gaps.length / seconds,
      p95: p(gaps, 95),
      longest: Math.max(...gaps),
      dropped: gaps.reduce((sum, gap) => sum + Math.max(0, Math.round(gap / (1000 / 60)) - 1), 0),
      frames: gaps.length,
      seconds,
      thumbnails,
    };
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------------------------------------

const cpus = os.cpus();
console.log(
  `Records benchmark: Node ${process.version}, ${os.availableParallelism()} cores ` +
    `(${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${CHROMIUM_PATH}; the server in this process on SQLite.`,
);
if (buildIsCurrent(ROOT, path.join(ROOT, 'dist', 'client')) === false) {
  console.log('Note: the client was built from older sources; rebuild for current figures.');
}
const started = performance.now();
const pipit = await startPipit();
const browser = await launchChromium();
try {
  const creator = await signUp(pipit, 'bench_creator');
  const tasksApp = await publishDefinition(harness(pipit), creator.api, taskLog(), 'public');
  const albumApp = await publishDefinition(harness(pipit), creator.api, photoAlbum(), 'public');
  const visitor = await signUp(pipit, 'bench_visitor');
  await writeTasks(pipit, visitor, tasksApp, RECORDS);
  console.log(
    `Seed: the task log published, ${RECORDS.toLocaleString('en')} tasks written into a visitor's data through the server (${((performance.now() - started) / 1000).toFixed(0)} s).`,
  );

  if (PARTS.has('1')) {
    const few = await signUp(pipit, 'bench_baseline');
    await writeTasks(pipit, few, tasksApp, BASELINE_RECORDS);
    reportOpen(
      await measureOpen(browser, pipit, visitor, tasksApp, RECORDS),
      await measureOpen(browser, pipit, few, tasksApp, BASELINE_RECORDS),
    );
  }

  if (PARTS.has('2')) await reportComputes(browser);
  if (PARTS.has('3')) await reportUploads(browser, pipit, albumApp);
  if (PARTS.has('4')) await reportScrolls(browser, pipit, albumApp);
} finally {
  await browser.close();
  await pipit.close();
}
console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s)`);

async function reportComputes(browser: Browser) {
  console.log(
    "\n2. Formulas worked out again, in Chromium (a blank page; the runtime's indexRecords and formulaComputer\n" +
      '   and the formula engine, bundled from their sources): after one record changes, what AppRuntime\n' +
      "   runs (every record's relations, rollups and formulas); after a formula changes, what a new\n" +
      "   definition costs (compiled again, then every record); and the same for the 30 records a phone's\n" +
      '   screen can show (their formulas only). Every record is read after each, as a list that sorts by a\n' +
      "   formula reads them (the installed app works a record's computed fields out when first read, and\n" +
      '   after a change of the data only what the change can reach).',
  );
  const code = await computeBundle();
  for (const rate of [1, 4]) reportCompute(rate, await measureCompute(browser, rate, code));
}

async function reportUploads(browser: Browser, pipit: RunningPipit, albumApp: string) {
  console.log(
    '\n3. A photo taken offline (a 4032 × 3024 JPEG, picked with "Take a photo" in the installed app\'s form,\n' +
      '   375 × 740, signed in) and added offline, then the device online (context.setOffline(false) and\n' +
      '   the "online" event): time until the server stores it (recordFiles.info polled every 10 ms; it\n' +
      '   re-encodes the photo and makes its thumbnail first, in this process):',
  );
  const photographer = await signUp(pipit, 'bench_photographer');
  for (const rate of [1, 4]) {
    reportUpload(
      rate,
      await measureUpload(browser, pipit, photographer, albumApp, rate, rate * 100),
    );
  }
}

async function reportScrolls(browser: Browser, pipit: RunningPipit, albumApp: string) {
  const collector = await signUp(pipit, 'bench_collector');
  const photos = await galleryPhotos(browser);
  await writePhotos(pipit, collector, albumApp, photos);
  console.log(
    `\n4. The album's gallery of ${GALLERY_PHOTOS} photos (640 × 480 PNGs, sent through the API; the device shows the\n` +
      "   server's 320 px thumbnails) on a 375 × 740 window, scrolled from top to bottom once in a fresh\n" +
      '   device (thumbnails load as they come into view; the gallery draws 50 cards, then the rest as the scroll\n' +
      '   nears them) by the wheel (CDP Input.synthesizeScrollGesture, 2,500 px/s);\n' +
      '   requestAnimationFrame timestamps in the page:',
  );
  for (const rate of [1, 4]) {
    const run = await measureScroll(browser, pipit, collector, albumApp, rate);
    console.log(
      `   CPU ${rate}×: ${run.fps.toFixed(1)} fps over ${run.seconds.toFixed(1)} s (${run.frames} frames), frame time p95 ${ms(run.p95)}, ` +
        `longest ${ms(run.longest)}, ${run.dropped} frames dropped; ${run.thumbnails} thumbnails loaded — goal ${GOAL_FPS} fps: ` +
        `${meets(run.fps >= GOAL_FPS * 0.95 && run.p95 <= 1000 / 60 + 2)}; load ${load()}`,
    );
  }
}
