/**
 * The two browser figures of the PWA benchmark, in Chromium driven by playwright-core: the
 * JavaScript a first visit to `/apps/{id}/pwa` transfers, and how fast the app renders offline from
 * the service worker.
 */
import {
  type Browser,
  type BrowserContext,
  type CDPSession,
  chromium,
  type Page,
} from 'playwright-core';
// The flags the browser tests use (without them Chromium floods this machine's closed network).
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/browser';

const RENDER_TIMEOUT_MS = 20_000;
const POLL_MS = 20;
const RENDERED = '__pipitBenchRendered';

export { CHROMIUM_PATH };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * Runs in every document before the page's scripts: notes `performance.now()` (ms since the
 * navigation started) at the first animation frame after a heading whose text is `title` is laid
 * out with a size, i.e. the frame that paints the app's first screen. Checked on every DOM change
 * and every frame (a stylesheet can make it visible without a DOM change). Plain JavaScript in a
 * string: a function would be serialized as tsx compiled it, with helpers the page does not have.
 */
function headingWatcher(title: string): string {
  return `(() => {
    const title = ${JSON.stringify(title)};
    const key = ${JSON.stringify(RENDERED)};
    let found = false;
    function visible() {
      for (const el of document.querySelectorAll('h1, h2, h3')) {
        if (!el.textContent || el.textContent.trim() !== title) continue;
        const box = el.getBoundingClientRect();
        if (box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden') {
          return true;
        }
      }
      return false;
    }
    function done() {
      found = true;
      observer.disconnect();
      requestAnimationFrame(() => { window[key] = performance.now(); });
    }
    const observer = new MutationObserver(() => { if (!found && visible()) done(); });
    observer.observe(document, { childList: true, subtree: true, characterData: true });
    function frame() {
      if (found) return;
      if (visible()) done();
      else requestAnimationFrame(frame);
    }
    requestAnimationFrame(frame);
  })();`;
}

/**
 * Waits for the heading watcher's mark. Polled with a one-line CDP Runtime.evaluate rather than
 * Playwright's waitForFunction, which first evaluates Playwright's own script in the page: about
 * 40 ms of the page's main thread at 4× CPU slowdown, while the app starts, counted in its figure.
 */
async function renderedAt(page: Page, cdp: CDPSession): Promise<number> {
  const deadline = performance.now() + RENDER_TIMEOUT_MS;
  while (performance.now() < deadline) {
    // Between two documents there is no context to evaluate in: not rendered yet.
    const value = await cdp
      .send('Runtime.evaluate', {
        expression: `window[${JSON.stringify(RENDERED)}] ?? null`,
        returnByValue: true,
      })
      .then(({ result }) => result.value as unknown)
      .catch(() => null);
    if (typeof value === 'number') return value;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const headings = await page
    .locator('h1, h2')
    .allTextContents()
    .catch(() => []);
  throw new Error(
    `the first screen did not render within ${RENDER_TIMEOUT_MS / 1000} s (headings: ${JSON.stringify(headings)})`,
  );
}

export interface JsResponse {
  url: string;
  /** Bytes on the wire for the body, as Chromium counted them (CDP dataReceived). */
  bodyBytes: number;
  /** Body and headers (CDP loadingFinished.encodedDataLength). */
  transferBytes: number;
  /** What the server answered with: gzip expected. */
  encoding: string;
}

export interface FirstVisit {
  js: JsResponse[];
  /** Null when the first screen never rendered: `error` says what the page showed instead. */
  renderMs: number | null;
  error: string | null;
  /** The page reached network idle (no request for 500 ms) after rendering. */
  idle: boolean;
}

interface Tracked {
  url: string;
  isJs: boolean;
  body: number;
  encoding: string;
  transfer: number | null;
}

/**
 * A first visit in a fresh context (empty HTTP cache, no service worker), every request sent with
 * `Accept-Encoding: gzip` only, so what is counted is the gzip transfer the target is stated in.
 * Every JavaScript response of the page up to network idle after the app rendered is summed; the
 * service worker's own downloads (its precache, in the background) are not the page's and are not
 * seen by the page's CDP session.
 */
export async function measureFirstVisit(
  browser: Browser,
  url: string,
  firstScreenTitle: string,
): Promise<FirstVisit> {
  const context = await browser.newContext({ extraHTTPHeaders: { 'Accept-Encoding': 'gzip' } });
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: headingWatcher(firstScreenTitle) });
    const cdp = await context.newCDPSession(page);
    const requests = new Map<string, Tracked>();
    cdp.on('Network.responseReceived', ({ requestId, response, type }) => {
      const isJs = type === 'Script' || /javascript/.test(response.mimeType);
      const headers = Object.fromEntries(
        Object.entries(response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
      );
      requests.set(requestId, {
        url: response.url,
        isJs,
        body: 0,
        encoding: headers['content-encoding'] ?? 'identity',
        transfer: null,
      });
    });
    cdp.on('Network.dataReceived', ({ requestId, encodedDataLength }) => {
      const request = requests.get(requestId);
      if (request) request.body += encodedDataLength;
    });
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
      const request = requests.get(requestId);
      if (request) request.transfer = encodedDataLength;
    });
    await cdp.send('Network.enable');
    await page.goto(url);
    let renderMs: number | null = null;
    let error: string | null = null;
    try {
      renderMs = await renderedAt(page, cdp);
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    const idle = await page
      .waitForLoadState('networkidle', { timeout: 10_000 })
      .then(() => true)
      .catch(() => false);
    await cdp.detach();
    const js = [...requests.values()]
      .filter((r) => r.isJs)
      .map((r) => ({
        url: r.url,
        bodyBytes: r.body,
        transferBytes: r.transfer ?? r.body,
        encoding: r.encoding,
      }));
    return { js, renderMs, error, idle };
  } finally {
    await context.close();
  }
}

async function untilControlled(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready);
  if (!(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)))) {
    await page.reload();
  }
  await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller), undefined, {
    timeout: RENDER_TIMEOUT_MS,
  });
}

export interface OfflineReload {
  /** Navigation start → the first screen's heading painted. */
  renderMs: number;
  /** Navigation start → the HTML's last byte (from the service worker). */
  htmlMs: number;
  domContentLoadedMs: number;
  /**
   * Navigation start → the first paint of anything: the page's own HTML ("Opening the app…"),
   * after the page's modules are evaluated but before the app's start reads the device or
   * renders. What a faster start cannot go below.
   */
  firstPaintMs: number;
  fromServiceWorker: boolean;
}

/**
 * One online visit until the service worker controls the page and the app has rendered (and the
 * network is idle, so the app's own offline copy is written), then `runs` reloads offline after
 * one unmeasured warm-up reload. `cpuSlowdown` above 1 slows the page's CPU that many times for
 * the reloads (CDP Emulation.setCPUThrottlingRate, as DevTools and Lighthouse's mobile
 * configuration do; the service worker runs unthrottled).
 */
export async function measureOffline(
  browser: Browser,
  url: string,
  firstScreenTitle: string,
  runs: number,
  cpuSlowdown = 1,
): Promise<OfflineReload[]> {
  const context: BrowserContext = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: headingWatcher(firstScreenTitle) });
    const cdp = await context.newCDPSession(page);
    await page.goto(url);
    await untilControlled(page);
    await renderedAt(page, cdp);
    await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
    await context.setOffline(true);
    if (cpuSlowdown > 1) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
    }
    const reloads: OfflineReload[] = [];
    for (let i = 0; i <= runs; i++) {
      const response = await page.reload({ waitUntil: 'commit' });
      const renderMs = await renderedAt(page, cdp);
      await page.waitForLoadState('load');
      const timing = await page.evaluate(async () => {
        const [nav] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
        // A paint's entry comes when the frame is presented, which can be after `load` on a
        // fast start: wait for it (a page that never painted gives NaN after 2 s).
        const paint = await new Promise<number>((resolve) => {
          const timer = setTimeout(() => resolve(NaN), 2000);
          new PerformanceObserver((list, observer) => {
            const entry = list.getEntriesByName('first-contentful-paint')[0];
            if (!entry) return;
            observer.disconnect();
            clearTimeout(timer);
            resolve(entry.startTime);
          }).observe({ type: 'paint', buffered: true });
        });
        return {
          htmlMs: nav?.responseEnd ?? NaN,
          dcl: nav?.domContentLoadedEventEnd ?? NaN,
          paint,
        };
      });
      if (i === 0) continue;
      reloads.push({
        renderMs,
        htmlMs: timing.htmlMs,
        domContentLoadedMs: timing.dcl,
        firstPaintMs: timing.paint,
        fromServiceWorker: response?.fromServiceWorker() ?? false,
      });
    }
    return reloads;
  } finally {
    await context.close();
  }
}

export interface Blocking {
  /** First contentful paint, ms after navigation start. */
  fcpMs: number;
  /** Each long task's time past 50 ms, summed, from the first paint on (Total Blocking Time). */
  blockingMs: number;
  /** The longest task, ms (before the first paint too). */
  longestMs: number;
}

/** How long a first visit is watched after `load` for its late long tasks (ms). */
const SETTLE_MS = 4000;

/**
 * A first visit in a fresh context with the page's CPU really slowed `cpuSlowdown` times (CDP
 * Emulation.setCPUThrottlingRate) and no tracing: the page's own `longtask` entries until it has
 * settled. Lighthouse's mobile figure is simulated (an unthrottled run, traced, its tasks scaled
 * 4×); this is what a really slowed browser reports of itself.
 */
export async function measureBlocking(
  browser: Browser,
  url: string,
  cpuSlowdown: number,
): Promise<Blocking> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  try {
    await context.addInitScript({
      content: `(() => {
        const tasks = (window.__pipitLongTasks = []);
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) tasks.push([e.startTime, e.duration]);
        }).observe({ type: 'longtask', buffered: true });
      })();`,
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(SETTLE_MS);
    const { tasks, fcp } = await page.evaluate(() => ({
      tasks: (window as unknown as { __pipitLongTasks: Array<[number, number]> }).__pipitLongTasks,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    }));
    return {
      fcpMs: fcp,
      blockingMs: tasks
        .filter(([start]) => start >= fcp)
        .reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0),
      longestMs: Math.max(0, ...tasks.map(([, duration]) => duration)),
    };
  } finally {
    await context.close();
  }
}
