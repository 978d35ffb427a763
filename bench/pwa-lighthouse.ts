/**
 * Lighthouse 13, desktop or default (mobile) configuration, against Debian's Chromium: performance, accessibility and
 * best-practices scores of a page, and what keeps each score under its target.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import lighthouse, { desktopConfig, type Result } from 'lighthouse';
import lighthousePackage from 'lighthouse/package.json' with { type: 'json' };
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/browser';

export const LIGHTHOUSE_VERSION: string = lighthousePackage.version;
export const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
export type CategoryId = (typeof CATEGORIES)[number];
export const TARGETS: Record<CategoryId, number> = {
  performance: 0.95,
  accessibility: 1,
  'best-practices': 0.95,
};
/** The metrics behind the performance score, in the report's order. */
const METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
];

export interface LighthouseBrowser {
  port: number;
  close(): Promise<void>;
}

/** Chromium with a DevTools port, which Lighthouse connects to (a new tab per run). */
export async function launchForLighthouse(): Promise<LighthouseBrowser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'pipit-bench-lighthouse-'));
  const child: ChildProcess = spawn(
    CHROMIUM_PATH,
    [...CHROMIUM_ARGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    // Chromium's helper processes can still be writing the cache when the main one has exited.
    rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let stderr = '';
      const timer = setTimeout(
        () => reject(new Error(`Chromium did not start:\n${stderr}`)),
        20_000,
      );
      void exited.then(() => reject(new Error(`Chromium exited:\n${stderr}`)));
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(stderr);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
    });
    return { port, close };
  } catch (error) {
    await close();
    throw error;
  }
}

export interface Shortfall {
  id: string;
  title: string;
  score: number | null;
  /** The report's short figure (e.g. "1.2 s", "Est savings of 40 KiB"). */
  value: string;
  /** Weight in its category's score: 0 for diagnostics and insights that count for nothing. */
  weight: number;
  /** A few of the elements or resources concerned. */
  examples: string[];
}

export interface PageScores {
  path: string;
  scores: Record<CategoryId, number | null>;
  metrics: Array<{ id: string; title: string; value: string; score: number | null }>;
  /** Per category under target: audits that did not pass, weighted ones first. */
  shortfalls: Partial<Record<CategoryId, Shortfall[]>>;
  warnings: string[];
  error: string | null;
}

type AuditResult = Result['audits'][string];

/** Up to three elements (selector, snippet) or URLs from an audit's table. */
function examplesOf(audit: AuditResult): string[] {
  const details = audit.details as { items?: Array<Record<string, unknown>> } | undefined;
  const examples: string[] = [];
  // Most tables list their rows in `items`; some audits' details hold something else there.
  const items = Array.isArray(details?.items) ? details.items : [];
  for (const item of items) {
    const node = item.node as { selector?: string; snippet?: string } | undefined;
    const text =
      node?.snippet ?? node?.selector ?? (typeof item.url === 'string' ? item.url : undefined);
    if (text) examples.push(text.replace(/\s+/g, ' ').slice(0, 140));
    if (examples.length === 3) break;
  }
  return examples;
}

const FAILING_MODES = new Set(['binary', 'numeric', 'metricSavings']);

function shortfallsOf(lhr: Result, category: CategoryId): Shortfall[] {
  const found: Shortfall[] = [];
  for (const ref of lhr.categories[category]?.auditRefs ?? []) {
    const audit = lhr.audits[ref.id];
    if (!audit || !FAILING_MODES.has(audit.scoreDisplayMode)) continue;
    if (audit.score === null || audit.score >= (ref.weight > 0 ? 0.9 : 1)) continue;
    found.push({
      id: ref.id,
      title: audit.title,
      score: audit.score,
      value: audit.displayValue ?? '',
      weight: ref.weight,
      examples: examplesOf(audit),
    });
  }
  return found.sort((a, b) => b.weight - a.weight || (a.score ?? 0) - (b.score ?? 0));
}

/**
 * Lighthouse's two configurations: `desktop`, and its default, `mobile` (a mid-range phone: a
 * small screen, slow 4G and a CPU 4× slower, all simulated from one unthrottled load).
 */
export type FormFactor = 'desktop' | 'mobile';

/** One Lighthouse navigation (cold: Lighthouse clears the origin's storage and cache first). */
export async function auditPage(
  port: number,
  origin: string,
  pagePath: string,
  formFactor: FormFactor = 'desktop',
  targets: Record<CategoryId, number> = TARGETS,
): Promise<PageScores> {
  const empty: PageScores = {
    path: pagePath,
    scores: { performance: null, accessibility: null, 'best-practices': null },
    metrics: [],
    shortfalls: {},
    warnings: [],
    error: null,
  };
  let lhr: Result;
  try {
    const result = await lighthouse(
      `${origin}${pagePath}`,
      { port, logLevel: 'error', output: 'json', onlyCategories: [...CATEGORIES] },
      formFactor === 'desktop' ? desktopConfig : undefined,
    );
    if (!result) throw new Error('Lighthouse returned no result');
    lhr = result.lhr;
  } catch (error) {
    return { ...empty, error: error instanceof Error ? error.message : String(error) };
  }
  const scores = { ...empty.scores };
  const shortfalls: PageScores['shortfalls'] = {};
  for (const category of CATEGORIES) {
    const score = lhr.categories[category]?.score ?? null;
    scores[category] = score;
    if (score === null || score < targets[category]) {
      shortfalls[category] = shortfallsOf(lhr, category);
    }
  }
  const metrics = METRICS.flatMap((id) => {
    const audit = lhr.audits[id];
    return audit
      ? [{ id, title: audit.title, value: audit.displayValue ?? '', score: audit.score }]
      : [];
  });
  return {
    ...empty,
    scores,
    metrics,
    shortfalls,
    warnings: lhr.runWarnings,
    error: lhr.runtimeError ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` : null,
  };
}

/**
 * `runs` audits of a page (a failed run, e.g. no paint on a busy machine, is tried once more); the
 * run with the median performance score is returned, with every run's performance score.
 */
export async function auditPageMedian(
  port: number,
  origin: string,
  pagePath: string,
  runs: number,
  formFactor: FormFactor = 'desktop',
  targets: Record<CategoryId, number> = TARGETS,
): Promise<PageScores & { performanceRuns: number[] }> {
  const results: PageScores[] = [];
  let retried = false;
  while (results.length < runs) {
    const result = await auditPage(port, origin, pagePath, formFactor, targets);
    if (result.error && !retried) {
      retried = true;
      continue;
    }
    results.push(result);
  }
  const performanceRuns = results.map((r) => r.scores.performance ?? -1).sort((a, b) => a - b);
  const median = performanceRuns[Math.floor((results.length - 1) / 2)];
  const chosen = results.find((r) => (r.scores.performance ?? -1) === median) ?? results[0]!;
  return { ...chosen, performanceRuns: performanceRuns.filter((s) => s >= 0) };
}
