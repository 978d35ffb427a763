import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { CLIENT_DIR, type RunningPipit, startPipit } from '@pipit/sync-server/testing';
import { launchPersistent } from './support/browser';

/** A deploy: the service worker changes (as its precache list does when any file changes). */
function deployNewVersion(dir: string) {
  const file = path.join(dir, 'sw.js');
  const next = `${readFileSync(file, 'utf8')}\n// next build\n`;
  writeFileSync(file, next);
  writeFileSync(`${file}.br`, brotliCompressSync(next));
  writeFileSync(`${file}.gz`, gzipSync(next));
}

describe('a new version of Pipit', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pipit-deploy-'));
  let pipit: RunningPipit | undefined;
  let browser: Awaited<ReturnType<typeof launchPersistent>> | undefined;
  afterAll(async () => {
    await browser?.close();
    await pipit?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is offered with a prompt, and installed when the person accepts', async () => {
    cpSync(CLIENT_DIR, dir, { recursive: true });
    pipit = await startPipit({ clientDir: dir });
    const { port } = pipit;
    browser = await launchPersistent();
    const page = await browser.context.newPage();
    await page.goto(`${pipit.url}/about`);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await expect
      .poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)))
      .toBe(true);

    // Deploy: the same address, a new build.
    await pipit.close();
    deployNewVersion(dir);
    pipit = await startPipit({ clientDir: dir, port });

    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    const prompt = page.getByText('A new version of Pipit is available.', { exact: false });
    await prompt.waitFor();
    // Nothing changes until the person says so.
    expect(
      await page.evaluate(async () =>
        Boolean((await navigator.serviceWorker.getRegistration())?.waiting),
      ),
    ).toBe(true);

    await page.evaluate(
      () => ((window as unknown as { beforeUpdate: boolean }).beforeUpdate = true),
    );
    await Promise.all([
      page.waitForEvent('framenavigated'),
      page.getByRole('button', { name: 'Reload' }).click(),
    ]);
    await page.locator('h1').waitFor();
    expect(await page.evaluate(() => 'beforeUpdate' in window)).toBe(false);
    expect(
      await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return {
          waiting: Boolean(registration?.waiting),
          controlled: Boolean(navigator.serviceWorker.controller),
        };
      }),
    ).toEqual({ waiting: false, controlled: true });
    expect(await prompt.count()).toBe(0);
    expect(await page.locator('h1').textContent()).toBe('About Pipit');
  });
});
