// What each agent-facing tool does, over the core: plain Node, shared by the MCP server and the VS Code Language
// Model Tools. Every tool returns structured data plus a text a model reads; a user-facing failure (an invalid
// spec file, an unknown spec, an untrusted workspace) is thrown as ToolRefusal with a message that says what to do.
import path from 'node:path';
import { checkWorkspace } from '../core/check/checkWorkspace';
import { listRuns } from '../core/check/runStore';
import type { BaselineReport, Change, RunRecord, SpecResult, Verdict } from '../core/check/types';
import { formatSeconds } from '../core/check/verdict';
import { affectedSpecIds, selectAffected } from '../core/selection/selectAffected';
import { BlameError, blameSpec } from '../core/blame/blame';
import { staticCoupling, type PotentialInteraction } from '../core/coupling/coupling';
import { indexWorkspace, loadAnchoredWorkspace } from '../core/anchors/anchoredWorkspace';
import { InputError } from '../core/errors';
import { loadSpecFile } from '../core/spec/load';
import { formatProblem, SpecLoadError } from '../core/spec/problems';
import type { SpecFile } from '../shared/specSchema';
import { failureExcerpt } from '../core/check/resultText';
import type { AffectedInput, BlameInput, CheckInput } from './toolSchemas';

/** A tool cannot answer as asked; the message is for the model (and the person) to act on. */
export class ToolRefusal extends Error {
  override name = 'ToolRefusal';
}

export interface ToolOutput<T> {
  structured: T;
  text: string;
}

export interface RunPolicy {
  /**
   * Whether Weave may run anything from the workspace (workspace trust): spec tests, and git, whose repository
   * config can name commands (core.fsmonitor, diff drivers). When not, only files are read.
   */
  allowed: boolean;
  /** Why not, when not allowed. */
  reason: string;
}

export const NO_RUN_REASON =
  'Weave refuses to run spec tests (or git) here: this workspace is not trusted for running (weave mcp ' +
  '--no-run). A spec test is a shell command from the workspace. weave_list_specs still works; ask the user to ' +
  'trust the folder to check constraints.';

const FAILING: ReadonlySet<Verdict> = new Set(['fail', 'error', 'blocked', 'flaky', 'tampered']);
/** Lines of a failing test's output shown per spec. */
const FAILURE_LINES = 8;

// ---------------------------------------------------------------------------------------------------------------
// weave_list_specs

export interface ListedSpec {
  id: string;
  kind: string;
  title: string;
  statement: string;
  test: { command: string; files: Array<{ path: string; readOnly: true }> };
  anchors: string[];
  dependsOn: string[];
  interactsWith: string[];
  potentialInteractions: Array<{ with: string; why: string[]; declared: boolean }>;
  lastVerdict: { verdict: Verdict; runId: string; finishedAt: string } | null;
}

export interface ListSpecsResult {
  goal: string;
  specFile: string;
  specs: ListedSpec[];
  /** Why potential interactions are missing, when the index could not be built. */
  interactionsUnavailable?: string;
}

export async function listSpecs(
  workspaceDir: string,
  policy: RunPolicy,
): Promise<ToolOutput<ListSpecsResult>> {
  const loaded = await loadSpecFile(workspaceDir);
  if (!loaded.ok) throw specFileRefusal(new SpecLoadError(loaded.file, loaded.problems));
  const { specFile } = loaded;
  let potential: PotentialInteraction[] = [];
  let interactionsUnavailable: string | undefined;
  if (!policy.allowed) {
    // The index lists files with git: not in a workspace that is not trusted for running.
    interactionsUnavailable = 'not computed: the workspace is not trusted for running (the index uses git)';
  } else {
    try {
      const ws = await loadAnchoredWorkspace(workspaceDir);
      potential = staticCoupling({ ...ws, workspaceDir: ws.workspaceDir }).potential;
    } catch (error) {
      interactionsUnavailable = `the code index could not be built: ${messageOf(error)}`;
    }
  }
  const runs = await listRuns(workspaceDir);
  const specs = specFile.specs.map((spec): ListedSpec => {
    const lastRun = runs.find((run) => run.results.some((r) => r.id === spec.id));
    const last = lastRun?.results.find((r) => r.id === spec.id);
    return {
      id: spec.id,
      kind: spec.kind,
      title: spec.title,
      statement: spec.statement,
      test: { command: spec.test.command, files: spec.test.files.map((f) => ({ path: f, readOnly: true })) },
      anchors: spec.anchors,
      dependsOn: spec.dependsOn,
      interactsWith: spec.interactsWith,
      potentialInteractions: potential
        .filter((p) => p.a === spec.id || p.b === spec.id)
        .map((p) => ({
          with: p.a === spec.id ? p.b : p.a,
          why: [
            ...p.sharedSymbols.map((s) => `both anchor ${s}`),
            ...p.sharedAnchorFiles.map((f) => `both anchor ${f}`),
            ...p.sharedConeFiles.map((f) => `both tests load ${f}`),
          ],
          declared: p.declared,
        })),
      lastVerdict:
        last && lastRun ? { verdict: last.verdict, runId: lastRun.id, finishedAt: lastRun.finishedAt } : null,
    };
  });
  const structured: ListSpecsResult = {
    goal: specFile.goal,
    specFile: path.relative(workspaceDir, loaded.file),
    specs,
    ...(interactionsUnavailable !== undefined ? { interactionsUnavailable } : {}),
  };
  return { structured, text: listSpecsText(structured) };
}

function listSpecsText(result: ListSpecsResult): string {
  const lines = [`Goal: ${result.goal || '(none)'}`, `${result.specs.length} specs in ${result.specFile}:`];
  for (const s of result.specs) {
    lines.push('', `${s.id} [${s.kind}] ${s.title}`, `  ${s.statement}`, `  test: ${s.test.command}`);
    if (s.test.files.length > 0)
      lines.push(`  test files (read-only, never edit): ${s.test.files.map((f) => f.path).join(', ')}`);
    if (s.anchors.length > 0) lines.push(`  anchors: ${s.anchors.join(', ')}`);
    if (s.dependsOn.length > 0) lines.push(`  depends on: ${s.dependsOn.join(', ')}`);
    if (s.interactsWith.length > 0) lines.push(`  interacts with: ${s.interactsWith.join(', ')}`);
    for (const p of s.potentialInteractions)
      lines.push(`  may interact with ${p.with}${p.declared ? '' : ' (not declared)'}: ${p.why.join('; ')}`);
    lines.push(`  last verdict: ${s.lastVerdict ? s.lastVerdict.verdict : 'never run'}`);
  }
  if (result.interactionsUnavailable)
    lines.push('', `Potential interactions: ${result.interactionsUnavailable}`);
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// weave_check

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

export interface CheckToolOptions {
  signal?: AbortSignal;
  policy: RunPolicy;
}

export async function checkSpecs(
  workspaceDir: string,
  input: CheckInput,
  options: CheckToolOptions,
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
  const failing = specs.filter((s) => FAILING.has(s.verdict)).map((s) => s.id);
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
    ...(FAILING.has(r.verdict) ? { failure: failureLines(r.output) } : {}),
    ...(r.ranAsDependency ? { ranAsDependency: true } : {}),
  };
}

/** The informative first lines of a failure (the editor's own excerpt: assertion messages, not bookkeeping). */
export function failureLines(output: string, count = FAILURE_LINES): string[] {
  const excerpt = failureExcerpt(output, count);
  return excerpt === '' ? [] : excerpt.split('\n');
}

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
  return `${run.results.length} specs: ${tally || 'none run'} in ${seconds}; ${against}; ${verdict}`;
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

// ---------------------------------------------------------------------------------------------------------------
// weave_affected

export interface AffectedToolResult {
  source: string;
  all: boolean;
  allReasons: string[];
  affected: Array<{ id: string; reasons: string[] }>;
  unaffected: string[];
  changes: Array<{ path: string; status: string }>;
}

export async function affectedSpecs(
  workspaceDir: string,
  input: AffectedInput,
  policy: RunPolicy,
): Promise<ToolOutput<AffectedToolResult>> {
  // The changes come from git, which an untrusted repository's config can make run commands.
  if (!policy.allowed) throw new ToolRefusal(policy.reason);
  try {
    const r = await selectAffected({ workspaceDir, since: input.since ?? 'HEAD' });
    const structured: AffectedToolResult = {
      source: r.source,
      all: r.all,
      allReasons: r.allReasons,
      affected: r.affected,
      unaffected: r.unaffected,
      changes: r.changes.map((c) => ({ path: c.path, status: c.status })),
    };
    const lines =
      r.changes.length === 0
        ? [`No changes (${r.source}): no spec is affected.`]
        : [
            `${r.changes.length} changed file(s) (${r.source}): ${r.affected.length} of ${r.specCount} specs affected`,
            ...(r.all ? r.allReasons.map((x) => `every spec is selected: ${x}`) : []),
            ...r.affected.flatMap((s) => [`${s.id}`, ...s.reasons.map((x) => `    ${x}`)]),
            ...(r.unaffected.length > 0 ? [`not affected: ${r.unaffected.join(', ')}`] : []),
          ];
    return { structured, text: lines.join('\n') };
  } catch (error) {
    throw refusalFor(error);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// weave_blame

export interface BlameToolResult {
  spec: string;
  baselineCommit: string;
  minimal: boolean;
  runs: number;
  hunks: Array<{ file: string; location: string; symbols: string[]; madeFor: string[]; diff: string }>;
  explanation: string[];
}

export async function blameBrokenSpec(
  workspaceDir: string,
  input: BlameInput,
  options: CheckToolOptions,
): Promise<ToolOutput<BlameToolResult>> {
  if (!options.policy.allowed) throw new ToolRefusal(options.policy.reason);
  try {
    const r = await blameSpec({
      workspaceDir,
      specId: input.spec,
      loadIndex: (dir, signal) => indexWorkspace(dir, signal ? { signal } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const structured: BlameToolResult = {
      spec: r.specId,
      baselineCommit: r.baseline.commit,
      minimal: r.minimal,
      runs: r.runs,
      hunks: r.hunks.map((h) => ({
        file: h.file,
        location: h.location,
        symbols: h.symbols,
        madeFor: h.anchoredBy,
        diff: h.diff,
      })),
      explanation: r.explanation,
    };
    const head =
      `${r.specId} is broken (${r.brokenVerdict}) since ${r.baseline.commit.slice(0, 12)}: ` +
      `${r.hunks.length} of ${r.totalHunks} hunk(s) break it${r.minimal ? '' : ' (not minimal: run budget reached)'}`;
    const text = [head, ...r.hunks.flatMap((h, i) => [r.explanation[i] ?? h.location, h.diff])].join('\n');
    return { structured, text };
  } catch (error) {
    throw refusalFor(error);
  }
}

// ---------------------------------------------------------------------------------------------------------------

function specFileRefusal(error: SpecLoadError): ToolRefusal {
  const problems = error.problems.map((p) => formatProblem(p)).join('\n');
  return new ToolRefusal(`The spec file has errors; nothing was run:\n${problems}`);
}

/** Bad input and answers the core gives as errors become refusals; anything else is a bug and stays an error. */
function refusalFor(error: unknown): Error {
  if (error instanceof ToolRefusal) return error;
  if (error instanceof SpecLoadError) return specFileRefusal(error);
  if (error instanceof BlameError || error instanceof InputError) return new ToolRefusal(error.message);
  return error instanceof Error ? error : new Error(String(error));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
