/**
 * The candidates closest to a typed word (pure): those within an edit distance a typo makes (a third
 * of the word, at least 2), or that start with it or contain it, nearest first, at most `max`.
 * Case-insensitive. Used to answer a mistyped name with what was probably meant.
 */
export function findClosest(typed: string, candidates: readonly string[], max = 3): string[] {
  const t = typed.toLowerCase();
  const limit = Math.max(2, Math.floor(t.length / 3));
  const scored = candidates.map((c) => {
    const l = c.toLowerCase();
    const d = l.startsWith(t) || (t.length >= 3 && l.includes(t)) ? 0.5 : editDistance(t, l);
    return { c, d };
  });
  return scored
    .filter((s) => s.d <= limit)
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c))
    .slice(0, max)
    .map((s) => s.c);
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit (a common typo). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 10) return Infinity;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
