// Shared by the recognisers of test runner output (summary.ts): counting, adding up, per-block summaries.
import type { TestSummary } from '../types';

export type Recogniser = (text: string) => TestSummary | undefined;
export type Counts = Omit<TestSummary, 'runner'>;

export function count(match: RegExpMatchArray | null | undefined, group = 1): number {
  const value = match?.[group];
  return value === undefined ? 0 : Number(value);
}

/** Adds up summaries; the first one's runner names the result. */
export function addSummaries(summaries: readonly TestSummary[]): TestSummary | undefined {
  const [first] = summaries;
  if (!first) return undefined;
  const sum = (pick: (s: TestSummary) => number | undefined): number =>
    summaries.reduce((n, s) => n + (pick(s) ?? 0), 0);
  const collectionErrors = sum((s) => s.collectionErrors);
  const listing = summaries.some((s) => s.listing === true);
  return {
    runner: first.runner,
    passed: sum((s) => s.passed),
    failed: sum((s) => s.failed),
    skipped: sum((s) => s.skipped),
    ...(collectionErrors > 0 ? { collectionErrors } : {}),
    ...(listing ? { listing } : {}),
  };
}

/** One summary per block the pattern starts, counted by `read` on the text from there to the next block. */
export function perBlock(
  text: string,
  runner: TestSummary['runner'],
  start: RegExp,
  read: (block: string, head: RegExpMatchArray) => Counts,
): TestSummary | undefined {
  const heads = [...text.matchAll(start)];
  return addSummaries(
    heads.map((head, i) => ({
      runner,
      ...read(text.slice(head.index, heads[i + 1]?.index ?? text.length), head),
    })),
  );
}
