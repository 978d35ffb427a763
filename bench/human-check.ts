/**
 * How long the human check takes a person: real challenges from the real server, solved by the
 * page's own challenge script in Chromium, at full speed and with the CPU slowed 4× and 6× (4× is
 * Lighthouse's mid-range-phone emulation). Prints figures; not a pass/fail test.
 * Run: npm run bench -- human-check   (needs the built client: npm run build)
 */
import { chromium } from 'playwright-core';
import { startPipit } from '@pipit/sync-server/testing';
// Not re-exported by @pipit/sync-server/testing; imported by path, as the server's own tests do.
import { percentile } from '../sync-server/test/support/timing';

const DIFFICULTIES = [1_000, 5_000, 20_000];
const THROTTLES = [1, 4, 6];
const RUNS = 12;
const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: CHROMIUM_ARGS,
});
console.log(`Human check solve time (challenge fetch + proof of work), ${RUNS} runs each, ms:`);
console.log('difficulty  cpu   median     p90     max');
for (const difficulty of DIFFICULTIES) {
  const pipit = await startPipit({ env: { HUMAN_CHECK_DIFFICULTY: String(difficulty) } });
  const page = await browser.newPage();
  await page.goto(`${pipit.url}/about`);
  await page.waitForFunction(() => 'PipitHumanCheck' in window);
  const cdp = await page.context().newCDPSession(page);
  for (const rate of THROTTLES) {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      times.push(
        await page.evaluate(async () => {
          const start = performance.now();
          await (
            window as unknown as {
              PipitHumanCheck: { solve(p: string, m: string): Promise<unknown> };
            }
          ).PipitHumanCheck.solve('/api/auth/login', 'POST');
          return performance.now() - start;
        }),
      );
    }
    const fmt = (n: number) => n.toFixed(0).padStart(7);
    console.log(
      `${String(difficulty).padStart(10)}  ${`${rate}x`.padStart(3)} ${fmt(percentile(times, 50))} ${fmt(percentile(times, 90))} ${fmt(Math.max(...times))}`,
    );
  }
  await page.close();
  await pipit.close();
}
await browser.close();
