// What the status bar and the side panel's summary say, read as the same counts, so a UI step can compare them
// number by number: "Weave 6/8 · 1 broken · 1 failing · 18 min ago · checking 2/8" (status bar) and
// "8 specs · checking 2/8 · 2 pass · 1 running · 5 queued · last run 18 min ago (restored)" (panel).
// The panel names each status; the status bar groups them (passed: pass and fixed; failing: fail, error, blocked,
// tampered, unverified), and neither counts a spec being checked with a verdict.

export interface ShownCounts {
  total: number;
  passed: number;
  broken: number;
  failing: number;
  flaky: number;
  notRun: number;
  unchecked: number;
  /** "2/8" while a check runs, "" otherwise. */
  checking: string;
  /** Whether a restored run is named (its age in the status bar, "last run … (restored)" in the panel). */
  aged: boolean;
}

function count(text: string, word: string): number {
  return Number(new RegExp(`(?:^|· )(\\d+) ${word}(?: ·|$)`).exec(text)?.[1] ?? 0);
}

/** The status bar item's text (icons are drawn as glyphs; "no-stale-read broken now" has no count before it). */
export function statusBarCounts(text: string): ShownCounts {
  const line = text.replace(/^[^W]*(?=Weave)/, '');
  const head = /Weave (\d+)\/(\d+)/.exec(line);
  return {
    total: Number(head?.[2] ?? NaN),
    passed: Number(head?.[1] ?? NaN),
    broken: count(line, 'broken'),
    failing: count(line, 'failing'),
    flaky: count(line, 'flaky'),
    notRun: count(line, 'not run'),
    unchecked: count(line, 'unchecked'),
    checking: /checking (\d+\/\d+)/.exec(line)?.[1] ?? '',
    aged: /· (just now|\d+ (min|h|days) ago)(?: ·|$)/.test(line),
  };
}

/** The side panel's summary line. */
export function panelCounts(summary: string): ShownCounts {
  return {
    total: Number(/^(\d+) specs?/.exec(summary)?.[1] ?? NaN),
    passed: count(summary, 'pass') + count(summary, 'fixed'),
    broken: count(summary, 'broken'),
    failing: ['fail', 'error', 'blocked', 'tampered', 'unverified'].reduce(
      (n, w) => n + count(summary, w),
      0,
    ),
    flaky: count(summary, 'flaky'),
    notRun: count(summary, 'not run'),
    unchecked: count(summary, 'unchecked'),
    checking: /checking (\d+\/\d+)/.exec(summary)?.[1] ?? '',
    aged: /\(restored\)/.test(summary),
  };
}

export function sameCounts(a: ShownCounts, b: ShownCounts): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
