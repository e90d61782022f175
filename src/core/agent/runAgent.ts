// One agent run: a standalone scratch checkout of the workspace (uncommitted changes included, no link back to
// the user's repository), every spec run inside the sandbox (src/core/sandbox) before, during (run_specs) and
// after the model/tool loop (agentLoop.ts), then the patch and the review — and the checkout removed whatever
// happens. The user's files are not touched; the run leaves its trajectory, patch and result under
// .weave/runs/agent/<id>/. A run whose spec runs changed protected files, or whose patch touches them, can
// never be applied (applyPolicy.ts).
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SpecResult, Verdict } from '../check/types';
import { runSpecs } from '../check/runSpecs';
import { ensureRunsIgnored } from '../check/runStore';
import { WORKING_TREE } from '../git/worktree';
import { withStandaloneCheckout } from '../sandbox/checkout';
import { containmentFor, type ContainmentRequest } from '../sandbox/containment';
import { newRunId } from '../check/runStore';
import type { SpecFile } from '../../shared/specSchema';
import type { AgentBudgets, LoopOutcome, StopReason } from './agentLoop';
import { AgentSession } from './agentSession';
import type { ModelClient } from './modelClient';
import type { ModelUsage } from './modelResponse';
import { WorkspaceJail } from './paths';
import { buildSystemPrompt, buildTaskPrompt, targetLabel, type AgentTarget } from './prompt';
import { reviewDeterministic, type ReviewFinding } from './deterministicReview';
import { reviewWithModel, type ModelReview } from './modelReview';
import { createWorktreeIndex, type WorktreeIndex } from './symbolIndex';
import type { SymbolLookup } from './toolContract';
import { readTrajectory } from './trajectory';
import { diffWorkspace, snapshotWorkspace, type WorkspaceDiff } from './workspacePatch';

export type { AgentBudgets, StopReason } from './agentLoop';

export { DEFAULT_BUDGETS } from './agentSession';

export type AgentProgressEvent =
  | {
      type: 'phase';
      phase: 'worktree' | 'specs-before' | 'agent' | 'specs-after' | 'review' | 'done';
      message: string;
    }
  | { type: 'step'; step: number; maxSteps: number; tokens: number }
  | { type: 'tool'; step: number; name: string; ok: boolean; summary: string };

export type AgentProgress = { runId: string; target: string } & AgentProgressEvent;

export interface AgentRunOptions {
  /** The user's workspace folder (never written, except .weave/runs/agent/). */
  workspaceDir: string;
  specFile: SpecFile;
  target: AgentTarget;
  client: ModelClient;
  budgets?: Partial<AgentBudgets>;
  signal?: AbortSignal;
  onProgress?: (event: AgentProgress) => void;
  /** Spec id → specs sharing code with it; computed from the worktree's index when absent. */
  potentialInteractions?: ReadonlyMap<string, readonly string[]>;
  /** Ask the model for a per-spec review at the end (deterministic checks always run). Default true. */
  modelReview?: boolean;
  /** Secrets to redact from everything written (the API key). */
  secrets?: Array<string | undefined>;
  /** The verdicts before the change when already known (the matrix runs them once for all cells). */
  before?: SpecResult[];
  /** How many spec tests run at once in the worktree. */
  specConcurrency?: number;
  /** Index the worktree with tree-sitter (outline / find_symbol, potential interactions). Default true. */
  useIndex?: boolean;
  /** Network for spec runs and whether running unsandboxed is allowed (it never is by default). */
  containment?: ContainmentRequest;
}

export interface VerdictChange {
  id: string;
  before: Verdict | 'not-run';
  after: Verdict | 'not-run';
}

export interface AgentRunResult {
  runId: string;
  target: AgentTarget;
  stopReason: StopReason;
  /** Why the run stopped early: the model's failure or the budget spent. */
  error?: string;
  finishSummary?: string;
  steps: number;
  usage: ModelUsage;
  durationMs: number;
  patch: string;
  changedFiles: string[];
  before: SpecResult[];
  after: SpecResult[];
  verdicts: VerdictChange[];
  findings: ReviewFinding[];
  modelReview?: ModelReview;
  /** False when the user opted out of the sandbox; then unsandboxedReason says why. */
  sandboxed: boolean;
  unsandboxedReason?: string;
  /** Spec ids whose runs (before, during or after the agent's work) changed protected files. */
  tamperedSpecs: string[];
  runDir: string;
  trajectoryFile: string;
  patchFile: string;
}

export function agentRunsDir(workspaceDir: string): string {
  return path.join(workspaceDir, '.weave', 'runs', 'agent');
}

interface WorktreeOutcome extends LoopOutcome {
  before: SpecResult[];
  after: SpecResult[];
  diff: WorkspaceDiff;
  testFiles: Map<string, string>;
  sandboxed: boolean;
  unsandboxedReason?: string;
  tamperedSpecs: string[];
}

export async function runAgent(options: AgentRunOptions): Promise<AgentRunResult> {
  const session = new AgentSession(options);
  const { redact, userSignal } = session;
  const started = performance.now();
  const label = options.target.kind === 'all' ? 'all' : options.target.id;
  const runId = `${newRunId(new Date())}-${label}`;
  const runDir = path.join(agentRunsDir(options.workspaceDir), runId);
  await ensureRunsIgnored(options.workspaceDir);
  const trajectory = session.openTrajectory(path.join(runDir, 'trajectory.jsonl'), {
    runId,
    target: targetLabel(options.target),
  });
  const progress = (event: AgentProgressEvent): void =>
    options.onProgress?.({ runId, target: label, ...event });
  const phase = (p: Extract<AgentProgressEvent, { type: 'phase' }>['phase'], message: string): void =>
    progress({ type: 'phase', phase: p, message });

  phase('worktree', 'creating a standalone sandboxed checkout');
  const outcome = await withStandaloneCheckout(
    options.workspaceDir,
    WORKING_TREE,
    async (checkout): Promise<WorktreeOutcome> => {
      const dir = checkout.workspaceDir;
      const containment = await containmentFor(checkout, options.specFile, options.containment);
      const tamperedSpecs = new Set<string>();
      const run = async (ids: string[] | undefined, signal: AbortSignal): Promise<SpecResult[]> => {
        const results = await runSpecs({
          workspaceDir: dir,
          specFile: options.specFile,
          ...(ids ? { only: ids } : {}),
          signal,
          containment,
          ...(options.specConcurrency ? { concurrency: options.specConcurrency } : {}),
        });
        for (const r of results) if (r.verdict === 'tampered') tamperedSpecs.add(r.id);
        return results;
      };
      let before = options.before;
      if (!before) {
        phase('specs-before', 'running every spec before the change');
        before = await run(undefined, userSignal);
      }
      trajectory.write({ type: 'specs', phase: 'before', results: brief(before) });
      const baseTree = await snapshotWorkspace(dir);
      const protectedFiles = options.specFile.specs.flatMap((s) => s.test.files);
      const jail = await WorkspaceJail.create(dir, protectedFiles);
      const worktreeIndex: WorktreeIndex | undefined =
        options.useIndex === false ? undefined : createWorktreeIndex(dir);
      try {
        const potentialInteractions =
          options.potentialInteractions ??
          (await worktreeIndex?.potentialInteractions(options.specFile).catch(() => undefined));
        const promptInput = {
          specFile: options.specFile,
          target: options.target,
          agentsMd: await readOptional(path.join(dir, 'AGENTS.md')),
          before,
          ...(potentialInteractions ? { potentialInteractions } : {}),
        };
        const system = buildSystemPrompt(promptInput);
        const task = buildTaskPrompt(promptInput);

        phase('agent', `agent working on ${targetLabel(options.target)}`);
        const loop = await session.runLoop(trajectory, {
          system,
          task,
          onProgress: progress,
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

        const diff = await diffWorkspace(dir, baseTree);
        let after: SpecResult[] = [];
        if (!userSignal.aborted && diff.files.length === 0) {
          // Nothing changed: the code is the code the "before" verdicts were measured on.
          phase('specs-after', 'nothing changed: the verdicts are those from before');
          after = before;
          trajectory.write({ type: 'specs', phase: 'after', results: brief(after), unchangedTree: true });
        } else if (!userSignal.aborted) {
          phase('specs-after', 'running every spec after the change');
          after = await run(undefined, userSignal);
          trajectory.write({ type: 'specs', phase: 'after', results: brief(after) });
        }
        const testFiles = new Map<string, string>();
        for (const f of new Set(protectedFiles)) {
          const text = await readOptional(path.join(dir, f));
          if (text !== undefined) testFiles.set(f.replace(/^(\.\/)+/, ''), text);
        }
        return {
          ...loop,
          before,
          after,
          diff,
          testFiles,
          sandboxed: containment.sandbox !== undefined,
          ...(containment.unsandboxedReason !== undefined
            ? { unsandboxedReason: containment.unsandboxedReason }
            : {}),
          tamperedSpecs: [...tamperedSpecs].sort(),
        };
      } finally {
        worktreeIndex?.dispose();
      }
    },
  );

  trajectory.write({
    type: 'end',
    stopReason: outcome.stopReason,
    steps: outcome.steps,
    usage: outcome.usage,
    durationMs: Math.round(performance.now() - started),
    changedFiles: outcome.diff.files,
  });

  const findings = reviewDeterministic({
    patch: outcome.diff.patch,
    events: readTrajectory(trajectory.file),
    specFile: options.specFile,
    testFiles: outcome.testFiles,
  });
  let modelReview: ModelReview | undefined;
  if (
    (options.modelReview ?? true) &&
    outcome.stopReason !== 'cancelled' &&
    outcome.stopReason !== 'model-error'
  ) {
    phase('review', 'model review of the patch');
    modelReview = await reviewWithModel(options.client, {
      specFile: options.specFile,
      patch: outcome.diff.patch,
      after: outcome.after,
      findings,
      signal: userSignal,
    });
  }

  const result: AgentRunResult = {
    runId,
    target: options.target,
    stopReason: outcome.stopReason,
    ...(outcome.error !== undefined ? { error: outcome.error } : {}),
    ...(outcome.finishSummary !== undefined ? { finishSummary: redact(outcome.finishSummary) } : {}),
    steps: outcome.steps,
    usage: outcome.usage,
    durationMs: Math.round(performance.now() - started),
    patch: outcome.diff.patch,
    changedFiles: outcome.diff.files,
    before: outcome.before,
    after: outcome.after,
    verdicts: verdictChanges(options.specFile, outcome.before, outcome.after),
    findings,
    ...(modelReview ? { modelReview } : {}),
    sandboxed: outcome.sandboxed,
    ...(outcome.unsandboxedReason !== undefined ? { unsandboxedReason: outcome.unsandboxedReason } : {}),
    tamperedSpecs: outcome.tamperedSpecs,
    runDir,
    trajectoryFile: trajectory.file,
    patchFile: path.join(runDir, 'patch.diff'),
  };
  await fs.writeFile(result.patchFile, result.patch);
  const stored = { ...result, before: brief(result.before), after: brief(result.after) };
  await fs.writeFile(path.join(runDir, 'result.json'), redact(JSON.stringify(stored, null, 2)) + '\n');
  phase('done', `${targetLabel(options.target)}: ${outcome.stopReason}`);
  return result;
}

export function verdictChanges(
  specFile: SpecFile,
  before: SpecResult[],
  after: SpecResult[],
): VerdictChange[] {
  const b = new Map(before.map((r) => [r.id, r.verdict]));
  const a = new Map(after.map((r) => [r.id, r.verdict]));
  return specFile.specs.map((s) => ({
    id: s.id,
    before: b.get(s.id) ?? 'not-run',
    after: a.get(s.id) ?? 'not-run',
  }));
}

function brief(results: SpecResult[]): Array<{ id: string; verdict: Verdict; reason?: string }> {
  return results.map((r) => ({ id: r.id, verdict: r.verdict, ...(r.reason ? { reason: r.reason } : {}) }));
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}
