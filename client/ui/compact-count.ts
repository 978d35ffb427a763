/**
 * A count as people read it on a card: 999, 1K, 1.2K, 12.3K, 1M. What
 * `new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 })` gives, without
 * building one: the browser's first compact formatter loads its locale data on the page's main
 * thread (24–58 ms on this machine, four times that on a phone), on every public page with an app
 * card (Lighthouse mobile's Total Blocking Time).
 */
const UNITS = ['', 'K', 'M', 'B', 'T'] as const;

/** Rounded to one decimal, halves away from zero, as Intl rounds; "1.0" is "1". */
function oneDecimal(value: number): number {
  return (Math.round(Math.abs(value) * 10 + 1e-9) * Math.sign(value)) / 10;
}

export function compactCount(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  // The largest unit the count reaches; one that rounds up to a thousand (999,950 is 1000K) is
  // written in the next unit (1M), as Intl writes it.
  let unit = 0;
  while (unit < UNITS.length - 1 && Math.abs(oneDecimal(n / 1000 ** unit)) >= 1000) unit++;
  return `${oneDecimal(n / 1000 ** unit)}${UNITS[unit]}`;
}
