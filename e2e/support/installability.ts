import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** One of Chromium's installability errors (`Page.getInstallabilityErrors`), e.g. `in-incognito`. */
export interface InstallabilityError {
  errorId: string;
  errorArguments: Array<{ name: string; value: string }>;
}

/** A problem Chromium found while parsing the manifest (`Page.getAppManifest`). */
export interface ManifestError {
  message: string;
  critical: number;
  line: number;
  column: number;
}

/** What Chromium says about the page's web app manifest and whether the page can be installed. */
export interface Installability {
  /** The manifest's URL as Chromium resolved it from `<link rel="manifest">` ('' when none). */
  manifestUrl: string;
  manifestErrors: ManifestError[];
  /** The manifest as Chromium fetched it, parsed (null when there was none, or it is not JSON). */
  manifest: Record<string, unknown> | null;
  installabilityErrors: InstallabilityError[];
}

/**
 * Asks Chromium, over CDP, which manifest the page links and whether it could be installed.
 * Needs a persistent context (`launchPersistent`): an ordinary one reports `in-incognito`
 * (docs/library-notes.md#browser-tests). Chromium checks the manifest it fetched for the current
 * document, so call this after the page has loaded.
 */
export async function readInstallability(page: Page): Promise<Installability> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const manifest = (await cdp.send('Page.getAppManifest')) as {
      url: string;
      errors: ManifestError[];
      data?: string;
    };
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: InstallabilityError[];
    };
    let parsed: Record<string, unknown> | null = null;
    try {
      parsed = manifest.data ? (JSON.parse(manifest.data) as Record<string, unknown>) : null;
    } catch {
      parsed = null;
    }
    return {
      manifestUrl: manifest.url,
      manifestErrors: manifest.errors,
      manifest: parsed,
      installabilityErrors,
    };
  } finally {
    await cdp.detach();
  }
}

/**
 * Waits until Chromium has the manifest at `manifestUrl` for the page (it fetches it after the
 * HTML is parsed), then returns what it says about it.
 */
export async function untilManifest(page: Page, manifestUrl: string): Promise<Installability> {
  let report: Installability | undefined;
  await expect
    .poll(
      async () => {
        report = await readInstallability(page);
        return report.manifestUrl === manifestUrl && report.manifest !== null;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return report!;
}
