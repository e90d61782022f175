// `weave check`'s report on stdout: the verdict table (coloured on a terminal unless NO_COLOR), the last lines of
// each failing spec's output, the summary line, and the --json document.
import { formatSeconds, type Change, type Verdict } from '../../core/check';
import { type CheckResult } from '../../core/fullCheck';
import type { CoverageSummary } from '../../core/coverage/session';
import type { SelectedAffected } from '../../core/selection/selectAffected';
import type { SpecProblem } from '../../core/spec';
import { displayPath } from './paths';

/** The --json document: {run, report, baselineRun, anchorProblems, selection?}. */
export function checkJson(
  result: CheckResult,
  anchorProblems: SpecProblem[],
  selection: SelectedAffected | undefined,
): string {
  const { run, report, baselineRun } = result;
  const selectionJson = selection && {
    source: selection.source,
    all: selection.all,
    allReasons: selection.allReasons,
    selected: selection.affected,
    notSelected: selection.notSelected,
  };
  const coverage = result.coverage ? { coverage: result.coverage } : {};
  return `${JSON.stringify({ run, report, baselineRun, anchorProblems, ...coverage, ...(selectionJson ? { selection: selectionJson } : {}) }, null, 2)}\n`;
}

interface Colours {
  verdict(v: Verdict, text: string): string;
  change(c: Change | undefined, text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

function colours(enabled: boolean): Colours {
  const on = enabled && process.env.NO_COLOR === undefined;
  const paint = (code: number, text: string): string => (on ? `\u001b[${code}m${text}\u001b[0m` : text);
  const verdictCode: Record<Verdict, number> = {
    pass: 32,
    fail: 31,
    error: 31,
    blocked: 33,
    skipped: 90,
    flaky: 35,
    tampered: 41,
    unverified: 33,
  };
  return {
    verdict: (v, text) => paint(verdictCode[v], text),
    change: (c, text) =>
      c === 'broken' ? paint(31, text) : c === 'fixed' ? paint(32, text) : paint(90, text),
    dim: (text) => paint(90, text),
    bold: (text) => paint(1, text),
  };
}

/** How many lines of a failing spec's output the table is followed by. */
export const OUTPUT_TAIL_LINES = 15;

/** The table, the failing specs' output and the summary; coloured when `colour` (an interactive stdout). */
export function renderCheckReport(result: CheckResult, colour: boolean): string {
  const c = colours(colour);
  const { run, report } = result;
  const rows = run.results.map((r) => ({
    r,
    cells: [
      r.id + (r.ranAsDependency ? ' (dep)' : ''),
      r.kind,
      r.verdict,
      report.changes[r.id] ?? '',
      formatSeconds(r.durationMs),
      oneLine(r.reason ?? ''),
    ],
  }));
  const header = ['SPEC', 'KIND', 'VERDICT', 'VS BASELINE', 'TIME', 'REASON'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row.cells[i] ?? '').length)));
  const pad = (text: string, i: number): string => text.padEnd(widths[i] ?? 0);
  const lines = [c.bold(header.map(pad).join('  ').trimEnd())];
  for (const { r, cells } of rows) {
    const [id = '', kind = '', verdict = '', change = '', time = '', reason = ''] = cells;
    lines.push(
      [
        pad(id, 0),
        pad(kind, 1),
        c.verdict(r.verdict, pad(verdict, 2)),
        c.change(report.changes[r.id], pad(change, 3)),
        pad(time, 4).padStart(widths[4] ?? 0),
        reason,
      ]
        .join('  ')
        .trimEnd(),
    );
  }
  const details = run.results
    .filter(
      (r) =>
        (r.verdict === 'fail' ||
          r.verdict === 'error' ||
          r.verdict === 'flaky' ||
          r.verdict === 'tampered' ||
          r.verdict === 'unverified') &&
        r.output.trim() !== '',
    )
    .map(
      (r) =>
        `\n${c.bold(`── ${r.id} (${r.verdict}) — last lines of output`)}\n${tail(r.output, OUTPUT_TAIL_LINES)}`,
    );
  return `${lines.join('\n')}\n${details.join('\n')}${details.length > 0 ? '\n' : ''}\n${summaryLine(result)}\n`;
}

function summaryLine(result: CheckResult): string {
  const { run, report } = result;
  const counts = new Map<Verdict, number>();
  for (const r of run.results) counts.set(r.verdict, (counts.get(r.verdict) ?? 0) + 1);
  const order: Verdict[] = ['pass', 'unverified', 'fail', 'error', 'tampered', 'blocked', 'flaky', 'skipped'];
  const unverified = run.results.filter((r) => r.verdict === 'pass' && r.evidence === 'exit-code').length;
  const tally = order.filter((v) => counts.has(v)).map((v) => `${counts.get(v)} ${v}`);
  const seconds = formatSeconds(Date.parse(run.finishedAt) - Date.parse(run.startedAt));
  const unverifiedNote = unverified > 0 ? ` (${unverified} pass unverified: no test result seen)` : '';
  const head = `${run.results.length} spec${run.results.length === 1 ? '' : 's'}: ${tally.join(', ') || 'none run'} in ${seconds}${unverifiedNote}`;
  const changes = Object.values(report.changes);
  const broken = changes.filter((c) => c === 'broken').length;
  const fixed = changes.filter((c) => c === 'fixed').length;
  const base = report.baseline;
  const against =
    base === null
      ? 'no baseline yet (the first run on a clean tree becomes it)'
      : base.ref !== undefined
        ? `vs ${base.ref} (${(base.commit ?? '').slice(0, 10)}): ${broken} broken, ${fixed} fixed`
        : `vs clean run ${base.runId}${base.commit ? ` (${base.commit.slice(0, 10)})` : ''}: ${broken} broken, ${fixed} fixed`;
  const saved = result.savedTo
    ? `\nrun recorded: ${displayPath(result.savedTo)}${run.clean ? ' (clean tree)' : ''}`
    : '';
  const coverage = result.coverage
    ? `\ncoverage recorded: ${result.coverage.specs} spec${result.coverage.specs === 1 ? '' : 's'}, ${result.coverage.files} file${result.coverage.files === 1 ? '' : 's'} (${displayPath(result.coverage.savedTo)})` +
      (result.coverage.withoutData.length > 0
        ? `; no coverage from ${result.coverage.withoutData.join(', ')} (no instrumented Node or Python process)`
        : '') +
      keptCoverage(result.coverage)
    : '';
  return `${head}; ${against}${saved}${coverage}`;
}

/** The specs that ran uninstrumented and kept their coverage, and why the others recorded again. */
function keptCoverage(coverage: CoverageSummary): string {
  const kept = coverage.reused.length;
  const because =
    coverage.recordedAgainBecause !== undefined
      ? `\ncoverage recorded again because ${coverage.recordedAgainBecause}`
      : '';
  if (kept === 0) return because;
  return (
    `\ncoverage kept: ${kept} spec${kept === 1 ? '' : 's'} ran uninstrumented (no change since ` +
    `${kept === 1 ? 'its' : 'their'} coverage was recorded reaches what ${kept === 1 ? 'it' : 'they'} ran)${because}`
  );
}

function oneLine(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ⏎ ');
  return flat.length > 160 ? `${flat.slice(0, 157)}…` : flat;
}

export function tail(output: string, lines: number): string {
  const all = output.trimEnd().split('\n');
  return all
    .slice(-lines)
    .map((l) => `  ${l}`)
    .join('\n');
}
