// The part of one agent run that happens inside its standalone checkout (runAgent.ts creates and removes it):
// every spec run in the sandbox before, during (run_specs) and after the model/tool loop, noting the specs
// whose runs changed protected files; the prompts; the loop with its tools bound to the checkout; the diff
// policy over what the agent changed (a change to test infrastructure makes every spec `tampered`); and what
// the review needs once the checkout is gone (the diff, the specs' test files as they are now).
import path from 'node:path';
import { markInfrastructureChange, runSpecs, type SpecResult } from '../check';
import {
  classifyChanges,
  infrastructureFindings,
  type InfrastructureFinding,
} from '../sandbox/diffPolicy/classifyChanges';
import type { LoadedSet } from '../sandbox/commandLoads/loadedSet';
import type { PolicyScope } from '../sandbox/diffPolicy/scope';
import { changesBetweenTrees } from '../sandbox/diffPolicy/treeChanges';
import type { ContainedCopy } from '../workspace';
import { protectObservedLoads, type ContainmentRequest } from '../sandbox/containment';
import { LoadsRecorder, observedFromRun } from '../sandbox/observedLoads';
import type { SpecFile } from '../../shared/specSchema';
import { AttemptLog } from './agentAttempts';
import type { LoopOutcome, LoopProgress } from './agentLoop';
import { briefResults } from './agentRunResult';
import type { AgentSession } from './agentSession';
import { WorkspaceJail } from './paths';
import { buildSystemPrompt, buildTaskPrompt, targetLabel, type AgentTarget } from './prompt';
import { promptInputFor, readOptional } from './promptInput';
import { createWorktreeIndex, type WorktreeIndex } from './symbolIndex';
import type { SymbolLookup } from './toolContract';
import type { TrajectoryWriter } from './trajectory';
import { diffWorkspace, snapshotWorkspace, type WorkspaceDiff } from './workspacePatch';

/** The phases of a run that happen in the checkout (runAgent.ts has the others). */
export type CheckoutPhase = 'specs-before' | 'agent' | 'specs-after';

/** The run options the work in the checkout reads (AgentRunOptions extends them). */
export interface CheckoutWorkOptions {
  specFile: SpecFile;
  target: AgentTarget;
  /** Spec id → specs sharing code with it; computed from the worktree's index when absent. */
  potentialInteractions?: ReadonlyMap<string, readonly string[]>;
  /** The verdicts before the change when already known (the matrix runs them once for all cells). */
  before?: SpecResult[];
  /** How many spec tests run at once in the worktree. */
  specConcurrency?: number;
  /** Index the worktree with tree-sitter (outline / find_symbol, potential interactions). Default true. */
  useIndex?: boolean;
  /** Network for spec runs and whether running unsandboxed is allowed (it never is by default). */
  containment?: ContainmentRequest;
  /** Who does the work instead of Weave's model/tool loop: an external agent command (externalAgent.ts). */
  actor?: CheckoutActor;
}

/** An agent other than Weave's loop, working in the checkout on the same prompts; it reports as the loop does. */
export type CheckoutActor = (work: {
  checkoutDir: string;
  system: string;
  task: string;
  trajectory: TrajectoryWriter;
  signal: AbortSignal;
}) => Promise<LoopOutcome>;

/** What the run around the checkout lends it: the session, its trajectory and where progress goes. */
export interface CheckoutRun {
  session: AgentSession;
  trajectory: TrajectoryWriter;
  phase(phase: CheckoutPhase, message: string): void;
  onProgress(event: LoopProgress): void;
}

export interface CheckoutOutcome extends LoopOutcome {
  before: SpecResult[];
  after: SpecResult[];
  diff: WorkspaceDiff;
  testFiles: Map<string, string>;
  sandboxed: boolean;
  unsandboxedReason?: string;
  tamperedSpecs: string[];
  /** The attempts of every spec run of the work (the tools' refusals are read from the trajectory later). */
  attempts: AttemptLog;
  /** What the diff policy found the agent's change doing to test infrastructure (empty: nothing). */
  testInfrastructure: InfrastructureFinding[];
  /** What the specs load in the run's protected set (the deterministic review judges by it too). */
  loaded: LoadedSet;
}

export async function workInCheckout(
  checkout: ContainedCopy,
  options: CheckoutWorkOptions,
  checkoutRun: CheckoutRun,
): Promise<CheckoutOutcome> {
  const { session, trajectory, phase } = checkoutRun;
  const { userSignal } = session;
  const { dir, containment } = checkout;
  const tamperedSpecs = new Set<string>();
  const attempts = new AttemptLog();
  // The base run is a reference (the user's code, before the agent worked): what its test processes load joins
  // the protected set for the rest of the run (observedLoads.ts).
  const baseLoads = new LoadsRecorder();
  const runWith = async (
    ids: readonly string[] | undefined,
    signal: AbortSignal,
    onLoaded?: LoadsRecorder['note'],
  ): Promise<SpecResult[]> => {
    const results = await runSpecs({
      workspaceDir: dir,
      specFile: options.specFile,
      ...(ids ? { only: ids } : {}),
      signal,
      containment,
      ...(options.specConcurrency ? { concurrency: options.specConcurrency } : {}),
      ...(onLoaded ? { onLoaded } : {}),
    });
    for (const r of results) if (r.verdict === 'tampered') tamperedSpecs.add(r.id);
    attempts.add(results);
    return results;
  };
  const run: SpecRunner = (ids, signal) => runWith(ids, signal);
  let before = options.before;
  if (!before) {
    phase('specs-before', 'running every spec before the change');
    before = await runWith(undefined, userSignal, baseLoads.note);
    await protectObservedLoads(containment, observedFromRun(dir, baseLoads.seen));
  }
  trajectory.write({ type: 'specs', phase: 'before', results: briefResults(before) });
  const baseTree = await snapshotWorkspace(dir);
  const protectedFiles = options.specFile.specs.flatMap((s) => s.test.files);
  const jail = await WorkspaceJail.create(dir, protectedFiles, () => containment.guard.scope.loaded.files);
  const worktreeIndex: WorktreeIndex | undefined =
    options.useIndex === false ? undefined : createWorktreeIndex(dir);
  try {
    const loop = await doTheWork(dir, options, checkoutRun, { before, jail, run, worktreeIndex });
    const { diff, after, testInfrastructure } = await checkTheChange(dir, options, checkoutRun, {
      before,
      baseTree,
      run,
      scope: containment.guard.scope,
    });
    if (testInfrastructure.length > 0) for (const s of options.specFile.specs) tamperedSpecs.add(s.id);
    return {
      ...loop,
      before,
      after,
      diff,
      testFiles: await readTestFiles(dir, protectedFiles),
      sandboxed: containment.sandbox !== undefined,
      ...(containment.unsandboxedReason !== undefined
        ? { unsandboxedReason: containment.unsandboxedReason }
        : {}),
      tamperedSpecs: [...tamperedSpecs].sort(),
      attempts,
      testInfrastructure,
      loaded: containment.guard.scope.loaded,
    };
  } finally {
    worktreeIndex?.dispose();
  }
}

/** Runs the specs named (every spec when undefined) in the checkout's sandbox. */
type SpecRunner = (ids: string[] | undefined, signal: AbortSignal) => Promise<SpecResult[]>;

/** The prompts, then the work on them: the external actor's, or Weave's loop with its tools bound to the checkout. */
async function doTheWork(
  dir: string,
  options: CheckoutWorkOptions,
  { session, trajectory, phase, onProgress }: CheckoutRun,
  {
    before,
    jail,
    run,
    worktreeIndex,
  }: { before: SpecResult[]; jail: WorkspaceJail; run: SpecRunner; worktreeIndex: WorktreeIndex | undefined },
): Promise<LoopOutcome> {
  const { userSignal } = session;
  const promptInput = await promptInputFor(dir, options, before, worktreeIndex);
  const system = buildSystemPrompt(promptInput);
  const task = buildTaskPrompt(promptInput);

  phase('agent', `agent working on ${targetLabel(options.target)}`);
  return options.actor
    ? await options.actor({ checkoutDir: dir, system, task, trajectory, signal: userSignal })
    : await session.runLoop(trajectory, {
        system,
        task,
        onProgress,
        tools: {
          jail,
          specIds: options.specFile.specs.map((s) => s.id),
          runSpecs: run,
          symbols: (): Promise<SymbolLookup> =>
            worktreeIndex
              ? Promise.resolve(worktreeIndex)
              : Promise.reject(
                  new Error('the symbol index is off for this run; use search_text and read_file'),
                ),
          onFileChanged: () => worktreeIndex?.markChanged(),
        },
      });
}

/** What the agent changed: the diff, the diff policy's findings about test infrastructure, the verdicts after. */
async function checkTheChange(
  dir: string,
  options: CheckoutWorkOptions,
  { session, trajectory, phase }: CheckoutRun,
  {
    before,
    baseTree,
    run,
    scope,
  }: { before: SpecResult[]; baseTree: string; run: SpecRunner; scope: PolicyScope },
): Promise<{ diff: WorkspaceDiff; after: SpecResult[]; testInfrastructure: InfrastructureFinding[] }> {
  const { userSignal } = session;
  const diff = await diffWorkspace(dir, baseTree);
  const testInfrastructure = infrastructureFindings(
    classifyChanges(
      await changesBetweenTrees(dir, baseTree, diff.afterTree),
      // The guard's scope: what the specs load was read from the pristine checkout, before the agent worked.
      scope,
    ),
  );
  let after: SpecResult[] = [];
  if (!userSignal.aborted && diff.files.length === 0) {
    // Nothing changed: the code is the code the "before" verdicts were measured on.
    phase('specs-after', 'nothing changed: the verdicts are those from before');
    after = before;
    trajectory.write({
      type: 'specs',
      phase: 'after',
      results: briefResults(after),
      unchangedTree: true,
    });
  } else if (!userSignal.aborted) {
    phase('specs-after', 'running every spec after the change');
    after = markInfrastructureChange(await run(undefined, userSignal), testInfrastructure);
    trajectory.write({ type: 'specs', phase: 'after', results: briefResults(after) });
  }
  return { diff, after, testInfrastructure };
}

/** The specs' test files as the change left them, for the review once the checkout is gone. */
async function readTestFiles(dir: string, protectedFiles: string[]): Promise<Map<string, string>> {
  const testFiles = new Map<string, string>();
  for (const f of new Set(protectedFiles)) {
    const text = await readOptional(path.join(dir, f));
    if (text !== undefined) testFiles.set(f.replace(/^(\.\/)+/, ''), text);
  }
  return testFiles;
}
