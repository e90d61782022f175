// "Did you mean …?" for misspelled field names, spec ids, anchor symbols and anchor files.

/** The candidate closest to `word` by edit distance, if it is close enough to be a likely typo. */
export function closestMatch(word: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.min(3, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours ("titel"). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const up = rows[i - 1] ?? [];
      let best = Math.min(
        (up[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (up[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      }
      row.push(best);
    }
    rows.push(row);
  }
  return rows[a.length]?.[b.length] ?? 0;
}

/**
 * Dotted names (`LRUCache.popitem`) or paths (`src/cache.js`) nearest to `word`, best first, at most `limit`.
 * A candidate scores its distance over the whole name, or over its last segment plus one when the rest differs,
 * whichever is less, so `LRUCache.popitm` finds `LRUCache.popitem` and `popitm` finds `Other.popitem`. Only
 * candidates within a typo's reach (about a third of the last segment, at least 2) are returned.
 */
export function rankedMatches(
  word: string,
  candidates: Iterable<string>,
  separator: '.' | '/',
  limit = 3,
): string[] {
  const lastOf = (s: string): string => s.slice(s.lastIndexOf(separator) + 1).toLowerCase();
  const wordLower = word.toLowerCase();
  const wordLast = lastOf(word);
  const wordHead = wordLower.slice(0, Math.max(0, wordLower.length - wordLast.length));
  const reach = Math.max(2, Math.floor(wordLast.length / 3));
  const scored: Array<[string, number]> = [];
  for (const candidate of new Set(candidates)) {
    const lower = candidate.toLowerCase();
    const last = lastOf(candidate);
    const head = lower.slice(0, Math.max(0, lower.length - last.length));
    const score = Math.min(
      editDistance(wordLower, lower),
      editDistance(wordLast, last) + (head === wordHead ? 0 : 1),
    );
    if (score <= reach) scored.push([candidate, score]);
  }
  scored.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
  return scored.slice(0, limit).map(([c]) => c);
}
