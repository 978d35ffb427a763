/**
 * A whole number in full with its thousands grouped, as English writes it: 1,000 and 12,345,678.
 * What `n.toLocaleString('en')` gives, without it: a page's first locale-aware formatting loads
 * the browser's number data on the main thread (~45 ms on this machine, four times that on a
 * phone). A message built when its module loads (a limit in words) used it, so every page that
 * loaded the module paid for it, the installed app's start too (docs/performance.md).
 */
export function groupedCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en');
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 ? `-${digits}` : digits;
}
