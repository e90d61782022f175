// Verification of an exported task, exactly as a harness would run it: every spec on base + test.patch and with
// the gold patch (through the written eval.sh and base.bundle), classified into FAIL_TO_PASS / PASS_TO_PASS or
// reasons the task does not verify; and for the Harbor shape its contract (the oracle scores 1, no agent < 1).
import { describeSetupFailure } from '../run/evalLog';
import { runHarborContract } from '../harbor/harborContract';
import type { SpecOutcome, TaskSpec } from '../taskFormat';
import { interruptionOf, runTaskPatch, type RunEnvironment, type TaskRunResult } from '../run/taskRunner';
import { describeEnvironmentWrites, type SharedEnvironments } from '../run/sharedEnvironment';

export interface VerificationReason {
  spec: string;
  reason: string;
}

export interface Verification {
  failToPass: string[];
  passToPass: string[];
  stillFailing: string[];
  reasons: VerificationReason[];
  baseResults: Record<string, SpecOutcome>;
  goldResults: Record<string, SpecOutcome>;
  /** Where the specs ran: the line that says "verified" names it. */
  environment: RunEnvironment;
}

export interface PatchVerificationInput {
  stage: string;
  baseCommit: string;
  specs: TaskSpec[];
  /** The task's protected set: a run that rewrites one of these files cannot verify anything. */
  protectedFiles: string[];
  /** The set-up makes the set-up venv (makesSetupVenv): the spec runs use it. */
  setupVenv: boolean;
  goldPatch: string;
  timeoutMs: number;
  excludeStillFailing: boolean;
  onProgress?: (message: string) => void;
  /** How often the runs look for progress to report (runTaskPatch's progressIntervalMs). */
  progressIntervalMs?: number;
  signal?: AbortSignal;
  /** Environments set up once and shared by the runs, with the task's set-up commands (weave mine). */
  sharedEnvironments?: { environments: SharedEnvironments; setupCommands: readonly string[] };
}

/** Runs the staged task without a patch and with the gold patch (in parallel) and classifies the specs. */
export async function verifyPatches(input: PatchVerificationInput): Promise<Verification> {
  const run = (patch: string, label: string): Promise<TaskRunResult> =>
    runTaskPatch({
      label,
      ...(input.onProgress ? { onProgress: input.onProgress } : {}),
      ...(input.progressIntervalMs === undefined ? {} : { progressIntervalMs: input.progressIntervalMs }),
      taskDir: input.stage,
      baseCommit: input.baseCommit,
      specs: input.specs,
      protectedFiles: input.protectedFiles,
      setupVenv: input.setupVenv,
      patch,
      timeoutMs: input.timeoutMs,
      runSetup: true,
      ...(input.signal ? { signal: input.signal } : {}),
      ...(input.sharedEnvironments ? { sharedEnvironments: input.sharedEnvironments } : {}),
    });
  const [baseRun, goldRun] = await Promise.all([
    run('', 'base + test.patch'),
    run(input.goldPatch, 'gold patch'),
  ]);
  return classify(input.specs, baseRun, goldRun, input.excludeStillFailing);
}

/** Why a written Harbor task breaks its contract (none: it holds): the oracle must score 1, no agent below 1. */
export async function harborContractReasons(
  harborDir: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  shared?: { environments: SharedEnvironments; setupCommands: readonly string[] },
): Promise<VerificationReason[]> {
  const contract = (oracle: boolean) =>
    runHarborContract({
      harborDir,
      oracle,
      timeoutMs,
      ...(signal ? { signal } : {}),
      ...(shared ? { sharedEnvironments: shared } : {}),
    });
  const [withOracle, withoutAgent] = await Promise.all([contract(true), contract(false)]);
  const reasons: VerificationReason[] = [];
  if (withOracle.reward !== 1) {
    reasons.push({
      spec: '*',
      reason: `Harbor: the oracle (solution/solve.sh) scores ${withOracle.reward ?? 'no reward'}, not 1: ${withOracle.failure ?? describeHarborVerdicts(withOracle.verdicts)}`,
    });
  }
  if (withoutAgent.reward === null || withoutAgent.reward >= 1) {
    reasons.push({
      spec: '*',
      reason: `Harbor: without an agent the task scores ${withoutAgent.reward ?? 'no reward'}, not < 1: ${withoutAgent.failure ?? describeHarborVerdicts(withoutAgent.verdicts)}`,
    });
  }
  return reasons;
}

function classify(
  specs: readonly TaskSpec[],
  baseRun: TaskRunResult,
  goldRun: TaskRunResult,
  excludeStillFailing: boolean,
): Verification {
  const reasons: VerificationReason[] = [];
  const failToPass: string[] = [];
  const passToPass: string[] = [];
  const stillFailing: string[] = [];
  if (baseRun.parsed.testPatchFailed)
    reasons.push({ spec: '*', reason: 'test.patch does not apply to the base' });
  if (goldRun.parsed.patchFailed)
    reasons.push({ spec: '*', reason: 'gold.patch does not apply to the base' });
  const setupFailures = setupFailureReasons(baseRun, goldRun);
  if (setupFailures.length > 0) {
    // No spec ran, so there is nothing to say per spec: the set-up's own failure is the reason.
    return {
      ...empty(specs, baseRun, goldRun),
      reasons: [...reasons, ...setupFailures],
    };
  }
  // Whatever the verdicts, code that wrote into a shared environment is an attempt: the task does not verify.
  for (const [label, run] of [
    ['base + test.patch', baseRun],
    ['with the gold patch', goldRun],
  ] as const) {
    if (run.environmentWrites !== undefined && run.environmentWrites.length > 0)
      reasons.push({ spec: '*', reason: `${label}: ${describeEnvironmentWrites(run.environmentWrites)}` });
  }
  for (const spec of specs) {
    const before = baseRun.parsed.specs[spec.id];
    const after = goldRun.parsed.specs[spec.id];
    if (after?.verdict !== 'pass' && before?.verdict !== 'pass' && excludeStillFailing) {
      stillFailing.push(spec.id);
    } else if (after?.verdict !== 'pass') {
      const was = before?.verdict === 'pass' ? 'passes on base + test.patch but ' : '';
      reasons.push({ spec: spec.id, reason: `${was}does not pass with the gold patch: ${describe(after)}` });
    } else if (before?.verdict === 'pass') passToPass.push(spec.id);
    else failToPass.push(spec.id);
  }
  if (failToPass.length === 0 && reasons.length === 0) {
    reasons.push({
      spec: '*',
      reason: 'no spec fails on base + test.patch, so the gold patch fixes nothing a test sees',
    });
  }
  return { ...empty(specs, baseRun, goldRun), failToPass, passToPass, stillFailing, reasons };
}

function empty(specs: readonly TaskSpec[], baseRun: TaskRunResult, goldRun: TaskRunResult): Verification {
  return {
    failToPass: [],
    passToPass: [],
    stillFailing: [],
    reasons: [],
    baseResults: outcomes(specs, baseRun),
    goldResults: outcomes(specs, goldRun),
    environment: baseRun.environment,
  };
}

/** The failed set-up of each run (once when both failed alike), with the command and its last lines. */
function setupFailureReasons(baseRun: TaskRunResult, goldRun: TaskRunResult): VerificationReason[] {
  const runs: Array<[label: string, run: TaskRunResult]> = [
    ['base + test.patch', baseRun],
    ['with the gold patch', goldRun],
  ];
  const failed = runs.flatMap(([label, run]) =>
    run.parsed.setupFailure === undefined ? [] : [{ label, run, failure: run.parsed.setupFailure }],
  );
  const [first, second] = failed;
  // The same command failing the same way on both sides is one failure (their logs differ only in scratch paths).
  const alike =
    first !== undefined &&
    second !== undefined &&
    first.failure.command === second.failure.command &&
    first.failure.exitCode === second.failure.exitCode;
  return (alike ? [first] : failed).map((f) => ({
    spec: '*',
    reason: `${alike ? '' : `${f.label}: `}${describeSetupFailure(f.failure, interruptionOf(f.run))}`,
  }));
}

function describe(run: { verdict: string; reason?: string; outputTail?: string } | undefined): string {
  if (!run) return 'not run';
  const head = run.reason === undefined ? run.verdict : `${run.verdict} (${run.reason})`;
  const tail = (run.outputTail ?? '').trimEnd().split('\n').slice(-VERIFICATION_OUTPUT_LINES);
  return run.verdict === 'pass' || tail.join('').trim() === ''
    ? head
    : `${head}; its output ends:\n${tail.map((l) => `      ${l}`).join('\n')}`;
}

const VERIFICATION_OUTPUT_LINES = 12;

function describeHarborVerdicts(
  verdicts: Record<string, { verdict: string; reason: string | null }>,
): string {
  const failing = Object.entries(verdicts).filter(([, v]) => v.verdict !== 'pass');
  return failing.length === 0
    ? 'every spec passes'
    : failing.map(([id, v]) => `${id} ${v.verdict}${v.reason === null ? '' : ` (${v.reason})`}`).join(', ');
}

function outcomes(specs: readonly TaskSpec[], run: TaskRunResult): Record<string, SpecOutcome> {
  const out: Record<string, SpecOutcome> = {};
  for (const spec of specs) {
    const r = run.parsed.specs[spec.id];
    if (!r) continue;
    out[spec.id] = {
      verdict: r.verdict,
      exit_code: r.exitCode,
      ...(r.reason === undefined ? {} : { reason: r.reason }),
    };
  }
  return out;
}
