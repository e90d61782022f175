// The spec phase of `weave eval` (and so of `weave bench`) for a prediction. eval.sh's own spec runs can only read
// exit codes and printed summaries, which is all an external harness has — and all that code under test needs to
// forge (`os._exit(0)`, a fake summary line). So once eval.sh's prepare phase has laid the patch, the task's tests
// and the set-up down, Weave runs each spec test itself on that checkout, contained the way agent code is
// (check/runSpecs with a Containment): the runner hooks' signed evidence, the tamper guard, the protected files
// mounted read-only, no network. A pass then needs the test runner's signed results: one that rests on a summary
// or the exit code is `unverified` and never resolves, and a forged results file or a replaced assertion is
// `tampered`. The runs are written to the log in eval.sh's marker format, so the log reads like any other.
import { runSpecs, type SpecResult } from '../../check';
import { weaveInstallationBinds, type Containment } from '../../sandbox/containment';
import { TamperGuard } from '../../sandbox/protectedFiles';
import type { SpecFile } from '../../../shared/specSchema';
import path from 'node:path';
import { SETUP_VENV } from '../environmentSetup';
import type { ParsedEvalLog, ParsedSpecRun } from './evalLog';
import type { TaskSpec } from '../taskFormat';

export interface EvidenceSpecPhase {
  /** The work tree eval.sh's prepare phase left (patch, test.patch and set-up applied). */
  checkout: string;
  specs: readonly TaskSpec[];
  /** false only when the user allowed unsandboxed runs (WEAVE_ALLOW_UNSANDBOXED=1) and there is no sandbox. */
  sandboxed: boolean;
  /** The task's protected files in the checkout (absolute): read-only while the prediction's code runs. */
  protectedPaths: readonly string[];
  /** The task's set-up made the set-up venv (fixed at export): its bin/ first on PATH. */
  setupVenv: boolean;
  /** What is left of the run's time budget. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface EvidenceSpecOutcome {
  results: SpecResult[];
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
}

/** Runs every spec of the task once, one at a time as eval.sh does, within the budget. */
export async function runSpecsWithEvidence(phase: EvidenceSpecPhase): Promise<EvidenceSpecOutcome> {
  const started = performance.now();
  const specFile = specFileOfTaskSpecs(phase.specs, phase.setupVenv ? venvEnvironment(phase.checkout) : {});
  const containment = await containmentOfCheckout(phase, specFile);
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(), phase.timeoutMs);
  const cancel = (): void => budget.abort();
  phase.signal?.addEventListener('abort', cancel, { once: true });
  // An abort while the containment was prepared has fired already and will not fire again.
  if (phase.signal?.aborted) cancel();
  try {
    const results = await runSpecs({
      workspaceDir: phase.checkout,
      specFile,
      containment,
      concurrency: 1,
      signal: budget.signal,
    });
    const cancelled = phase.signal?.aborted === true;
    return {
      results,
      timedOut: budget.signal.aborted && !cancelled,
      cancelled,
      durationMs: performance.now() - started,
    };
  } finally {
    clearTimeout(timer);
    phase.signal?.removeEventListener('abort', cancel);
  }
}

async function containmentOfCheckout(phase: EvidenceSpecPhase, specFile: SpecFile): Promise<Containment> {
  const guard = await TamperGuard.create(phase.checkout, specFile);
  if (!phase.sandboxed) return { guard, unsandboxedReason: 'unsandboxed (WEAVE_ALLOW_UNSANDBOXED=1)' };
  return {
    guard,
    sandbox: {
      checkout: phase.checkout,
      readOnlyBinds: weaveInstallationBinds(),
      protectedPaths: [...new Set([...guard.mountablePaths(), ...phase.protectedPaths])],
      observeAttempts: true,
      network: 'none',
    },
  };
}

/** The task's specs as a spec file (their defaults are applied already), each with `extraEnv` under its own env. */
function specFileOfTaskSpecs(specs: readonly TaskSpec[], extraEnv: Record<string, string>): SpecFile {
  return {
    version: 1,
    goal: '',
    defaults: { cwd: '.', env: {}, timeoutSeconds: 120 },
    specs: specs.map((s) => ({
      id: s.id,
      title: s.title,
      kind: s.kind,
      statement: s.statement,
      test: {
        command: s.test.command,
        files: s.test.files,
        cwd: s.test.cwd,
        env: { ...extraEnv, ...s.test.env },
        timeoutSeconds: s.test.timeoutSeconds,
      },
      anchors: s.anchors,
      dependsOn: s.dependsOn,
      interactsWith: s.interactsWith,
    })),
  };
}

/**
 * The set-up's virtual environment first on PATH, as eval.sh puts it (specRunsScript.ts): the one eval.sh's
 * set-up made (it removes any other first), read-only while the specs run.
 */
function venvEnvironment(checkout: string): Record<string, string> {
  const venv = path.join(checkout, SETUP_VENV);
  return { VIRTUAL_ENV: venv, PATH: [path.join(venv, 'bin'), process.env.PATH ?? ''].join(path.delimiter) };
}

/** The runs in eval.sh's marker format (specRunsScript.ts), for the instance's log. */
export function evidenceRunsLog(results: readonly SpecResult[], nonce: string): string {
  return results
    .map((r) => {
      const timedOut = /timed out/.test(r.reason ?? '') ? 1 : 0;
      return [
        `>>>>> WEAVE[${nonce}] SPEC START ${r.id}`,
        r.output,
        `<<<<< WEAVE[${nonce}] SPEC END ${r.id} exit=${r.exitCode ?? 'none'} timed_out=${timedOut} ` +
          `seconds=${Math.round(r.durationMs / 1000)} verdict=${r.verdict} evidence=${r.evidence}`,
        '',
      ].join('\n');
    })
    .join('');
}

const OUTPUT_TAIL_CHARS = 2000;

/**
 * `parsed` (the prepare phase's markers) with the specs' verdicts as the contained runs judged them. A spec the
 * run's time-out or a cancel stopped (runSpecs: `skipped`) is an error saying so (`interrupted`), as in eval.sh.
 */
export function withEvidenceVerdicts(
  parsed: ParsedEvalLog,
  results: readonly SpecResult[],
  interrupted: string | undefined,
): ParsedEvalLog {
  const specs: Record<string, ParsedSpecRun> = {};
  for (const r of results) {
    const stopped = interrupted !== undefined && r.verdict === 'skipped';
    const reason = stopped ? interrupted : r.reason;
    specs[r.id] = {
      verdict: stopped ? 'error' : r.verdict,
      exitCode: r.exitCode,
      ...(reason === undefined ? {} : { reason }),
      outputTail: r.output.slice(-OUTPUT_TAIL_CHARS),
    };
  }
  return { ...parsed, finished: true, specs };
}
