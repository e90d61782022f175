// Which results are violations: broken against the baseline, failing, or a pass that rests on the exit code
// alone. Every face asks these questions (diagnostics, Test Explorer, the status bar, the restored last run), so
// they are the check engine's; the words each face shows are the face's own (src/extension/views/resultText.ts).
import type { BaselineReport, Change, SpecResult } from './types';

/** The part of a BaselineReport the wording needs (also built from results merged across checks). */
export interface ChangesView {
  changes: Partial<Record<string, Change>>;
  baseline?: BaselineReport['baseline'];
}

/**
 * Passed in the baseline, fails now. A blocked spec is not "broken" here even though the baseline report counts
 * it as failing: its own test did not run, and the dependency that blocked it is the one to look at. Nor is a
 * flaky one: it passed on this very tree too, so no change is shown to have broken it.
 */
export function isBroken(result: SpecResult, report: ChangesView | undefined): boolean {
  return (
    report?.changes[result.id] === 'broken' &&
    result.verdict !== 'blocked' &&
    result.verdict !== 'skipped' &&
    result.verdict !== 'flaky'
  );
}

/** A spec failed, errored or was broken: what a diagnostic and a TestMessage are made for. */
export function isViolation(result: SpecResult, report: ChangesView | undefined): boolean {
  return (
    result.verdict === 'fail' ||
    result.verdict === 'error' ||
    result.verdict === 'flaky' ||
    result.verdict === 'tampered' ||
    result.verdict === 'unverified' ||
    isBroken(result, report)
  );
}

/** A pass that rests on the exit code alone: no test result was seen (the reason says so). */
export function isUnverifiedPass(result: SpecResult): boolean {
  return result.verdict === 'pass' && result.evidence === 'exit-code';
}
