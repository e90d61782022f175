// Runs one patch against one task folder the way a harness would: clone base.bundle into a scratch folder,
// check out base_commit, classify the patch (the diff policy), run eval.sh with it, parse its markers. Shared by export (verification) and
// eval (scoring). The whole process tree of eval.sh is killed on timeout or abort (runCommand), and the scratch
// folder is always removed.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { runCommand, type CommandOutcome } from '../../process/runCommand';
import { requireSandbox, SandboxUnavailableError } from '../../sandbox/sandboxPolicy';
import { sandboxLauncher } from '../../sandbox/launchers';
import { makeSetupHome, redactUrlCredentials, setupVariables } from '../../sandbox/setupEnvironment';
import { containedEnvironment } from '../../sandbox/environment';
import { git } from '../../git/git';
import type { InfrastructureFinding } from '../../sandbox/diffPolicy/classifyChanges';
import type { SpecResult } from '../../check';
import { parseEvalLog, setupTimings, type ParsedEvalLog } from './evalLog';
import { evidenceRunsLog, runSpecsWithEvidence, withEvidenceVerdicts } from './evidenceSpecRuns';
import { EVAL_PHASES, renderSetupScript, type EvalPhase } from './evalScript';
import { EnvironmentCopy, type ReadyEnvironment, type SharedEnvironments } from './sharedEnvironment';
import { predictionInfrastructure } from './predictionPolicy';
import { watchSetup } from './setupProgress';
import { NONCE_VARIABLE, shQuote } from './specRunsScript';
import { SETUP_VENV } from '../environmentSetup';
import { TASK_FILES, type TaskSpec } from '../taskFormat';
import { copyWorkspace, withCopiedWorkspace, type CopiedWorkspace } from '../../workspace';

export interface TaskRunInput {
  taskDir: string;
  baseCommit: string;
  specs: readonly TaskSpec[];
  /** The task's protected set (protected_files): checked after the run like the spec test files. */
  protectedFiles: readonly string[];
  /** The patch under evaluation ('' = none). */
  patch: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Run the task's environment set-up commands first (WEAVE_RUN_SETUP=1). */
  runSetup: boolean;
  /**
   * The task's set-up makes the set-up venv (makesSetupVenv of its commands, fixed at export): the spec runs put
   * it first on PATH, and it is read-only while they run. Absent: it does not.
   */
  setupVenv?: boolean;
  /** Progress lines while the set-up runs (one every SETUP_PROGRESS_INTERVAL_MS), naming the run by `label`. */
  onProgress?: (message: string) => void;
  label?: string;
  /** How often the progress lines are looked for (default SETUP_PROGRESS_INTERVAL_MS; an editor wants ~1 s). */
  progressIntervalMs?: number;
  /**
   * Judge the spec runs on the runner hooks' signed evidence (evidenceSpecRuns.ts): for predictions, whose code
   * is untrusted. Off for the export's own verification of the user's base and gold, which eval.sh scores.
   */
  judgeWithEvidence?: boolean;
  /**
   * Environments set up once and shared (sharedEnvironment.ts), with the task's set-up commands: when runSetup and
   * the set-up after the patches is a shared one, the run gets a copy of it instead of setting up.
   */
  sharedEnvironments?: { environments: SharedEnvironments; setupCommands: readonly string[] };
}

/** Where a task run's code ran: inside bubblewrap, unsandboxed because the user allowed it, or in the task's image. */
export type RunEnvironment = 'sandbox' | 'unsandboxed' | 'docker';

/** How reports name a RunEnvironment ("verified in the sandbox (bubblewrap)"). */
export function describeRunEnvironment(environment: RunEnvironment): string {
  if (environment === 'docker') return "in the task's Docker image";
  return environment === 'sandbox'
    ? 'in the sandbox (bubblewrap)'
    : 'unsandboxed (WEAVE_ALLOW_UNSANDBOXED=1)';
}

/**
 * The diff policy's findings for a prediction, on a scratch clone of the task's base (for scoring paths that run
 * no checkout of their own here: Docker).
 */
export async function classifyPredictionAgainstBase(
  taskDir: string,
  baseCommit: string,
  patch: string,
  specs: readonly TaskSpec[],
): Promise<InfrastructureFinding[]> {
  if (patch.trim() === '') return [];
  return withCopiedWorkspace(
    path.join(taskDir, TASK_FILES.baseBundle),
    { kind: 'bundle', ref: baseCommit, tempPrefix: 'weave-classify-' },
    ({ dir }) => predictionInfrastructure(dir, patch, specs),
  );
}

export interface TaskRunResult {
  parsed: ParsedEvalLog;
  /** eval.sh's full output (credentials in URLs masked). */
  log: string;
  environment: RunEnvironment;
  timedOut: boolean;
  cancelled: boolean;
  durationMs: number;
  /** The scratch folder's path while it existed (to scrub it from outputs). */
  scratchDir: string;
  /**
   * Protected files (spec tests, helpers, test-support files) whose content after the run differs from base +
   * test.patch: code under evaluation rewrote them while the specs ran (eval.sh lays them down before the specs
   * run, so no patch can do this).
   */
  tamperedFiles: string[];
  /** What the diff policy found the patch changing in test infrastructure, read before any of it ran. */
  testInfrastructure: InfrastructureFinding[];
  /** The contained spec runs, when judged on runner evidence (judgeWithEvidence). */
  specResults?: SpecResult[];
  /** With a shared environment: its entries the spec runs created, changed or removed (an attempt each). */
  environmentWrites?: string[];
}

export class TaskRunError extends Error {}

// Room for the environment set-up (npm ci, pip install) on top of the spec timeouts, or a margin for cloning
// the base and applying the patches when there is none.
const SETUP_ALLOWANCE_SECONDS = 300;
const NO_SETUP_ALLOWANCE_SECONDS = 30;

/** How long a whole run of a task may take: every spec's timeout plus the set-up allowance. */
export function taskTimeoutSeconds(specs: readonly TaskSpec[], setupCommands: readonly string[]): number {
  const allowance = setupCommands.length > 0 ? SETUP_ALLOWANCE_SECONDS : NO_SETUP_ALLOWANCE_SECONDS;
  return specs.reduce((sum, s) => sum + s.test.timeoutSeconds, 0) + allowance;
}

export async function runTaskPatch(input: TaskRunInput): Promise<TaskRunResult> {
  const taskDir = path.resolve(input.taskDir);
  const base = await checkoutBase(input, taskDir);
  const { dir: checkout, scratch: scratchDir } = base;
  try {
    const expectedTests = await expectedTestFiles(checkout, path.join(taskDir, TASK_FILES.testPatch), [
      ...input.specs.flatMap((s) => s.test.files),
      ...input.protectedFiles,
    ]);
    const testInfrastructure = await predictionInfrastructure(checkout, input.patch, input.specs);
    const { evalScript, patchFile, logDir, logFile } = await harnessFiles(scratchDir, taskDir, input.patch);
    const nonce = randomBytes(16).toString('hex');
    const environment = await runEnvironment();
    const { outcome, specResults, environmentWrites } = await runEvalPhases({
      judgeWithEvidence: input.judgeWithEvidence === true,
      specs: input.specs,
      evalScript,
      patchFile,
      logFile,
      checkout,
      nonce,
      runSetup: input.runSetup,
      timeoutMs: input.timeoutMs,
      writableDirs: [logDir],
      protectedTestFiles: [
        ...[...expectedTests.keys()].map((file) => path.join(checkout, file)),
        // The interpreter the spec runs trust: one spec's code may not rewrite it for the next.
        ...(input.setupVenv ? [path.join(checkout, SETUP_VENV)] : []),
      ],
      setupVenv: input.setupVenv === true,
      environment,
      setupHome: input.runSetup ? await makeSetupHome(scratchDir) : undefined,
      progress: input.onProgress
        ? {
            report: input.onProgress,
            label: input.label ?? 'task',
            ...(input.progressIntervalMs === undefined ? {} : { intervalMs: input.progressIntervalMs }),
          }
        : undefined,
      ...(input.signal ? { signal: input.signal } : {}),
      // Without set-up commands there is nothing to share: eval.sh runs as it always does.
      ...(input.runSetup && input.sharedEnvironments && input.sharedEnvironments.setupCommands.length > 0
        ? { shared: input.sharedEnvironments }
        : {}),
    });
    // Stopped before eval.sh could start (a signal between the clone and the run) is a cancelled run, not an error.
    if (outcome.spawnError !== undefined && !outcome.cancelled)
      throw new TaskRunError(`could not start eval.sh: ${outcome.spawnError}`);
    // The set-up's output may echo a proxy or index URL with its credentials: masked before anything keeps it.
    const log = redactUrlCredentials(await fs.readFile(logFile, 'utf8').catch(() => ''));
    const interrupted = outcome.timedOut
      ? `task timed out after ${Math.round(input.timeoutMs / 1000)} s`
      : outcome.cancelled
        ? 'cancelled'
        : undefined;
    const parsed = parseEvalLog(log, input.specs, nonce, interrupted);
    if (input.runSetup && input.onProgress) {
      for (const step of setupTimings(log, nonce))
        input.onProgress(`${input.label ?? 'task'}: set-up \`${step.command}\` took ${step.seconds} s`);
    }
    return {
      parsed: specResults === undefined ? parsed : withEvidenceVerdicts(parsed, specResults, interrupted),
      log,
      environment,
      timedOut: outcome.timedOut,
      cancelled: outcome.cancelled,
      durationMs: outcome.durationMs,
      scratchDir,
      // The contained runs' tamper guard puts back what it found changed, so its findings are added here.
      tamperedFiles: [
        ...new Set([
          ...(await changedTestFiles(checkout, expectedTests)),
          ...(specResults ?? []).flatMap((r) => (r.tampered ?? []).map((t) => t.path)),
        ]),
      ].sort(),
      testInfrastructure,
      ...(specResults === undefined ? {} : { specResults }),
      ...(environmentWrites === undefined ? {} : { environmentWrites }),
    };
  } finally {
    await base.dispose();
  }
}

/** The base recreated from base.bundle in a scratch folder of its own (harness and log folders go beside it). */
async function checkoutBase(input: TaskRunInput, taskDir: string): Promise<CopiedWorkspace> {
  try {
    return await copyWorkspace(path.join(taskDir, TASK_FILES.baseBundle), {
      kind: 'bundle',
      ref: input.baseCommit,
      tempPrefix: 'weave-eval-',
    });
  } catch (error) {
    throw new TaskRunError(
      `could not recreate the base from ${TASK_FILES.baseBundle}: ${(error as Error).message}`,
    );
  }
}

/**
 * The run sees only its checkout, a read-only harness folder (eval.sh and the prediction) and a log folder:
 * never the task folder, whose gold.patch a prediction could otherwise read and apply.
 */
async function harnessFiles(
  scratchDir: string,
  taskDir: string,
  patch: string,
): Promise<{ evalScript: string; patchFile: string; logDir: string; logFile: string }> {
  const harnessDir = path.join(scratchDir, 'harness');
  const logDir = path.join(scratchDir, 'log');
  await fs.mkdir(harnessDir);
  await fs.mkdir(logDir);
  const evalScript = path.join(harnessDir, TASK_FILES.evalScript);
  await fs.copyFile(path.join(taskDir, TASK_FILES.evalScript), evalScript);
  const patchFile = path.join(harnessDir, 'prediction.patch');
  await fs.writeFile(patchFile, patch);
  return { evalScript, patchFile, logDir, logFile: path.join(logDir, 'eval.log') };
}

/** Why a run stopped before eval.sh finished (for a set-up command that did not finish), if it was stopped. */
export function interruptionOf(run: TaskRunResult): string | undefined {
  if (run.timedOut) return `the run timed out after ${Math.round(run.durationMs / 1000)} s`;
  return run.cancelled ? 'cancelled' : undefined;
}

interface EvalScriptRun {
  /** Run the spec phase through Weave's contained runner instead of eval.sh (TaskRunInput.judgeWithEvidence). */
  judgeWithEvidence: boolean;
  specs: readonly TaskSpec[];
  evalScript: string;
  patchFile: string;
  logFile: string;
  checkout: string;
  nonce: string;
  runSetup: boolean;
  timeoutMs: number;
  /** Besides the checkout, what the run must be able to write (the log): for the sandbox. */
  writableDirs: string[];
  /** The spec test files in the checkout: read-only while the prediction's code runs (the specs phase). */
  protectedTestFiles: string[];
  setupVenv: boolean;
  environment: RunEnvironment;
  /** The set-up's private HOME (inside a writable dir), when the run sets up. */
  setupHome: string | undefined;
  progress: { report: (message: string) => void; label: string; intervalMs?: number } | undefined;
  signal?: AbortSignal;
  /** Set up through a shared environment where one fits (TaskRunInput.sharedEnvironments). */
  shared?: { environments: SharedEnvironments; setupCommands: readonly string[] };
}

/**
 * eval.sh as two sandboxed invocations on one checkout: first the patches and, on request, the set-up (npm
 * install, pip: only then with the host's network), then the spec runs — the prediction's code — in a fresh
 * sandbox with no network and the spec test files mounted read-only. The phases share the run's time budget.
 */
async function runEvalPhases(
  run: EvalScriptRun,
): Promise<{ outcome: CommandOutcome; specResults?: SpecResult[]; environmentWrites?: string[] }> {
  // One watch over both phases: the set-up's lines in the first, "spec N of M" in the second.
  const stopWatching = run.progress
    ? watchSetup({
        logFile: run.logFile,
        nonce: run.nonce,
        ...run.progress,
        specIds: run.specs.map((s) => s.id),
      })
    : () => undefined;
  try {
    return await runWatchedEvalPhases(run);
  } finally {
    stopWatching();
  }
}

async function runWatchedEvalPhases(
  run: EvalScriptRun,
): Promise<{ outcome: CommandOutcome; specResults?: SpecResult[]; environmentWrites?: string[] }> {
  // With shared environments the patches are applied first and the set-up is chosen after, on the tree it serves.
  const prepared = await runEvalScript(run, {
    phase: EVAL_PHASES.prepare,
    timeoutMs: run.timeoutMs,
    ...(run.setupHome === undefined ? {} : { setupHome: run.setupHome }),
    ...(run.shared ? { runSetup: false } : {}),
  });
  const fully = (o: CommandOutcome): boolean =>
    o.spawnError === undefined && !o.timedOut && !o.cancelled && o.exitCode === 0;
  // eval.sh logged why (patch, test.patch, set-up) or the run was cut short
  if (!fully(prepared)) return { outcome: prepared };
  let usedMs = prepared.durationMs;
  let copy: { env: ReadyEnvironment; copy: EnvironmentCopy } | undefined;
  if (run.shared) {
    const env = await run.shared.environments.ready(run.checkout, run.shared.setupCommands, {
      sandboxed: run.environment === 'sandbox',
      timeoutMs: Math.max(1, run.timeoutMs - usedMs),
      ...(run.signal ? { signal: run.signal } : {}),
    });
    if (env !== undefined) {
      copy = { env, copy: await EnvironmentCopy.make(env, run.checkout, run.environment === 'sandbox') };
    } else {
      // Not shared (or its build failed): the set-up runs here, as eval.sh's own step would have.
      const setup = await runSetupStep(run, run.shared.setupCommands, Math.max(1, run.timeoutMs - usedMs));
      usedMs += setup.durationMs;
      if (!fully(setup)) return { outcome: { ...setup, durationMs: usedMs } };
    }
  }
  const timeoutMs = Math.max(1, run.timeoutMs - usedMs);
  if (run.judgeWithEvidence && run.environment !== 'docker') {
    const judged = await runSpecsWithEvidence({
      checkout: run.checkout,
      specs: run.specs,
      sandboxed: run.environment === 'sandbox',
      protectedPaths: run.protectedTestFiles,
      setupVenv: run.setupVenv,
      timeoutMs,
      ...(run.signal ? { signal: run.signal } : {}),
    });
    await fs.appendFile(run.logFile, evidenceRunsLog(judged.results, run.nonce));
    const outcome: CommandOutcome = {
      ...prepared,
      timedOut: judged.timedOut,
      cancelled: judged.cancelled,
      durationMs: prepared.durationMs + judged.durationMs,
    };
    return { outcome, specResults: judged.results };
  }
  const specs = await runEvalScript(run, {
    phase: EVAL_PHASES.specs,
    timeoutMs,
    appendLog: true,
    // A venv's scripts name their interpreter at the path it was built at: readable there, never writable.
    ...(copy
      ? { readOnly: [copy.env.tree], granted: copy.env.folders.map((f) => path.join(run.checkout, f)) }
      : {}),
  });
  return {
    outcome: { ...specs, durationMs: usedMs + specs.durationMs },
    ...(copy ? { environmentWrites: await copy.copy.writes() } : {}),
  };
}

/** eval.sh's set-up step alone (the same lines and markers, appended to its log), in the prepare phase's sandbox. */
async function runSetupStep(
  run: EvalScriptRun,
  setupCommands: readonly string[],
  timeoutMs: number,
): Promise<CommandOutcome> {
  const script = path.join(path.dirname(run.evalScript), 'setup.sh');
  await fs.writeFile(script, renderSetupScript([...setupCommands]));
  const stopWatching =
    run.setupHome !== undefined && run.progress
      ? watchSetup({ logFile: run.logFile, nonce: run.nonce, ...run.progress })
      : () => undefined;
  return runEvalScript(
    { ...run, evalScript: script },
    {
      phase: EVAL_PHASES.prepare,
      timeoutMs,
      appendLog: true,
      runSetup: true,
      ...(run.setupHome === undefined ? {} : { setupHome: run.setupHome }),
    },
  ).finally(stopWatching);
}

interface EvalInvocation {
  phase: EvalPhase;
  timeoutMs: number;
  /**
   * Only the set-up gets the host's network, the set-up environment (CA and proxy variables, registry
   * settings: sandbox/setupEnvironment.ts) and this writable private HOME; nothing else of the run has any.
   */
  setupHome?: string;
  /** The spec phase adds to the log the prepare phase began. */
  appendLog?: boolean;
  /** WEAVE_RUN_SETUP for this invocation, when not the run's. */
  runSetup?: boolean;
  /** Further folders shown read-only at their own path (a shared environment's build folder). */
  readOnly?: readonly string[];
  /** Folders of the checkout already handed to the sandbox's uid (SandboxOptions.grantedDirs). */
  granted?: readonly string[];
}

/**
 * The one place a prediction's code runs (containment goes here). The log goes to a file, not through
 * runCommand's capped output: the markers can be anywhere in it. `exec` makes eval.sh the shell runCommand
 * started, so once eval.sh has re-executed itself without the nonce no process of the run holds it.
 */
async function runEvalScript(run: EvalScriptRun, invocation: EvalInvocation): Promise<CommandOutcome> {
  const sandboxed = run.environment === 'sandbox';
  const setup = invocation.setupHome === undefined ? {} : setupVariables(invocation.setupHome);
  const redirect = invocation.appendLog ? '>>' : '>';
  return runCommand({
    command: `exec sh ${shQuote(run.evalScript)} ${shQuote(run.patchFile)} ${redirect} ${shQuote(run.logFile)} 2>&1`,
    cwd: run.checkout,
    env: {
      ...setup,
      WEAVE_RUN_SETUP: (invocation.runSetup ?? run.runSetup) ? '1' : '0',
      WEAVE_PHASE: invocation.phase,
      [NONCE_VARIABLE]: run.nonce,
    },
    // A prediction is untrusted code: the allowlisted environment, the scratch folder writable and nothing
    // else, a private PID namespace.
    baseEnv: containedEnvironment(),
    ...(sandboxed
      ? {
          launcher: sandboxLauncher({
            checkout: run.checkout,
            writableDirs: run.writableDirs,
            readOnlyBinds: [
              { source: path.dirname(run.evalScript), target: path.dirname(run.evalScript) },
              ...(invocation.readOnly ?? []).map((dir) => ({ source: dir, target: dir })),
            ],
            ...(invocation.granted ? { grantedDirs: invocation.granted } : {}),
            // Once the prepare phase laid the tests down nothing may rewrite them.
            ...(invocation.phase === EVAL_PHASES.specs ? { protectedPaths: run.protectedTestFiles } : {}),
            // The set-up's private HOME and caches, writable; everything else of the scratch folder is not there.
            ...(invocation.setupHome === undefined ? {} : { home: invocation.setupHome }),
            network: invocation.setupHome === undefined ? ('none' as const) : ('host' as const),
          }),
        }
      : {}),
    timeoutMs: invocation.timeoutMs,
    ...(run.signal ? { signal: run.signal } : {}),
  });
}

/** The sandbox when it works here; unsandboxed only when the user allowed it (WEAVE_ALLOW_UNSANDBOXED=1). */
async function runEnvironment(): Promise<RunEnvironment> {
  try {
    return (await requireSandbox('environment')).sandboxed ? 'sandbox' : 'unsandboxed';
  } catch (error) {
    if (error instanceof SandboxUnavailableError) throw new TaskRunError(error.message);
    throw error;
  }
}

/** Each protected file's content on base + test.patch (undefined: absent), computed in a private index. */
async function expectedTestFiles(
  checkout: string,
  testPatch: string,
  protectedFiles: readonly string[],
): Promise<Map<string, string | undefined>> {
  const files = [...new Set(protectedFiles)];
  const expected = new Map<string, string | undefined>();
  if (files.length === 0) return expected;
  const env = { GIT_INDEX_FILE: path.join(path.dirname(checkout), 'expected.index') };
  await git(['read-tree', 'HEAD'], checkout, { isolated: true, env });
  const patch = await fs.readFile(testPatch, 'utf8').catch(() => '');
  if (patch.trim() !== '') {
    await git(['apply', '--cached', '--binary', '-'], checkout, { isolated: true, env, input: patch }).catch(
      () => undefined, // eval.sh reports a test.patch that does not apply as an infra failure itself
    );
  }
  for (const file of files) {
    expected.set(
      file,
      await git(['show', `:${file}`], checkout, { isolated: true, env }).catch(() => undefined),
    );
  }
  return expected;
}

async function changedTestFiles(
  checkout: string,
  expected: Map<string, string | undefined>,
): Promise<string[]> {
  const changed: string[] = [];
  for (const [file, content] of expected) {
    const now = await fs.readFile(path.join(checkout, file), 'utf8').catch(() => undefined);
    if (now !== content) changed.push(file);
  }
  return changed;
}
