// weave_check: runs the specs (all, some, or those the uncommitted changes affect) and answers with each verdict,
// its change against the baseline and the first lines of each failure. checkOutput is the answer for a finished
// run, shared with the VS Code tool, which runs the check through CheckService instead.
import {
  failureExcerpt,
  formatSeconds,
  isFailing,
  type BaselineReport,
  type Change,
  type RunRecord,
  type SpecResult,
  type Verdict,
} from '../core/check';
import { checkWorkspace } from '../core/fullCheck';
import { affectedSpecIds } from '../core/selection/selectAffected';
import type { SpecFile } from '../shared/specSchema';
import { refusalFor, ToolRefusal, type RunningToolOptions, type ToolOutput } from './toolContract';
import type { CheckInput } from './toolSchemas';

/** Lines of a failing test's output shown per spec. */
const FAILURE_LINES = 8;

export interface CheckedSpec {
  id: string;
  verdict: Verdict;
  change: Change | null;
  reason?: string;
  durationMs: number;
  /** How the verdict was established: the runner's own results, its printed summary, or the exit code alone. */
  evidence: SpecResult['evidence'];
  /** For `tampered`: the protected files the run changed. */
  tampered?: SpecResult['tampered'];
  /** The first lines of the failure, for failing specs. */
  failure?: string[];
  ranAsDependency?: boolean;
}

export interface CheckToolResult {
  summary: string;
  runId: string;
  baseline: BaselineReport['baseline'];
  specs: CheckedSpec[];
  broken: string[];
  failing: string[];
}

export async function checkSpecs(
  workspaceDir: string,
  input: CheckInput,
  options: RunningToolOptions,
): Promise<ToolOutput<CheckToolResult>> {
  if (!options.policy.allowed) throw new ToolRefusal(options.policy.reason);
  if (input.only !== undefined && input.affected === true)
    throw new ToolRefusal('give `only` or `affected`, not both');
  let only = input.only;
  try {
    if (input.affected === true) {
      only = await affectedSpecIds({ workspaceDir, since: 'HEAD' });
      if (only.length === 0) {
        const summary = 'No spec is affected by the uncommitted changes: nothing to run.';
        const structured = { summary, runId: '', baseline: null, specs: [], broken: [], failing: [] };
        return { structured, text: summary };
      }
    }
    const result = await checkWorkspace({
      workspaceDir,
      ...(only !== undefined ? { only } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return checkOutput(result.run, result.report, result.specFile);
  } catch (error) {
    throw refusalFor(error);
  }
}

/** The check tool's answer for a finished run (also used by the VS Code tool, which runs through CheckService). */
export function checkOutput(
  run: RunRecord,
  report: BaselineReport,
  specFile: SpecFile,
): ToolOutput<CheckToolResult> {
  const known = new Set(specFile.specs.map((s) => s.id));
  const specs = run.results.filter((r) => known.has(r.id)).map((r) => checkedSpec(r, report.changes[r.id]));
  const broken = specs.filter((s) => s.change === 'broken').map((s) => s.id);
  const failing = specs.filter((s) => isFailing(s.verdict)).map((s) => s.id);
  const summary = summaryLine(run, report, broken, failing);
  const structured: CheckToolResult = {
    summary,
    runId: run.id,
    baseline: report.baseline,
    specs,
    broken,
    failing,
  };
  return { structured, text: checkText(structured) };
}

function checkedSpec(r: SpecResult, change: Change | undefined): CheckedSpec {
  return {
    id: r.id,
    verdict: r.verdict,
    change: change ?? null,
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
    durationMs: Math.round(r.durationMs),
    evidence: r.evidence,
    ...(r.tampered !== undefined ? { tampered: r.tampered } : {}),
    ...(isFailing(r.verdict) ? { failure: failureLines(r.output) } : {}),
    ...(r.ranAsDependency ? { ranAsDependency: true } : {}),
  };
}

/** The informative first lines of a failure (the editor's own excerpt: assertion messages, not bookkeeping). */
export function failureLines(output: string, count = FAILURE_LINES): string[] {
  const excerpt = failureExcerpt(output, count);
  return excerpt === '' ? [] : excerpt.split('\n');
}

/**
 * The line a model reads first (Claude Code and Codex show it only structuredContent): the verdict counts, what
 * broke with its first failure line, and the next step.
 */
function summaryLine(run: RunRecord, report: BaselineReport, broken: string[], failing: string[]): string {
  const counts = new Map<Verdict, number>();
  for (const r of run.results) counts.set(r.verdict, (counts.get(r.verdict) ?? 0) + 1);
  const tally = [...counts].map(([v, n]) => `${n} ${v}`).join(', ');
  const seconds = formatSeconds(Date.parse(run.finishedAt) - Date.parse(run.startedAt));
  const against =
    report.baseline === null
      ? 'no baseline yet'
      : `${broken.length} broken vs baseline${broken.length > 0 ? ` (${broken.join(', ')})` : ''}`;
  const verdict =
    failing.length === 0 && broken.length === 0 ? 'all checked specs pass' : `failing: ${failing.join(', ')}`;
  const what = whatBroke(run, failing);
  return `${run.results.length} specs: ${tally || 'none run'} in ${seconds}; ${against}; ${verdict}.${what} Next: ${nextStep(run, broken, failing)}`;
}

/** " id: first failure line." for the first failing specs. */
function whatBroke(run: RunRecord, failing: string[]): string {
  const shown = failing.slice(0, 3).map((id) => {
    const r = run.results.find((x) => x.id === id);
    const first = r ? (failureLines(r.output, 1)[0] ?? r.reason) : undefined;
    return first ? ` ${id}: ${first.trim().slice(0, 160)}.` : '';
  });
  return shown.join('') + (failing.length > 3 ? ` (${failing.length - 3} more failing)` : '');
}

function nextStep(run: RunRecord, broken: string[], failing: string[]): string {
  const tampered = run.results.filter((r) => r.verdict === 'tampered').map((r) => r.id);
  if (tampered.length > 0)
    return `put back the protected test files the run changed (${tampered.join(', ')}); a spec's tests are read-only.`;
  if (broken.length > 0)
    return `change the code (not the tests) until ${broken.join(', ')} pass again, then call weave_check.`;
  if (failing.length > 0)
    return `make ${failing.join(', ')} pass by changing the code under test (their test files are read-only), then call weave_check.`;
  return 'nothing to fix; call weave_check again after the next change.';
}

function checkText(result: CheckToolResult): string {
  const lines = [result.summary];
  for (const s of result.specs) {
    const change = s.change && s.change !== 'new' ? ` (${s.change})` : '';
    lines.push(`${s.id}: ${s.verdict}${change}${s.reason ? ` — ${s.reason}` : ''}`);
    for (const l of s.failure ?? []) lines.push(`    ${l}`);
  }
  return lines.join('\n');
}
