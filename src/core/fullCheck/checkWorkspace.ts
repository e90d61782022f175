// One full check of a workspace: load the specs, run them, record the run, pick a baseline and compare.
// Baseline: by default the newest run recorded on a clean tree (looked up before the specs run, so each result's
// change is known as it comes in and a new failure can be confirmed by running it again); with `baselineRef`, the specs are run in a
// throw-away git worktree of that ref. There, as in SWE-bench ("base commit + test patch"), the CURRENT
// specs.json and the current version of each spec's test.files are laid over REF's code, so that the comparison
// asks one question: do today's spec tests pass on REF's code, and on the working tree?
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { gitRoot, headCommit, isClean, resolveCommit } from '../git/git';
import { planCoverage } from './coverageReuse';
import { startCoverage, type CoverageSummary } from '../coverage/session';
import { withCopiedWorkspace } from '../workspace';
import { LoadsRecorder, recordObservedLoads } from '../sandbox/observedLoads';
import { pidNamespaceAvailable } from '../sandbox/sandboxPolicy';
import { loadSpecFile, SpecLoadError, type SpecGraph, type SpecLocations, type SpecProblem } from '../spec';
import type { SpecFile } from '../../shared/specSchema';
import type { TamperedFile } from '../sandbox/protectedFiles';
import {
  changeOfResult,
  compareToBaseline,
  latestCleanRun,
  markSessionTampering,
  newRunId,
  runSpecs,
  saveRun,
  type BaselineReport,
  type Change,
  type RunProgress,
  type RunRecord,
  type RunSpecsOptions,
  type SpecResult,
} from '../check';

export type CheckPhase = 'current' | 'baseline';
/**
 * A runner event and the phase it belongs to. A spec finished in the current phase carries its change against
 * the recorded baseline (absent with `baselineRef`: that baseline runs after the current phase).
 */
export type CheckProgress = RunProgress & { phase: CheckPhase; change?: Change };

export interface CheckWorkspaceOptions {
  workspaceDir: string;
  only?: readonly string[];
  /** Run the baseline on this git ref instead of using the latest clean recorded run. */
  baselineRef?: string;
  concurrency?: number;
  repeat?: number;
  /**
   * Runs again of a new failure before it is believed (a pass makes it `flaky`): with the recorded baseline, a
   * spec that passed there; with `baselineRef`, every failure (the ref's verdicts are known only afterwards).
   */
  retries?: number;
  signal?: AbortSignal;
  onProgress?: (event: CheckProgress) => void;
  /** Save the run under .weave/runs/ (default true). */
  record?: boolean;
  outputCapBytes?: number;
  /** Replaces the spec file's defaults.timeoutSeconds (a spec's own test.timeoutSeconds still wins). */
  defaultTimeoutSeconds?: number;
  /**
   * Run each spec test in a private PID namespace (bwrap) so daemons it forks die with it. Default: wherever
   * bubblewrap works. The filesystem and network stay unrestricted: these are the user's own tests.
   */
  pidNamespace?: boolean;
  /** Record per-spec coverage of this run in .weave/cache/coverage/ (default: when the run is recorded). */
  coverage?: boolean;
  /**
   * Record every spec's coverage again, even where no change since it was recorded reaches what the spec ran
   * (default false: those specs run uninstrumented and keep it, see coverage/reuse.ts).
   */
  freshCoverage?: boolean;
  /** Keep a spec's coverage only when it was recorded on today's files exactly (shown in an editor). */
  coverageOfCurrentFiles?: boolean;
  /**
   * Spec id → protected files changed since an agent session started (sandbox/sessionRecord.ts): those specs are
   * `tampered` whatever their tests say.
   */
  sessionTampering?: ReadonlyMap<string, readonly TamperedFile[]>;
}

export interface CheckResult {
  run: RunRecord;
  report: BaselineReport;
  /** The baseline run compared against (recorded, or just run on `baselineRef`), or null when there is none. */
  baselineRun: RunRecord | null;
  specFile: SpecFile;
  graph: SpecGraph;
  /** Where each spec sits in the spec file (for annotations). */
  locations: SpecLocations;
  specFilePath: string;
  /** Problems in the spec file that do not stop a check (shown, not fatal). */
  warnings: SpecProblem[];
  /** Stored runs that were skipped because they are not readable run records (each names its file). */
  runStoreWarnings: string[];
  /** Path of the saved run, when recorded. */
  savedTo?: string;
  /** What per-spec coverage recorded, when it was on. */
  coverage?: CoverageSummary;
}

/**
 * The six steps of a check, each a function below: load the spec file, plan (tree state, coverage to record,
 * the recorded baseline), run the current tree, run the baseline ref when one was asked for, compare, save.
 */
export async function checkWorkspace(options: CheckWorkspaceOptions): Promise<CheckResult> {
  const workspaceDir = path.resolve(options.workspaceDir);
  const loaded = await loadForCheck(workspaceDir, options.defaultTimeoutSeconds);
  const plan = await planCheck(workspaceDir, loaded, options);
  const { run, coverageSummary, cancelled } = await runCurrent(workspaceDir, loaded, plan, options);
  const baselineRun =
    options.baselineRef !== undefined && !cancelled
      ? await runBaselineRef(workspaceDir, loaded, plan, options.baselineRef, options)
      : (plan.recordedBaseline ?? null);
  const report = compareToBaseline(run, baselineRun, options.baselineRef);
  // A cancelled run is not recorded: its skipped specs would make a useless baseline.
  const savedTo = options.record === false || cancelled ? undefined : await saveRun(workspaceDir, run);
  return {
    run,
    report,
    baselineRun,
    specFile: loaded.specFile,
    graph: loaded.graph,
    locations: loaded.locations,
    specFilePath: loaded.file,
    warnings: loaded.warnings,
    runStoreWarnings: plan.runStoreWarnings,
    ...(savedTo !== undefined ? { savedTo } : {}),
    ...(coverageSummary ? { coverage: coverageSummary } : {}),
  };
}

interface LoadedForCheck {
  file: string;
  specFile: SpecFile;
  graph: SpecGraph;
  locations: SpecLocations;
  warnings: SpecProblem[];
}

/** Step 1: the spec file, with the caller's default timeout laid over its defaults. */
async function loadForCheck(workspaceDir: string, override: number | undefined): Promise<LoadedForCheck> {
  const loaded = await loadSpecFile(workspaceDir);
  if (!loaded.ok) throw new SpecLoadError(loaded.file, loaded.problems);
  if (override !== undefined && !(Number.isFinite(override) && override > 0))
    throw new RangeError(`defaultTimeoutSeconds must be a number greater than 0, got ${override}`);
  const specFile: SpecFile =
    override === undefined
      ? loaded.specFile
      : { ...loaded.specFile, defaults: { ...loaded.specFile.defaults, timeoutSeconds: override } };
  const { file, graph, locations, warnings } = loaded;
  return { file, specFile, graph, locations, warnings };
}

interface CheckPlan {
  /** What the current and the baseline run share. */
  common: Omit<RunSpecsOptions, 'workspaceDir' | 'onProgress'>;
  commit: string | null;
  clean: boolean;
  coveragePlan: Awaited<ReturnType<typeof planCoverage>> | undefined;
  /** The newest clean recorded run (null: none recorded); undefined with `baselineRef`. */
  recordedBaseline: RunRecord | null | undefined;
  runStoreWarnings: string[];
}

/** Step 2: the tree's state, the coverage to record, and the recorded baseline (when no ref was asked for). */
async function planCheck(
  workspaceDir: string,
  loaded: LoadedForCheck,
  options: CheckWorkspaceOptions,
): Promise<CheckPlan> {
  const { specFile, graph } = loaded;
  const common: CheckPlan['common'] = {
    specFile,
    graph,
    ...(options.only ? { only: options.only } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.repeat !== undefined ? { repeat: options.repeat } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.outputCapBytes !== undefined ? { outputCapBytes: options.outputCapBytes } : {}),
    pidNamespace: options.pidNamespace ?? (await pidNamespaceAvailable()),
  };
  // The tree's state before the tests run (tests may write files): that is the state the run describes, and
  // the one the coverage it records is kept with (the plan snapshots it; all three only read the tree).
  const withCoverage = options.coverage ?? options.record !== false;
  const [commit, clean, coveragePlan] = await Promise.all([
    headCommit(workspaceDir),
    isClean(workspaceDir),
    withCoverage
      ? planCoverage({
          workspaceDir,
          specIds: options.only ?? specFile.specs.map((s) => s.id),
          ...(options.freshCoverage ? { fresh: true } : {}),
          ...(options.coverageOfCurrentFiles ? { sameContent: true } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        })
      : undefined,
  ]);
  const runStoreWarnings: string[] = [];
  const recordedBaseline =
    options.baselineRef === undefined
      ? await latestCleanRun(workspaceDir, selectedIds(specFile, graph, options.only), (w) =>
          runStoreWarnings.push(w),
        )
      : undefined;
  return { common, commit, clean, coveragePlan, recordedBaseline, runStoreWarnings };
}

/**
 * Step 3: the specs on the working tree, with coverage recorded beside them; each result's change against the
 * recorded baseline is known as it comes in, so a new failure can be confirmed by running it again.
 */
async function runCurrent(
  workspaceDir: string,
  loaded: LoadedForCheck,
  plan: CheckPlan,
  options: CheckWorkspaceOptions,
): Promise<{ run: RunRecord; coverageSummary: CoverageSummary | undefined; cancelled: boolean }> {
  const { recordedBaseline } = plan;
  const changeNow = (result: SpecResult): Change | undefined =>
    recordedBaseline === undefined ? undefined : changeOfResult(result, recordedBaseline);
  const startedAt = new Date();
  const runId = newRunId(startedAt);
  const coverage = plan.coveragePlan
    ? await startCoverage(workspaceDir, runId, plan.coveragePlan)
    : undefined;
  // The user's own tree is the reference: what its specs' test processes load joins the protected set of later
  // contained runs, the guard and export (sandbox/observedLoads.ts).
  const loads = new LoadsRecorder();
  const ran = await runSpecs({
    ...plan.common,
    workspaceDir,
    onLoaded: loads.note,
    onProgress: (event) => {
      const change = event.type === 'finished' ? changeNow(event.result) : undefined;
      options.onProgress?.({ ...event, phase: 'current', ...(change ? { change } : {}) });
    },
    ...(coverage ? { instrument: coverage.instrument } : {}),
    ...(options.retries !== undefined ? { retries: options.retries } : {}),
    confirmFailure: (result) => recordedBaseline === undefined || changeNow(result) === 'broken',
  });
  const results = options.sessionTampering ? markSessionTampering(ran, options.sessionTampering) : ran;
  // A run during which the tree changed (a test rewrote a tracked file, or left new ones) describes no commit.
  const stayedClean = plan.clean && (await isClean(workspaceDir));
  const run: RunRecord = {
    id: runId,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    commit: plan.commit,
    clean: stayedClean,
    specIds: results.map((r) => r.id),
    results,
  };
  const cancelled = options.signal?.aborted === true;
  if (!cancelled)
    await recordObservedLoads(
      workspaceDir,
      workspaceDir,
      loaded.specFile.specs,
      loaded.specFile.defaults,
      loads.seen,
    );
  let coverageSummary: CoverageSummary | undefined;
  if (cancelled) await coverage?.discard();
  else
    coverageSummary = await coverage?.finish(
      results,
      loaded.specFile.specs.map((s) => s.id),
      options.signal,
    );
  return { run, coverageSummary, cancelled };
}

/** Step 4 with `baselineRef`: today's specs and spec tests laid over REF's code in a throw-away worktree. */
async function runBaselineRef(
  workspaceDir: string,
  loaded: LoadedForCheck,
  plan: CheckPlan,
  ref: string,
  options: CheckWorkspaceOptions,
): Promise<RunRecord> {
  const baseCommit = await resolveCommit((await gitRoot(workspaceDir)) ?? workspaceDir, ref);
  return withCopiedWorkspace(workspaceDir, { kind: 'worktree', ref: baseCommit }, async ({ dir }) => {
    await layOverCurrentSpecs(workspaceDir, dir, loaded.file, loaded.specFile);
    const baseStarted = new Date();
    const baseResults = await runSpecs({
      ...plan.common,
      workspaceDir: dir,
      onProgress: (event: RunProgress) => options.onProgress?.({ ...event, phase: 'baseline' }),
    });
    return {
      id: newRunId(baseStarted),
      startedAt: baseStarted.toISOString(),
      finishedAt: new Date().toISOString(),
      commit: baseCommit,
      clean: true,
      specIds: baseResults.map((r) => r.id),
      results: baseResults,
    };
  });
}

/** The ids a run of `only` covers, as runSpecs selects them: `only` and what it depends on (all without it). */
function selectedIds(specFile: SpecFile, graph: SpecGraph, only: readonly string[] | undefined): string[] {
  if (only === undefined) return specFile.specs.map((s) => s.id);
  const known = only.filter((id) => graph.has(id));
  return [...new Set(known.flatMap((id) => [id, ...graph.dependenciesOf(id, { transitive: true })]))];
}

/** Copies the current specs.json and every spec's test.files (workspace-relative) into the checkout. */
async function layOverCurrentSpecs(
  workspaceDir: string,
  checkoutDir: string,
  specPath: string,
  specFile: SpecFile,
) {
  const files = new Set([
    path.relative(workspaceDir, specPath),
    ...specFile.specs.flatMap((s) => s.test.files),
  ]);
  for (const rel of files) {
    const from = path.resolve(workspaceDir, rel);
    const to = path.resolve(checkoutDir, rel);
    // A test file outside the workspace (../x) is left alone: it is not the workspace's to lay over.
    if (path.relative(checkoutDir, to).startsWith('..')) continue;
    const stat = await fs.stat(from).catch(() => undefined);
    if (!stat?.isFile()) continue;
    await fs.mkdir(path.dirname(to), { recursive: true });
    await fs.copyFile(from, to);
  }
}
