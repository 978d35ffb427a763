/**
 * A count as people read it on a card: 999, 1K, 1.2K, 12.3K, 1M. What
 * `new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 })` gives, without
 * building one: the browser's first compact formatter loads its locale data on the page's main
 * thread (24–58 ms on this machine, four times that on a phone), on every public page with an app
 * card (issue 18, Lighthouse mobile's Total Blocking Time).
 */
const UNITS = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'K'],
] as const;

/** Rounded to one decimal, halves away from zero, as Intl rounds; "1.0" is "1". */
function oneDecimal(value: number): string {
  const tenths = Math.round(Math.abs(value) * 10 + 1e-9) * Math.sign(value);
  return String(tenths / 10);
}

export function compactCount(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const size = Math.abs(n);
  for (let i = 0; i < UNITS.length; i++) {
    const [unit, suffix] = UNITS[i]!;
    if (size < unit) continue;
    const scaled = oneDecimal(n / unit);
    // 999,950 rounds to 1000K: that is 1M, as Intl writes it.
    if (Math.abs(Number(scaled)) >= 1000 && i > 0) {
      const [bigger, biggerSuffix] = UNITS[i - 1]!;
      return `${oneDecimal(n / bigger)}${biggerSuffix}`;
    }
    return `${scaled}${suffix}`;
  }
  const small = oneDecimal(n);
  // Below a thousand the same rounding applies; 999.96 becomes 1K.
  return Math.abs(Number(small)) >= 1000 ? `${oneDecimal(n / 1e3)}K` : small;
}
