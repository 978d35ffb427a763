import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/**
 * What axe finds wrong on the page (or inside `include`; only `rules`, when given), one line per
 * rule with where: an empty list when there is nothing. Tests assert it equals [] so a failure names the problem.
 *
 * Speed (every browser suite runs axe; this took a third of e2e/routes.test.ts): axe only builds
 * selectors for violations, the only results read here. A page without frames (all of Pipit's
 * today) runs axe.run in the page itself, which finds what the frame-aware run finds without its
 * second page in the context and second copy of axe; and a page that already has axe (a second run
 * after a client-side change) is not sent its 500 kB again. A page with frames takes the frame-aware
 * run, which reaches cross-origin frames too.
 */
export async function axeViolations(
  page: Page,
  include?: string,
  options: { rules?: string[] } = {},
): Promise<string[]> {
  const frameless = page.frames().length === 1;
  const injected =
    frameless &&
    (await page.evaluate(
      () => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function',
    ));
  let builder = new AxeBuilder({ page, axeSource: injected ? ';' : undefined }).options({
    resultTypes: ['violations'],
  });
  if (frameless) builder = builder.setLegacyMode(true);
  if (include) builder = builder.include(include);
  if (options.rules) builder = builder.withRules(options.rules);
  const result = await builder.analyze();
  return result.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
}
