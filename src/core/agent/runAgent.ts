// One agent run, from the outside in: its id, run folder and trajectory; a standalone scratch checkout of the
// workspace (uncommitted changes included, no link back to the user's repository) in which checkoutWork.ts
// runs the specs in the sandbox and the model/tool loop, removed whatever happens; then the review of the
// patch and the result (agentRunResult.ts). The user's files are not touched; the run leaves its trajectory,
// patch and result under .weave/runs/agent/<id>/. A run whose spec runs changed protected files, or whose
// patch touches them, can never be applied (applyPolicy.ts).
import path from 'node:path';
import { ensureRunsIgnored, newRunId } from '../check';
import { WORKING_TREE, withCopiedWorkspace } from '../workspace';
import type { AgentBudgets, LoopProgress } from './agentLoop';
import { storeRunResult, verdictChanges, type AgentRunResult } from './agentRunResult';
import { AgentSession } from './agentSession';
import {
  workInCheckout,
  type CheckoutOutcome,
  type CheckoutPhase,
  type CheckoutWorkOptions,
} from './checkoutWork';
import { reviewDeterministic } from './deterministicReview';
import type { ModelClient } from '../model';
import { reviewWithModel, type ModelReview } from './modelReview';
import { targetLabel } from './prompt';
import { readTrajectory } from './trajectory';

export type { AgentBudgets, StopReason } from './agentLoop';

export { DEFAULT_BUDGETS } from './agentSession';

type AgentPhase = 'worktree' | CheckoutPhase | 'review' | 'done';

export type AgentProgressEvent = { type: 'phase'; phase: AgentPhase; message: string } | LoopProgress;

export type AgentProgress = { runId: string; target: string } & AgentProgressEvent;

/** The checkout work's options (checkoutWork.ts) and those of the run around it. */
export interface AgentRunOptions extends CheckoutWorkOptions {
  /** The user's workspace folder (never written, except .weave/runs/agent/). */
  workspaceDir: string;
  client: ModelClient;
  budgets?: Partial<AgentBudgets>;
  signal?: AbortSignal;
  onProgress?: (event: AgentProgress) => void;
  /** Ask the model for a per-spec review at the end (deterministic checks always run). Default true. */
  modelReview?: boolean;
  /** Show the model review the verdicts after the patch (default true; candidates review blind). */
  reviewSeesVerdicts?: boolean;
  /** Secrets to redact from everything written (the API key). */
  secrets?: Array<string | undefined>;
  /** The run's id and folder when the caller places it (a candidate's cand-K/); default a new id under runs/agent/. */
  placement?: { runId: string; runDir: string };
}

export function agentRunsDir(workspaceDir: string): string {
  return path.join(workspaceDir, '.weave', 'runs', 'agent');
}

export async function runAgent(options: AgentRunOptions): Promise<AgentRunResult> {
  const session = new AgentSession(options);
  const { redact, userSignal } = session;
  const started = performance.now();
  const label = options.target.kind === 'all' ? 'all' : options.target.id;
  const runId = options.placement?.runId ?? `${newRunId(new Date())}-${label}`;
  const runDir = options.placement?.runDir ?? path.join(agentRunsDir(options.workspaceDir), runId);
  await ensureRunsIgnored(options.workspaceDir);
  const trajectory = session.openTrajectory(path.join(runDir, 'trajectory.jsonl'), {
    runId,
    target: targetLabel(options.target),
  });
  const progress = (event: AgentProgressEvent): void =>
    options.onProgress?.({ runId, target: label, ...event });
  const phase = (p: AgentPhase, message: string): void => progress({ type: 'phase', phase: p, message });

  phase('worktree', 'creating a standalone sandboxed checkout');
  const contain = { specFile: options.specFile, ...options.containment };
  const outcome = await withCopiedWorkspace(
    options.workspaceDir,
    { kind: 'standalone', ref: WORKING_TREE, contain },
    (copy) => workInCheckout(copy, options, { session, trajectory, phase, onProgress: progress }),
  );

  trajectory.write({
    type: 'end',
    stopReason: outcome.stopReason,
    steps: outcome.steps,
    usage: outcome.usage,
    durationMs: Math.round(performance.now() - started),
    changedFiles: outcome.diff.files,
  });

  const { findings, modelReview } = await reviewOutcome(options, outcome, trajectory.file, phase, userSignal);
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
    attempts: outcome.attempts.all(readTrajectory(trajectory.file), options.specFile),
    testInfrastructure: outcome.testInfrastructure,
    runDir,
    trajectoryFile: trajectory.file,
    patchFile: path.join(runDir, 'patch.diff'),
  };
  await storeRunResult(result, redact);
  phase('done', `${targetLabel(options.target)}: ${outcome.stopReason}`);
  return result;
}

/** The review of the patch: the deterministic checks always, the model's when asked for and the run got that far. */
async function reviewOutcome(
  options: AgentRunOptions,
  outcome: CheckoutOutcome,
  trajectoryFile: string,
  phase: (p: AgentPhase, message: string) => void,
  userSignal: AbortSignal,
): Promise<{ findings: AgentRunResult['findings']; modelReview: ModelReview | undefined }> {
  const findings = reviewDeterministic({
    patch: outcome.diff.patch,
    events: readTrajectory(trajectoryFile),
    specFile: options.specFile,
    testFiles: outcome.testFiles,
    loaded: outcome.loaded,
  });
  if (
    !(options.modelReview ?? true) ||
    options.actor !== undefined ||
    outcome.stopReason === 'cancelled' ||
    outcome.stopReason === 'model-error'
  ) {
    return { findings, modelReview: undefined };
  }
  phase('review', 'model review of the patch');
  const modelReview = await reviewWithModel(options.client, {
    specFile: options.specFile,
    patch: outcome.diff.patch,
    after: outcome.after,
    findings,
    ...(options.reviewSeesVerdicts === false ? { showVerdicts: false } : {}),
    signal: userSignal,
  });
  return { findings, modelReview };
}
