/** Longer names are compared only by their start: enough to rank, and the work stays small. */
const MAX_COMPARED = 64;

/** How many single-character edits turn `a` into `b`, ignoring case (Levenshtein). */
export function editDistance(a: string, b: string): number {
  const left = a.toLowerCase().slice(0, MAX_COMPARED);
  const right = b.toLowerCase().slice(0, MAX_COMPARED);
  let previous = Array.from({ length: right.length + 1 }, (_, i) => i);
  for (let i = 1; i <= left.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= right.length; j += 1) {
      const substitution = (previous[j - 1] as number) + (left[i - 1] === right[j - 1] ? 0 : 1);
      current.push(
        Math.min(substitution, (previous[j] as number) + 1, (current[j - 1] as number) + 1),
      );
    }
    previous = current;
  }
  return previous[right.length] as number;
}

/** The name a typo most likely meant: the closest, if close enough to be a slip, not another word. */
export function likelyMeant(wanted: string, names: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const name of names) {
    const distance = editDistance(wanted.trim(), name.trim());
    if (distance < bestDistance) [best, bestDistance] = [name, distance];
  }
  const allowed = Math.max(1, Math.floor(wanted.trim().length / 3));
  return bestDistance <= allowed ? best : null;
}
