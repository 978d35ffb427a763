import type { Browser, BrowserContext, Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { launchBrowser } from './support/browser';

/**
 * The error-reporting SDK's behaviour in Chromium (docs/product/error-reporting.md
 * constants), with the real @sentry/browser as the site loads it. The page's requests to
 * `/monitoring` are answered here by a stand-in collector (Playwright's routing), so each test
 * chooses the answer — a bare 429, a slow one — and reads exactly what the SDK sent.
 */

interface Item {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}
interface Envelope {
  header: Record<string, unknown>;
  items: Item[];
  url: string;
}

/** A Sentry envelope: a header line, then item header / payload line pairs. */
function parseEnvelope(body: string, url: string): Envelope {
  const lines = body.split('\n').filter((line) => line.length > 0);
  const header = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
  const items: Item[] = [];
  for (let i = 1; i + 1 < lines.length; i += 2) {
    items.push({
      header: JSON.parse(lines[i]!) as Record<string, unknown>,
      payload: JSON.parse(lines[i + 1]!) as Record<string, unknown>,
    });
  }
  return { header, items, url };
}

const eventOf = (envelope: Envelope) =>
  envelope.items.find((item) => item.header.type === 'event')?.payload;
const messageOf = (envelope: Envelope) => {
  const values = (eventOf(envelope)?.exception as { values?: { value?: string }[] } | undefined)
    ?.values;
  return values?.at(-1)?.value;
};

/** The stand-in collector: records every envelope it answers; `answer` decides each response. */
function collector(
  page: Page,
  answer: (envelope: Envelope) => Promise<number> | number = () => 200,
) {
  const received: Envelope[] = [];
  void page.route('**/monitoring?**', async (route: Route, request: Request) => {
    const envelope = parseEnvelope(request.postData() ?? '', request.url());
    // Counted on arrival: an answer may be held back.
    received.push(envelope);
    const status = await answer(envelope);
    await route.fulfill({ status, contentType: 'application/json', body: '{}' });
    answered++;
  });
  let answered = 0;
  const events = () => received.filter((envelope) => eventOf(envelope) !== undefined);
  return {
    received,
    events,
    answered: () => answered,
    async nextEvent(after: number, timeout = 15_000): Promise<Envelope> {
      await expect.poll(() => events().length, { timeout }).toBeGreaterThan(after);
      return events()[after]!;
    },
  };
}

interface SentReport {
  keepalive: boolean | undefined;
  /** The page's fetch has resolved: the SDK has seen the answer (its handlers run right after). */
  settled: boolean;
}

/**
 * Records each report the SDK sends from the page: its `keepalive` flag and whether the page has
 * had the answer. The SDK sends with the page's fetch only when it looks native (else it borrows a
 * clean one from an iframe), and the page's human-check script wraps fetch after load — so
 * whatever is assigned to `fetch` in the top window is wrapped in a recorder that looks native.
 */
async function recordReportFetches(page: Page): Promise<() => Promise<SentReport[]>> {
  await page.addInitScript(() => {
    if (window !== window.top) return;
    const seen: SentReport[] = [];
    (window as unknown as { __reports: typeof seen }).__reports = seen;
    const recorder = (inner: typeof fetch) => {
      const recording = (input: RequestInfo | URL, init?: RequestInit) => {
        const answer = inner.call(window, input, init);
        // The SDK passes its URL as a string; the layers below it pass Request objects on.
        if (typeof input === 'string' && input.includes('/monitoring')) {
          const report: SentReport = { keepalive: init?.keepalive, settled: false };
          seen.push(report);
          // Marked before the SDK's own handlers, which are chained on the returned promise.
          return answer.finally(() => (report.settled = true));
        }
        return answer;
      };
      recording.toString = () => 'function fetch() { [native code] }';
      return recording as typeof fetch;
    };
    let current = recorder(window.fetch.bind(window));
    Object.defineProperty(window, 'fetch', {
      configurable: true,
      get: () => current,
      set: (next: typeof fetch) => {
        current = recorder(next);
      },
    });
  });
  return () =>
    page.evaluate(() => (window as unknown as { __reports: SentReport[] }).__reports ?? []);
}

/** Throws outside any handler, as a bug in the page would. */
const throwInPage = (page: Page, message: string) =>
  page.evaluate((text) => {
    setTimeout(() => {
      throw new Error(text);
    });
  }, message);

/** The SDK is loaded a few seconds after the page (then idle): its global handlers are in place when this resolves. */
async function untilReporting(page: Page) {
  await page.waitForFunction(() => {
    const carrier = (window as { __SENTRY__?: Record<string, unknown> }).__SENTRY__;
    const version = carrier?.version as string | undefined;
    const scope = version
      ? (carrier?.[version] as { defaultCurrentScope?: { getClient(): unknown } } | undefined)
      : undefined;
    return Boolean(scope?.defaultCurrentScope?.getClient());
  });
}

describe('error reporting through /monitoring (the SDK in Chromium)', () => {
  let browser: Browser;
  let pipit: RunningPipit;
  let context: BrowserContext;

  beforeAll(async () => {
    browser = await launchBrowser();
    pipit = await startPipit();
  });
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
  });

  async function openPage(): Promise<Page> {
    context = await browser.newContext();
    const page = await context.newPage();
    return page;
  }

  it('reports an uncaught error through the same-origin tunnel with release, environment and route', async () => {
    const page = await openPage();
    const collected = collector(page);
    await page.goto(`${pipit.url}/about`);
    await untilReporting(page);
    await throwInPage(page, 'first report');
    const envelope = await collected.nextEvent(0);
    expect(new URL(envelope.url).pathname).toBe('/monitoring');
    expect(new URL(envelope.url).searchParams.get('o')).toBeTruthy();
    const event = eventOf(envelope)!;
    expect(messageOf(envelope)).toBe('first report');
    expect(event.release).toEqual(expect.any(String));
    expect(event.environment).toEqual(expect.any(String));
    expect((event.tags as Record<string, string>).route).toBe('/about');
    expect(JSON.stringify(event)).not.toMatch(/pipit_session|cookie/i);
    await context.close();
  });

  it('keeps 100 breadcrumbs, each message cut at 2,048 characters', async () => {
    const page = await openPage();
    const collected = collector(page);
    await page.goto(`${pipit.url}/about`);
    await untilReporting(page);
    await page.evaluate(() => {
      for (let i = 0; i < 150; i++)
        console.info(`${String(i).padStart(3, '0')}${'x'.repeat(3000)}`);
    });
    await throwInPage(page, 'after many breadcrumbs');
    const event = eventOf(await collected.nextEvent(0))!;
    const crumbs = event.breadcrumbs as { category: string; message?: string }[];
    expect(crumbs).toHaveLength(100);
    const consoleCrumbs = crumbs.filter((crumb) => crumb.category === 'console');
    // The oldest were dropped: the last 100 remain (minus the few non-console ones at the end).
    expect(consoleCrumbs.at(-1)?.message?.startsWith('149')).toBe(true);
    for (const crumb of consoleCrumbs) {
      expect(crumb.message!.length).toBeLessThanOrEqual(2_048 + '...'.length);
      expect(crumb.message!.slice(0, 2_048)).toMatch(/^\d{3}x+$/);
    }
    await context.close();
  });

  it('normalises report data to depth 3 and breadth 1,000', async () => {
    const page = await openPage();
    const collected = collector(page);
    await page.goto(`${pipit.url}/about`);
    await untilReporting(page);
    await page.evaluate(() => {
      const carrier = (window as unknown as { __SENTRY__: Record<string, unknown> }).__SENTRY__;
      const scope = (
        carrier[carrier.version as string] as {
          defaultCurrentScope: { setExtra(key: string, value: unknown): void };
        }
      ).defaultCurrentScope;
      scope.setExtra('deep', { one: { two: { three: { four: 'too deep' } } } });
      scope.setExtra(
        'wide',
        Object.fromEntries(Array.from({ length: 1_500 }, (_, i) => [`k${i}`, i])),
      );
    });
    await throwInPage(page, 'with extra data');
    const extra = eventOf(await collected.nextEvent(0))!.extra as Record<string, unknown>;
    // extra (1) → deep (2) → one (3): anything below is summarised.
    expect(extra.deep).toEqual({ one: { two: '[Object]' } });
    const wide = extra.wide as Record<string, unknown>;
    expect(Object.keys(wide)).toHaveLength(1_001);
    expect(wide.k999).toBe(999);
    expect(Object.values(wide).at(-1)).toBe('[MaxProperties ~]');
    await context.close();
  });

  it('caps the trace baggage header at 8,192 characters', async () => {
    const page = await openPage();
    collector(page);
    const headersOf = async (path: string) => {
      const sent = page.waitForRequest((request) => request.url().endsWith(path));
      await page.evaluate((url) => fetch(url), path);
      return (await sent).headers();
    };
    await page.goto(`${pipit.url}/about`);
    await untilReporting(page);
    // Pipit's own requests carry the trace context, release included.
    const before = await headersOf('/api/health');
    expect(before['sentry-trace']).toMatch(/^[0-9a-f]{32}-[0-9a-f]{16}/);
    expect(before.baggage).toMatch(/sentry-trace_id=[0-9a-f]{32}/);
    expect(before.baggage).toMatch(/sentry-release=\d/);

    // A release name longer than the cap (set on the running SDK's options): the entry that
    // would pass 8,192 characters is left out, not cut, and the rest is still sent.
    await page.evaluate(() => {
      const carrier = (window as unknown as { __SENTRY__: Record<string, unknown> }).__SENTRY__;
      const scope = (
        carrier[carrier.version as string] as {
          defaultCurrentScope: { getClient(): { getOptions(): { release?: string } } };
        }
      ).defaultCurrentScope;
      scope.getClient().getOptions().release = 'r'.repeat(9_000);
    });
    const after = (await headersOf('/api/health')).baggage!;
    expect(after.length).toBeLessThanOrEqual(8_192);
    expect(after).toMatch(/sentry-trace_id=[0-9a-f]{32}/);
    expect(after).not.toContain('rrrr');
    await context.close();
  });

  it('pauses reporting for 60 seconds after a 429 without rate-limit headers', async () => {
    const page = await openPage();
    await page.clock.install();
    let answered = 0;
    const collected = collector(page, () => (answered++ === 0 ? 429 : 200));
    const sent = await recordReportFetches(page);
    await page.goto(`${pipit.url}/about`);
    await untilReporting(page);
    await throwInPage(page, 'answered 429');
    await collected.nextEvent(0);
    // The SDK has had the 429 before anything else is thrown.
    await expect.poll(async () => (await sent()).map((report) => report.settled)).toEqual([true]);
    await throwInPage(page, 'during the pause');
    await page.clock.fastForward(59_000);
    await throwInPage(page, 'still during the pause');
    await page.clock.fastForward(2_000);
    await throwInPage(page, 'after the pause');
    const next = await collected.nextEvent(1);
    // Reports made during the pause were dropped, not sent late.
    expect(messageOf(next)).toBe('after the pause');
    expect(collected.events().map(messageOf)).toEqual(['answered 429', 'after the pause']);
    await context.close();
  });

  it('sends with keep-alive only while pending bytes ≤ 60,000 and fewer than 15 requests are pending', async () => {
    const page = await openPage();
    const sent = await recordReportFetches(page);
    // Hold every answer, so requests stay pending until released.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const collected = collector(page, async () => {
      await held;
      return 200;
    });
    await page.goto(`${pipit.url}/about`);
    await untilReporting(page);
    for (let i = 0; i < 16; i++) await throwInPage(page, `pending ${i}`);
    await expect.poll(() => collected.events().length).toBe(16);
    const flags = await sent();
    // Every report so far is held: the first 14 went with keep-alive, from the 15th pending one
    // on without.
    expect(flags.length).toBeGreaterThanOrEqual(16);
    expect(flags.map((flag) => flag.keepalive)).toEqual(flags.map((_, index) => index < 14));
    release();
    await expect.poll(() => collected.answered()).toBe(collected.received.length);
    const keepaliveFlags = async () => (await sent()).map((flag) => flag.keepalive);

    // Nothing pending any more: a small report goes with keep-alive again, and one over 60,000
    // bytes (long breadcrumbs) without it.
    await throwInPage(page, 'small report');
    await expect.poll(async () => (await keepaliveFlags()).length).toBe(flags.length + 1);
    await expect.poll(() => collected.events().map(messageOf).at(-1)).toBe('small report');
    await expect.poll(() => collected.answered()).toBe(collected.received.length);
    await page.evaluate(() => {
      for (let i = 0; i < 40; i++) console.info(`${i}${'y'.repeat(2_000)}`);
    });
    await throwInPage(page, 'large report');
    await expect.poll(async () => (await keepaliveFlags()).length).toBe(flags.length + 2);
    expect((await keepaliveFlags()).slice(-2)).toEqual([true, false]);
    // The page records its fetch before the request reaches the route handler: wait for it there.
    await expect
      .poll(() => collected.events().map(messageOf).slice(-2))
      .toEqual(['small report', 'large report']);
    await context.close();
  });

  it('queues reports made offline and sends them once back online', async () => {
    const page = await openPage();
    const collected = collector(page);
    /** Reports waiting in the SDK's offline queue (IndexedDB `sentry-offline`). */
    const queued = () =>
      page.evaluate(
        () =>
          new Promise<number>((resolve, reject) => {
            const open = indexedDB.open('sentry-offline');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const db = open.result;
              if (!db.objectStoreNames.contains('queue')) return resolve(0);
              const count = db.transaction('queue').objectStore('queue').count();
              count.onsuccess = () => resolve(count.result);
              count.onerror = () => reject(count.error);
            };
          }),
      );
    await page.goto(`${pipit.url}/about`);
    await untilReporting(page);
    await context.setOffline(true);
    await throwInPage(page, 'made offline');
    // Kept on the device, not sent into a network that is not there.
    await expect.poll(queued).toBe(1);
    expect(collected.received).toHaveLength(0);
    await context.setOffline(false);
    const envelope = await collected.nextEvent(0, 30_000);
    expect(messageOf(envelope)).toBe('made offline');
    await expect.poll(queued).toBe(0);
    await context.close();
  });
});
