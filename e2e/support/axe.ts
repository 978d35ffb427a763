import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/**
 * What axe finds wrong on the page (or inside `include`; only `rules`, when given), one line per
 * rule with where: an empty list when there is nothing. Tests assert it equals [] so a failure names the problem.
 */
export async function axeViolations(
  page: Page,
  include?: string,
  options: { rules?: string[] } = {},
): Promise<string[]> {
  let builder = new AxeBuilder({ page });
  if (include) builder = builder.include(include);
  if (options.rules) builder = builder.withRules(options.rules);
  const result = await builder.analyze();
  return result.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
}
