// The words the editor shows for a run: diagnostic messages, the Test Explorer description, the status bar
// text and tooltip. Kept free of 'vscode' so the wording is unit-tested with plain node:test; it lives with the
// editor's views (issue #28: the faces own rendering) — which results count as violations, and the failure
// excerpt, are the check engine's (core/check: violations.ts, failureExcerpt.ts).
import {
  failureExcerpt,
  isBroken,
  isUnverifiedPass,
  type ChangesView,
  type SpecResult,
} from '../../core/check';
import { groupOf, type RunCounts } from '../../shared/checkCounts';
import { plainText } from '../plainText';

/** The Test Explorer's description of a spec: its id, plus a marker when its pass is unverified. */
export function testItemDescription(
  result: SpecResult | undefined,
  title: string,
  report?: ChangesView,
): string {
  // The Test Explorer has no "broken" state (a broken spec shows as failed): its description says it first.
  if (result && isBroken(result, report)) return `broken · ${title}`;
  return result && isUnverifiedPass(result) ? `${title} · unverified` : title;
}

/** "abc1234" for a commit, the ref when one was asked for, else the run id; undefined without a baseline. */
export function baselineLabel(report: ChangesView | undefined): string | undefined {
  const baseline = report?.baseline;
  if (!baseline) return undefined;
  if (baseline.ref) return baseline.ref;
  if (baseline.commit) return baseline.commit.slice(0, 7);
  return baseline.runId ?? undefined;
}

/** "fail", "error (timed out after 60 s)", "broken by changes since abc1234", "blocked by cache-hit". */
export function verdictText(result: SpecResult, report: ChangesView | undefined): string {
  if (isBroken(result, report)) {
    const since = baselineLabel(report);
    return since ? `broken by changes since ${since}` : 'broken';
  }
  // A plain failure's reason ("exit code 1: 1 of 1 test failed") says less than the excerpt that follows.
  const reason = result.verdict === 'fail' ? undefined : result.reason?.trim();
  return reason ? `${result.verdict} (${reason})` : result.verdict;
}

/** "[spec-id] title — verdict: first lines of the failure" */
export function violationMessage(
  result: SpecResult,
  title: string,
  report: ChangesView | undefined,
  failureLines: number,
): string {
  const head = `[${result.id}] ${title} — ${verdictText(result, report)}`;
  const excerpt = result.verdict === 'pass' ? '' : failureExcerpt(result.output, failureLines);
  // The reason may quote the output already ("command not found (exit 127): sh: 1: shoplint: not found").
  return excerpt && !head.includes(excerpt) ? `${head}: ${excerpt}` : head;
}

export type { RunCounts } from '../../shared/checkCounts';
export { statusText } from '../../shared/checkCounts';

/** The status group of one result: each spec in exactly one, broken before its own verdict (checkCounts' groups). */
export type StatusGroup = 'broken' | 'failing' | 'flaky' | 'not run' | 'passed';

export function statusGroupOf(result: SpecResult, report: ChangesView | undefined): StatusGroup {
  const group = groupOf(isBroken(result, report) ? 'broken' : result.verdict);
  // A result always has a verdict: never unchecked nor checking.
  return group === 'unchecked' || group === 'checking' ? 'failing' : group;
}

/** A run's own results counted (`specCount`: how many specs the file holds, when some have no result yet). */
export function countResults(
  results: readonly SpecResult[],
  report: ChangesView | undefined,
  specCount = results.length,
): RunCounts {
  const total = Math.max(specCount, results.length);
  const counts: RunCounts = {
    total,
    passed: 0,
    broken: 0,
    failing: 0,
    flaky: 0,
    notRun: 0,
    unchecked: total - results.length,
  };
  for (const r of results) {
    const group = statusGroupOf(r, report);
    if (group === 'not run') counts.notRun++;
    else counts[group]++;
  }
  return counts;
}

/** Whether anything does not hold (broken or failing): the "see Problems" case. Flaky and not run are not. */
export function hasFailures(counts: RunCounts): boolean {
  return counts.broken + counts.failing > 0;
}

// The tooltip's lines, most urgent first. A broken spec is listed under "broken" only, never under its verdict.
const SUMMARY_ORDER = [
  'broken',
  'tampered',
  'fail',
  'error',
  'flaky',
  'unverified',
  'blocked',
  'not run',
  'pass',
] as const;
type SummaryLine = (typeof SUMMARY_ORDER)[number];

function summaryLineOf(result: SpecResult, report: ChangesView | undefined): SummaryLine {
  if (isBroken(result, report)) return 'broken';
  return result.verdict === 'skipped' ? 'not run' : result.verdict;
}

/** One line per group for the status bar tooltip and the log: "broken: a", "fail: b, c", …, "pass: d". */
export function verdictSummary(results: readonly SpecResult[], report?: ChangesView): string {
  const label = (r: SpecResult): string => (isUnverifiedPass(r) ? `${r.id} (unverified)` : r.id);
  return SUMMARY_ORDER.map(
    (line) => [line, results.filter((r) => summaryLineOf(r, report) === line)] as const,
  )
    .filter(([, rs]) => rs.length > 0)
    .map(([line, rs]) => `${line}: ${rs.map(label).join(', ')}`)
    .join('\n');
}

/**
 * The status bar's line after "Explain broken spec": the first explanation, as plain text (the status bar shows
 * Markdown's backticks raw: "the edit to LruCache.get …", not "the edit to `LruCache.get` …").
 */
export function blameStatusText(explanation: readonly string[], specId: string): string {
  return `Weave: ${plainText(explanation[0] ?? `no single edit explains ${specId}`)}`;
}
