// The words the extension shows for a run: diagnostic messages, the status bar text, failure excerpts.
// Kept free of 'vscode' so the wording is unit-tested with plain node:test.
import type { BaselineReport, Change, SpecResult, Verdict } from './types';

/** The part of a BaselineReport the wording needs (also built from results merged across checks). */
export interface ChangesView {
  changes: Partial<Record<string, Change>>;
  baseline?: BaselineReport['baseline'];
}

/**
 * Passed in the baseline, fails now. A blocked spec is not "broken" here even though the baseline report counts
 * it as failing: its own test did not run, and the dependency that blocked it is the one to look at.
 */
export function isBroken(result: SpecResult, report: ChangesView | undefined): boolean {
  return (
    report?.changes[result.id] === 'broken' && result.verdict !== 'blocked' && result.verdict !== 'skipped'
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
  /^\s*(#|ℹ|at\s|\d+\s*\||\.\.\.\s*$|(duration_ms|location|failureType|type|code|stack|name|operator):)|^\s*$|^\s*[-=]{3,}\s*$/;

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
  return excerpt ? `${head}: ${excerpt}` : head;
}

export interface RunCounts {
  total: number;
  passed: number;
  failing: number;
  broken: number;
}

export function countResults(results: readonly SpecResult[], report: ChangesView | undefined): RunCounts {
  let passed = 0;
  let failing = 0;
  let broken = 0;
  for (const r of results) {
    if (r.verdict === 'pass') passed++;
    if (isViolation(r, report)) failing++;
    if (isBroken(r, report)) broken++;
  }
  return { total: results.length, passed, failing, broken };
}

/** "Weave 7/9 · 1 broken" (or "· 2 failing" when nothing broke but something fails). */
export function statusText(counts: RunCounts): string {
  const base = `Weave ${counts.passed}/${counts.total}`;
  if (counts.broken > 0) return `${base} · ${counts.broken} broken`;
  if (counts.failing > 0) return `${base} · ${counts.failing} failing`;
  return base;
}

const VERDICT_ORDER: Verdict[] = [
  'tampered',
  'fail',
  'error',
  'flaky',
  'unverified',
  'blocked',
  'skipped',
  'pass',
];
/** One line per verdict for the status bar tooltip and the log, most urgent first. */
export function verdictSummary(results: readonly SpecResult[]): string {
  const label = (r: SpecResult): string => (isUnverifiedPass(r) ? `${r.id} (unverified)` : r.id);
  return VERDICT_ORDER.map((v) => [v, results.filter((r) => r.verdict === v).map(label)] as const)
    .filter(([, ids]) => ids.length > 0)
    .map(([v, ids]) => `${v}: ${ids.join(', ')}`)
    .join('\n');
}
