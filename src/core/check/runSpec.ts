// One spec's test run: its command started through runCommand with the spec's cwd, env and timeout (spec.test
// over the file's defaults), contained or in a private PID namespace as asked, its runners' reports collected
// (evidence/session.ts) and turned into a verdict; repeated N times, a spec whose verdicts differ is `flaky`; a
// failure the caller wants confirmed (a new one: it passed in the baseline) is run again, and `flaky` if it passes.
// runSpecs.ts decides which specs run and when; this module runs one.
import path from 'node:path';
import { runCommand, type RunCommandOptions } from '../process/runCommand';
import type { Containment } from '../sandbox/containment';
import { containedEnvironment } from '../sandbox/environment';
import { pidNamespaceLauncher, sandboxLauncher, withWritableDirs } from '../sandbox/launchers';
import type { Spec, SpecFile } from '../../shared/specSchema';
import { judgeAttempts, judgeContainedEvidence } from './containedResults';
import { startEvidence, type EvidenceReport, type EvidenceSession } from './evidence/session';
import { effectiveTestSettings } from './testSettings';
import type { SpecResult } from './types';
import { verdictOf } from './verdict';

/** What running one spec needs of runSpecs' options. */
export interface SpecRunOptions {
  workspaceDir: string;
  specFile: SpecFile;
  signal?: AbortSignal;
  /** Head and tail bytes of output kept per command (see runCommand). */
  outputCapBytes?: number;
  killGraceMs?: number;
  /**
   * Runs on behalf of an agent or a prediction: every command in the sandbox with the allowlisted environment,
   * and the protected files checked (and restored) before and after the batch.
   */
  containment?: Containment;
  /** The user's own check: unrestricted, but in a private PID namespace (needs bwrap; see detectSandbox). */
  pidNamespace?: boolean;
  /**
   * The files the spec's test processes had loaded when their first test started (absolute paths, as the runner
   * hooks saw them), after each run: a reference run keeps them as part of the protected set (observedLoads.ts).
   */
  onLoaded?: (specId: string, files: readonly string[]) => void;
  /** Extra environment for a spec's command (per-spec coverage), given the env the spec asks for and the one it inherits. */
  instrument?: (
    spec: Spec,
    specEnv: Readonly<Record<string, string>>,
    inherited: Readonly<NodeJS.ProcessEnv>,
  ) => Promise<CommandInstrumentation>;
}

/**
 * What instrumenting a spec's command adds (per-spec coverage, src/core/coverage/instrument.ts). The shape is
 * declared here, by the run that applies it: check sits below coverage and does not import it.
 */
export interface CommandInstrumentation {
  /** Added to the command's environment (over the spec's own env). */
  env: Record<string, string>;
  /** Directories the command must be able to write even when sandboxed. */
  writableDirs: string[];
}

/** Runs a spec `repeat` times in a row (never concurrently with itself: tests may share files). */
export async function runRepeated(
  spec: Spec,
  options: SpecRunOptions,
  repeat: number,
  onStart: (attempt: number) => void,
): Promise<SpecResult> {
  const attempts: SpecResult[] = [];
  for (let attempt = 1; attempt <= repeat; attempt++) {
    onStart(attempt);
    const result = await runOnce(spec, options);
    attempts.push(result);
    if (result.verdict === 'skipped') return result; // cancelled
  }
  const last = attempts[attempts.length - 1] as SpecResult;
  if (repeat === 1) return last;
  const verdicts = attempts.map((a) => a.verdict);
  const meanMs = Math.round(attempts.reduce((n, a) => n + a.durationMs, 0) / attempts.length);
  if (verdicts.every((v) => v === verdicts[0])) return { ...last, durationMs: meanMs, repeats: verdicts };
  // One tampered attempt taints them all: its evidence was forged, whatever the others said.
  const tampered = attempts.find((a) => a.verdict === 'tampered');
  if (tampered) return { ...tampered, durationMs: meanMs, repeats: verdicts };
  // Show the output of a run that did not pass: that is the one worth reading.
  const telling = attempts.find((a) => a.verdict !== 'pass') ?? last;
  return {
    ...telling,
    verdict: 'flaky',
    reason: `verdicts differed across ${repeat} runs: ${verdicts.join(', ')}`,
    durationMs: meanMs,
    repeats: verdicts,
  };
}

/** Failures to run again before they are believed: how many times, and which (checkWorkspace: the new ones). */
export interface FailureConfirmation {
  retries: number;
  shouldConfirm: (result: SpecResult) => boolean;
}

/**
 * runRepeated, then a failing result `confirmation` asks about is run again up to `retries` times: one pass makes
 * the spec `flaky` (it passed and failed on the same tree), failures every time confirm it. A flaky test must not
 * raise "passed in the baseline and is broken now".
 */
export async function runConfirmed(
  spec: Spec,
  options: SpecRunOptions,
  repeat: number,
  confirmation: FailureConfirmation | undefined,
  onStart: (attempt: number) => void,
): Promise<SpecResult> {
  const first = await runRepeated(spec, options, repeat, onStart);
  const failed = first.verdict === 'fail' || first.verdict === 'error';
  if (!confirmation || confirmation.retries < 1 || !failed || !confirmation.shouldConfirm(first))
    return first;
  const verdicts = [...(first.repeats ?? [first.verdict])];
  for (let retry = 1; retry <= confirmation.retries; retry++) {
    onStart(repeat + retry);
    const again = await runOnce(spec, options);
    // Cancelled while confirming: the failure is not confirmed, so it is not a verdict either.
    if (again.verdict === 'skipped') return again;
    verdicts.push(again.verdict);
    if (again.verdict === 'pass') {
      return {
        ...first,
        verdict: 'flaky',
        reason: `failed, then passed when run again (${verdicts.join(', ')})`,
        repeats: verdicts,
      };
    }
  }
  return { ...first, repeats: verdicts };
}

async function runOnce(spec: Spec, options: SpecRunOptions): Promise<SpecResult> {
  const settings = effectiveTestSettings(spec, options.specFile.defaults);
  const timeoutMs = settings.timeoutSeconds * 1000;
  // The runners inside the command report their own results into a private directory (evidence/session.ts).
  // Contained runs extend only the allowlisted environment's NODE_OPTIONS / PYTHONPATH, never the host's.
  const specEnv = settings.env;
  const inherited = options.containment ? containedEnvironment() : process.env;
  const instrumentation = await options.instrument?.(spec, specEnv, inherited);
  // Only a reference run keeps what its test processes loaded: only there do the hooks look for ES modules and
  // read jest's and vitest's module registries. The user's own check reads only the runners' counts and loaded
  // files (noteForgedFiles): there the hooks skip the comparisons whose findings only a contained run judges.
  const evidence = await startEvidence({ ...specEnv, ...instrumentation?.env }, inherited, undefined, {
    recordLoads: options.onLoaded !== undefined,
    scope: options.containment ? 'full' : 'counts',
  });
  try {
    const outcome = await runCommand(
      commandOptions(spec, settings.cwd, options, timeoutMs, evidence, instrumentation?.writableDirs ?? []),
    );
    const report = await evidence.collect();
    if (report.loaded.length > 0) options.onLoaded?.(spec.id, report.loaded);
    const judged = verdictOf(outcome, timeoutMs, report.summary, report.unfinished);
    const { evidence: basis, summary } = judged;
    // A run that hit one of the sandbox's limits and did not pass is an error of its own kind, not a failure.
    const limited = outcome.resourceLimit !== undefined && judged.verdict !== 'pass';
    const verdict = limited ? 'error' : judged.verdict;
    const reason = limited ? outcome.resourceLimit : judged.reason;
    const result: SpecResult = {
      id: spec.id,
      kind: spec.kind,
      verdict,
      ...(reason !== undefined ? { reason } : {}),
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      durationMs: Math.round(outcome.durationMs),
      evidence: basis,
      ...(summary ? { summary } : {}),
      output: outcome.output,
      truncatedBytes: outcome.truncatedBytes,
    };
    return options.containment
      ? judgeAttempts(judgeContainedEvidence(result, report), outcome.attempts)
      : noteForgedFiles(result, report);
  } finally {
    await evidence.dispose();
  }
}

/**
 * The user's own check: a results file that did not verify never counted; it is named in the reason so its
 * presence is visible (replaced functions are the user's own business there).
 */
function noteForgedFiles(result: SpecResult, report: EvidenceReport): SpecResult {
  if (report.forged.length === 0) return result;
  const note = `ignored results files that did not verify: ${report.forged.join(', ')}`;
  return { ...result, reason: result.reason ? `${result.reason}; ${note}` : note };
}

/** How a spec's command is started. A sandbox must bind `evidence.writableDirs` writable. */
function commandOptions(
  spec: Spec,
  cwd: string,
  options: SpecRunOptions,
  timeoutMs: number,
  evidence: EvidenceSession,
  coverageDirs: readonly string[],
): RunCommandOptions {
  return {
    command: spec.test.command,
    cwd: path.resolve(options.workspaceDir, cwd),
    env: evidence.env,
    inheritedInputs: evidence.inheritedInputs,
    timeoutMs,
    ...(options.containment
      ? {
          baseEnv: containedEnvironment(),
          ...(options.containment.sandbox
            ? {
                launcher: sandboxLauncher(
                  withWritableDirs(options.containment.sandbox, [...evidence.writableDirs, ...coverageDirs]),
                ),
              }
            : {}),
        }
      : options.pidNamespace
        ? { launcher: pidNamespaceLauncher() }
        : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.outputCapBytes !== undefined ? { outputCapBytes: options.outputCapBytes } : {}),
    ...(options.killGraceMs !== undefined ? { killGraceMs: options.killGraceMs } : {}),
  };
}
