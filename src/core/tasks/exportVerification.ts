// Verification of an exported task, exactly as a harness would run it: every spec on base + test.patch and with
// the gold patch (through the written eval.sh and base.bundle), classified into FAIL_TO_PASS / PASS_TO_PASS or
// reasons the task does not verify; and for the Harbor shape its contract (the oracle scores 1, no agent < 1).
import { runHarborContract } from './harborContract';
import type { SpecOutcome, TaskSpec } from './taskFormat';
import { runTaskPatch, type TaskRunResult } from './taskRunner';

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
}

export interface PatchVerificationInput {
  stage: string;
  baseCommit: string;
  specs: TaskSpec[];
  /** The task's protected set: a run that rewrites one of these files cannot verify anything. */
  protectedFiles: string[];
  goldPatch: string;
  timeoutMs: number;
  excludeStillFailing: boolean;
  signal?: AbortSignal;
}

/** Runs the staged task without a patch and with the gold patch (in parallel) and classifies the specs. */
export async function verifyPatches(input: PatchVerificationInput): Promise<Verification> {
  const run = (patch: string): Promise<TaskRunResult> =>
    runTaskPatch({
      taskDir: input.stage,
      baseCommit: input.baseCommit,
      specs: input.specs,
      protectedFiles: input.protectedFiles,
      patch,
      timeoutMs: input.timeoutMs,
      runSetup: true,
      ...(input.signal ? { signal: input.signal } : {}),
    });
  const [baseRun, goldRun] = await Promise.all([run(''), run(input.goldPatch)]);
  return classify(input.specs, baseRun, goldRun, input.excludeStillFailing);
}

/** Why a written Harbor task breaks its contract (none: it holds): the oracle must score 1, no agent below 1. */
export async function harborContractReasons(
  harborDir: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<VerificationReason[]> {
  const contract = (oracle: boolean) =>
    runHarborContract({ harborDir, oracle, timeoutMs, ...(signal ? { signal } : {}) });
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
  return {
    failToPass,
    passToPass,
    stillFailing,
    reasons,
    baseResults: outcomes(specs, baseRun),
    goldResults: outcomes(specs, goldRun),
  };
}

/** The verdict, its reason and — for a failure — the end of the test's output, so the cause shows. */
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
