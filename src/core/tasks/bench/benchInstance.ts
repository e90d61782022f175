// One (model, task) cell of `weave bench`: a scratch checkout of the task (base.bundle at base_commit with
// test.patch applied and committed, so the agent sees and runs the constraints it must satisfy, and its patch
// is its change alone), then either Weave's agent (runAgent, optionally the interaction matrix) or an external
// agent command, then the patch and the deterministic review. The checkout is always removed.
//
// The external agent command's contract (README "weave bench"): it runs through `sh -c` in the checkout, with
// the task's instruction (instruction.md's text: goal, constraints, rules) on stdin and in $WEAVE_INSTRUCTION,
// plus $WEAVE_TASK_ID, $WEAVE_MODEL (the --model it stands for) and $WEAVE_BASE_URL when given. Whatever it
// leaves changed in the checkout (untracked files included) is its patch; it gets the agent time budget.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { agentRunSetup, type AgentRunSetup } from '../../agent/agentRunSetup';
import type { AgentRunResult } from '../../agent/agentRunResult';
import { summarizeCandidate } from '../../agent/candidateRanking';
import { modelCandidatePlans, runCandidates } from '../../agent/candidates';
import { measureJudgement, type Comparison, type Judgement } from '../../agent/judgement';
import { modelFromSettings, type ModelClient, type Sampling } from '../../model';
import { runMatrix } from '../../agent/matrix';
import { createRedactor } from '../../agent/redact';
import { reviewDeterministic, type ReviewFinding } from '../../agent/deterministicReview';
import { runAgent, type AgentBudgets } from '../../agent/runAgent';
import { runCommand, type CommandOutcome } from '../../process/runCommand';
import { userCommandLauncher } from '../../sandbox/sandboxPolicy';
import type { LoadedTask } from '../eval/evalTasks';
import { git } from '../../git/git';
import { renderProblemStatement } from '../problemStatement';
import { shQuote } from '../run/specRunsScript';
import { TASK_FILES, type Task } from '../taskFormat';
import type { SpecFile } from '../../../shared/specSchema';
import { withCopiedWorkspace } from '../../workspace';
import { specFileOf } from '../export/taskRecord';

/** What a bench cell says when no model is named (the CLI's --model is required, so this is a caller's bug). */
export const NO_BENCH_MODEL = 'no model: pass --model NAME';

export interface InstanceRun {
  instance_id: string;
  model: string;
  /** '' when the agent changed nothing. */
  patch: string;
  stop_reason: string;
  error?: string;
  steps: number;
  usage: { prompt_tokens: number; completion_tokens: number };
  duration_ms: number;
  findings: ReviewFinding[];
  /** Relative to the model's folder. */
  trajectory: string | null;
  /** Specs solved alone but not together (--matrix), or null when the matrix did not run. */
  alone_not_together: string[] | null;
  /** The blind model review's "satisfied" against the cell's own sandboxed verdicts (--review); absent: not run. */
  review_counts?: { true_positives: number; false_positives: number; false_negatives: number };
  /** --self-pick N: the model's pick among its N candidates against the first and the verified best. */
  self_pick?: { pick: number; vs_first: Comparison; vs_best: Comparison; regret: number } | { error: string };
  /**
   * With several candidates (--self-pick N, `weave mine review --candidates N`): every candidate's patch in
   * candidate order (cand-1 first, the same as `patch`) and the one Weave's verified ranking puts first (1-based;
   * null when every candidate is disqualified), so each can be scored on its own.
   */
  candidates?: { patches: string[]; verified_best: number | null };
}

export interface InstanceJob {
  task: LoadedTask;
  model: string;
  /** The model's folder in the bench output (trajectories/ goes there). */
  modelDir: string;
  baseUrl: string;
  apiKey?: string;
  agentCommand?: string;
  budgets: AgentBudgets;
  /** Folders an external agent command must not read: the task folders and the bench's output. */
  hiddenFromAgent?: readonly string[];
  matrix: boolean;
  /** Run the blind model review and score its claims (the leaderboard's review precision / recall). */
  review?: boolean;
  /** Run this many candidates (seeds 1..N) and ask the model to pick one; the prediction stays cand-1's. */
  selfPickCandidates?: number;
  /** Run this many candidates (seeds 1..N) without asking the model to pick; the prediction stays cand-1's. */
  candidates?: number;
  signal?: AbortSignal;
}

export async function runInstance(job: InstanceJob): Promise<InstanceRun> {
  const { task } = job.task;
  const trajectories = path.join(job.modelDir, 'trajectories');
  await fs.mkdir(trajectories, { recursive: true });
  const cell: CellPlace = {
    specFile: specFileOf(task),
    trajectoryName: `trajectories/${safeName(task.instance_id)}`,
  };
  return withTaskCheckout(job.task, (checkout, scratch) =>
    job.agentCommand !== undefined
      ? commandCell(job, job.agentCommand, cell, checkout, scratch)
      : weaveCell(job, cell, checkout),
  );
}

/** What a cell's two kinds share: the task's spec file, and its trajectory's name (without the extension). */
interface CellPlace {
  specFile: SpecFile;
  trajectoryName: string;
}

/** An external agent command in the checkout, on the task's instruction; its log is the trajectory. */
async function commandCell(
  job: InstanceJob,
  command: string,
  { specFile, trajectoryName }: CellPlace,
  checkout: string,
  scratch: string,
): Promise<InstanceRun> {
  const { task } = job.task;
  const started = performance.now();
  const instruction = renderProblemStatement(task.goal, task.specs, task.spec_test_files);
  const instructionFile = path.join(scratch, 'instruction.md');
  await fs.writeFile(instructionFile, instruction);
  const outcome = await runAgentCommand({
    command,
    checkout,
    instructionFile,
    hiddenDirs: job.hiddenFromAgent ?? [job.task.dir],
    env: {
      WEAVE_INSTRUCTION: instruction,
      WEAVE_TASK_ID: task.instance_id,
      WEAVE_MODEL: job.model,
      ...(job.baseUrl === '' ? {} : { WEAVE_BASE_URL: job.baseUrl }),
    },
    timeoutMs: job.budgets.timeoutSeconds * 1000,
    ...(job.signal ? { signal: job.signal } : {}),
  });
  const redact = createRedactor([job.apiKey]);
  await fs.writeFile(path.join(job.modelDir, `${trajectoryName}.log`), redact(outcome.output));
  const patch = await changesIn(checkout);
  const testFiles = await readTestFiles(checkout, task);
  const failed = outcome.timedOut
    ? `timed out after ${job.budgets.timeoutSeconds} s`
    : (outcome.spawnError ??
      (outcome.exitCode === 0 ? undefined : `exited with ${outcome.exitCode ?? outcome.signal}`));
  return {
    instance_id: task.instance_id,
    model: job.model,
    patch,
    stop_reason: failed === undefined ? 'finished' : 'agent-command-failed',
    ...(failed === undefined ? {} : { error: failed }),
    steps: 0,
    usage: { prompt_tokens: 0, completion_tokens: 0 },
    duration_ms: Math.round(performance.now() - started),
    findings: reviewDeterministic({ patch, events: [], specFile, testFiles }),
    trajectory: `${trajectoryName}.log`,
    alone_not_together: null,
  };
}

/** Weave's agent in the checkout (agentCell), then the interaction matrix when asked for. */
async function weaveCell(
  job: InstanceJob,
  { specFile, trajectoryName }: CellPlace,
  checkout: string,
): Promise<InstanceRun> {
  const { task } = job.task;
  const started = performance.now();
  const clientFor = (sampling?: Sampling) =>
    modelFromSettings({
      baseUrl: job.baseUrl,
      model: job.model,
      apiKey: job.apiKey,
      noModel: NO_BENCH_MODEL,
      ...(sampling ? { sampling } : {}),
    });
  const common = await agentRunSetup({
    workspaceDir: checkout,
    specFile,
    client: clientFor(),
    apiKey: job.apiKey,
    budgets: job.budgets,
    ...(job.signal ? { signal: job.signal } : {}),
  });
  const { result, judged } = await agentCell(job, common, clientFor);
  await fs.copyFile(result.trajectoryFile, path.join(job.modelDir, `${trajectoryName}.jsonl`));
  let aloneNotTogether: string[] | null = null;
  if (job.matrix) {
    const matrix = await runMatrix({ ...common, concurrency: 1 });
    aloneNotTogether = matrix.aloneNotTogether;
  }
  return {
    instance_id: task.instance_id,
    model: job.model,
    patch: result.patch,
    stop_reason: result.stopReason,
    ...(result.error === undefined ? {} : { error: result.error }),
    steps: result.steps,
    usage: { prompt_tokens: result.usage.promptTokens, completion_tokens: result.usage.completionTokens },
    duration_ms: Math.round(performance.now() - started),
    findings: result.findings,
    trajectory: `${trajectoryName}.jsonl`,
    alone_not_together: aloneNotTogether,
    ...judged,
  };
}

/**
 * Weave's agent in a cell: one run, or with --self-pick N the model's N candidates (runCandidates, one at a time:
 * the cells are the bench's parallelism) of which cand-1 stays the prediction — the "take the first attempt"
 * strategy the pick is compared with. With --review the blind review's claims are scored on every run.
 */
async function agentCell(
  job: InstanceJob,
  common: AgentRunSetup,
  clientFor: (sampling?: Sampling) => ModelClient,
): Promise<{
  result: AgentRunResult;
  judged: Pick<InstanceRun, 'review_counts' | 'self_pick' | 'candidates'>;
}> {
  const review = job.review ?? false;
  const count = job.selfPickCandidates ?? job.candidates;
  if (count === undefined) {
    const result = await runAgent({
      ...common,
      target: { kind: 'all' },
      modelReview: review,
      reviewSeesVerdicts: false,
    });
    const summary = summarizeCandidate(common.specFile, result, {
      index: 1,
      label: job.model,
      source: { kind: 'model', model: job.model },
    });
    return { result, judged: reviewCountsOf(measureJudgement([summary]), job.model, review) };
  }
  const { ranking, results } = await runCandidates({
    ...common,
    target: { kind: 'all' },
    plans: modelCandidatePlans(count, [job.model], (_model, sampling) => clientFor(sampling)),
    concurrency: 1,
    modelReview: review,
    ...(job.selfPickCandidates === undefined ? {} : { selfPick: clientFor() }),
  });
  const pick = ranking.judgement.selfPick;
  return {
    result: results[0] as AgentRunResult,
    judged: {
      candidates: { patches: results.map((r) => r.patch), verified_best: ranking.best },
      ...reviewCountsOf(ranking.judgement, job.model, review),
      ...(pick === undefined
        ? {}
        : {
            self_pick: pick.ok
              ? { pick: pick.pick, vs_first: pick.vsFirst, vs_best: pick.vsBest, regret: pick.regret }
              : { error: pick.error },
          }),
    },
  };
}

function reviewCountsOf(
  judgement: Judgement,
  model: string,
  review: boolean,
): Pick<InstanceRun, 'review_counts'> {
  const acc = judgement.review[model];
  // No review asked, or none answered: nothing to score (absent, not zeros).
  if (!review || acc === undefined) return {};
  return {
    review_counts: {
      true_positives: acc.truePositives,
      false_positives: acc.falsePositives,
      false_negatives: acc.falseNegatives,
    },
  };
}

/** base.bundle at base_commit, test.patch applied and committed, in a scratch folder removed afterwards. */
async function withTaskCheckout<T>(
  loaded: LoadedTask,
  fn: (checkout: string, scratch: string) => Promise<T>,
): Promise<T> {
  const bundle = path.join(loaded.dir, TASK_FILES.baseBundle);
  const request = { kind: 'bundle', ref: loaded.task.base_commit, tempPrefix: 'weave-bench-' } as const;
  return withCopiedWorkspace(bundle, request, async ({ dir: checkout, scratch }) => {
    const inCheckout = { isolated: true };
    if (loaded.task.test_patch.trim() !== '') {
      await git(['apply', '--whitespace=nowarn', '-'], checkout, {
        ...inCheckout,
        input: loaded.task.test_patch,
      });
      await git(['add', '-A'], checkout, inCheckout);
      await git(['commit', '-q', '--no-verify', '-m', 'task tests'], checkout, inCheckout);
    }
    return fn(checkout, scratch);
  });
}

async function changesIn(checkout: string): Promise<string> {
  await git(['add', '-A'], checkout, { isolated: true });
  return git(['diff', '--cached', '--binary', '--full-index', 'HEAD'], checkout, { isolated: true });
}

async function readTestFiles(checkout: string, task: Task): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const file of task.spec_test_files) {
    const text = await fs.readFile(path.join(checkout, file), 'utf8').catch(() => undefined);
    if (text !== undefined) files.set(file, text);
  }
  return files;
}

interface AgentCommandRun {
  command: string;
  checkout: string;
  instructionFile: string;
  /** The task folder: its gold patch and test patch are not the agent's to read. */
  hiddenDirs: readonly string[];
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * The one place an external agent command runs. It is the agent the user chose (Claude Code, Codex, a script):
 * it keeps the user's environment (its API keys), its own state folders and the network, exactly as when the
 * user starts it by hand — only a private PID namespace, so nothing it starts outlives it. What decides the
 * leaderboard is the evaluation of its patch afterwards, and that runs in the sandbox (taskRunner.ts). The task
 * folders and the bench's output are hidden from it (empty read-only folders at their paths): no gold patch or
 * other model's prediction to copy.
 */
async function runAgentCommand(run: AgentCommandRun): Promise<CommandOutcome> {
  const launcher = await userCommandLauncher(run.hiddenDirs);
  return runCommand({
    command: `( ${run.command} ) < ${shQuote(run.instructionFile)}`,
    cwd: run.checkout,
    env: run.env,
    ...(launcher ? { launcher } : {}),
    timeoutMs: run.timeoutMs,
    ...(run.signal ? { signal: run.signal } : {}),
  });
}

export function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/g, '_');
}
