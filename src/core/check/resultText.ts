// The words the extension shows for a run: diagnostic messages, the status bar text, failure excerpts.
// Kept free of 'vscode' so the wording is unit-tested with plain node:test.
import type { BaselineReport, Change, SpecResult } from './types';

export { ageText } from '../../shared/runAge';

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

/** The Test Explorer's description of a spec: its id, plus a marker when its pass is unverified. */
export function testItemDescription(result: SpecResult | undefined, id: string): string {
  return result && isUnverifiedPass(result) ? `${id} · unverified` : id;
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

// Lines that name what went wrong in the usual runners' output (node:test, mocha, jest, vitest, pytest, go).
const FAILURE_LINE =
  /(not ok\b|AssertionError|Error:|✖|✗|\bFAIL\b|\bFAILED\b|expected|assert|Traceback|panic:|--- FAIL)/i;
// Noise that carries no information about the failure: blank lines, stack frames, TAP comments and the
// bookkeeping keys of node:test's YAML diagnostics.
const NOISE_LINE =
  /^\s*(#|ℹ|at\s|test at\s|\d+\s*\||\.\.\.\s*$|(duration_ms|location|failureType|type|code|stack|name|operator):)|^\s*$|^\s*[-=]{3,}\s*$/;

/**
 * The first `maxLines` informative lines of a failing test's output: from the first line that looks like a
 * failure, or else the tail (where runners print their summary), trimmed and without stack frames.
 */
export function failureExcerpt(output: string, maxLines: number): string {
  const lines = output
    // Colour escapes (ESC [ … m) from runners that colour even when not on a terminal.
    .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
    .split(/\r?\n/)
    .map((l) => l.trimEnd());
  // node:test's spec reporter (the default from Node 23 on) lists each failure with its error only in the closing
  // "failing tests" section; the progress lines above it carry just the test's name.
  const failingSection = lines.findIndex((l) => /^✖ failing tests:$/.test(l.trim()));
  if (failingSection >= 0) {
    lines.splice(0, failingSection + 1);
    // Each entry there opens with the test's name and time (`✖ name (3.1ms)`): the error below it is the news.
    for (let i = lines.length - 1; i >= 0; i--)
      if (/^\s*✖ .*\([\d.]+m?s\)$/.test(lines[i] ?? '')) lines.splice(i, 1);
  }
  const firstFailure = lines.findIndex((l) => FAILURE_LINE.test(l) && !/^\s*#\s/.test(l));
  const informative = (from: string[]): string[] =>
    joinYamlBlocks(from.filter((l) => !NOISE_LINE.test(l)).map((l) => l.trim()));
  const picked =
    firstFailure >= 0
      ? informative(lines.slice(firstFailure)).slice(0, maxLines)
      : informative(lines).slice(-maxLines);
  return picked.join('\n');
}

/** "[spec-id] title — verdict: first lines of the failure" */
/** node:test prints `error: |-` and the message on the next line: show them as one line. */
function joinYamlBlocks(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const next = lines[i + 1];
    if (/^[\w-]+:\s*[|>][+-]?$/.test(line) && next !== undefined) {
      out.push(`${line.replace(/\s*[|>][+-]?$/, '')} ${next}`);
      i++;
    } else {
      out.push(line);
    }
  }
  return out;
}

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

export interface RunCounts {
  total: number;
  passed: number;
  /** Passed in the baseline and fail now. */
  broken: number;
  /** Every other spec that does not hold: fail, error, tampered, blocked (never counted again as broken). */
  failing: number;
  /** Passed and failed on the same tree (repeats, or a new failure that passed when run again). */
  flaky: number;
  /** Skipped: the check was cancelled before the spec's test ran. */
  notRun: number;
}

/** The status group of one result: each spec in exactly one, broken before its own verdict. */
export type StatusGroup = 'broken' | 'failing' | 'flaky' | 'not run' | 'passed';

export function statusGroupOf(result: SpecResult, report: ChangesView | undefined): StatusGroup {
  if (isBroken(result, report)) return 'broken';
  if (result.verdict === 'pass') return 'passed';
  if (result.verdict === 'flaky') return 'flaky';
  if (result.verdict === 'skipped') return 'not run';
  return 'failing';
}

export function countResults(results: readonly SpecResult[], report: ChangesView | undefined): RunCounts {
  const counts: RunCounts = { total: results.length, passed: 0, broken: 0, failing: 0, flaky: 0, notRun: 0 };
  for (const r of results) {
    const group = statusGroupOf(r, report);
    if (group === 'not run') counts.notRun++;
    else counts[group]++;
  }
  return counts;
}

/** "Weave 5/11 · 1 broken · 4 failing · 1 flaky · 1 not run": passes of all, then each group that is not empty. */
export function statusText(counts: RunCounts): string {
  const parts = [`Weave ${counts.passed}/${counts.total}`];
  if (counts.broken > 0) parts.push(`${counts.broken} broken`);
  if (counts.failing > 0) parts.push(`${counts.failing} failing`);
  if (counts.flaky > 0) parts.push(`${counts.flaky} flaky`);
  if (counts.notRun > 0) parts.push(`${counts.notRun} not run`);
  return parts.join(' · ');
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
