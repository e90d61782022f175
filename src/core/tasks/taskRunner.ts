// Runs one patch against one task folder the way a harness would: clone base.bundle into a scratch folder,
// check out base_commit, run eval.sh with the patch, parse its markers. Shared by export (verification) and
// eval (scoring). The whole process tree of eval.sh is killed on timeout or abort (runCommand), and the scratch
// folder is always removed.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand, type CommandOutcome } from '../process/runCommand';
import { detectSandbox } from '../sandbox/bwrap';
import { git } from '../git/git';
import { parseEvalLog, type ParsedEvalLog } from './evalLog';
import { EVAL_PHASES, type EvalPhase } from './evalScript';
import { NONCE_VARIABLE, shQuote } from './specRunsScript';
import { TASK_FILES, type TaskSpec } from './taskFormat';

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
}

export interface TaskRunResult {
  parsed: ParsedEvalLog;
  /** eval.sh's full output. */
  log: string;
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
  const scratchDir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-eval-'));
  try {
    const checkout = path.join(scratchDir, 'repo');
    try {
      await git(
        ['clone', '-q', '--no-checkout', path.join(taskDir, TASK_FILES.baseBundle), checkout],
        scratchDir,
        { isolated: true },
      );
      await git(['checkout', '-q', '--detach', input.baseCommit], checkout, { isolated: true });
    } catch (error) {
      throw new TaskRunError(
        `could not recreate the base from ${TASK_FILES.baseBundle}: ${(error as Error).message}`,
      );
    }
    const expectedTests = await expectedTestFiles(checkout, path.join(taskDir, TASK_FILES.testPatch), [
      ...input.specs.flatMap((s) => s.test.files),
      ...input.protectedFiles,
    ]);
    const patchFile = path.join(scratchDir, 'prediction.patch');
    await fs.writeFile(patchFile, input.patch);
    const logFile = path.join(scratchDir, 'eval.log');
    const nonce = randomBytes(16).toString('hex');
    const outcome = await runEvalPhases({
      evalScript: path.join(taskDir, TASK_FILES.evalScript),
      patchFile,
      logFile,
      checkout,
      nonce,
      runSetup: input.runSetup,
      timeoutMs: input.timeoutMs,
      writableDirs: [scratchDir],
      ...(input.signal ? { signal: input.signal } : {}),
    });
    // Stopped before eval.sh could start (a signal between the clone and the run) is a cancelled run, not an error.
    if (outcome.spawnError !== undefined && !outcome.cancelled)
      throw new TaskRunError(`could not start eval.sh: ${outcome.spawnError}`);
    const log = await fs.readFile(logFile, 'utf8').catch(() => '');
    const interrupted = outcome.timedOut
      ? `task timed out after ${Math.round(input.timeoutMs / 1000)} s`
      : outcome.cancelled
        ? 'cancelled'
        : undefined;
    return {
      parsed: parseEvalLog(log, input.specs, nonce, interrupted),
      log,
      timedOut: outcome.timedOut,
      cancelled: outcome.cancelled,
      durationMs: outcome.durationMs,
      scratchDir,
      tamperedFiles: await changedTestFiles(checkout, expectedTests),
    };
  } finally {
    await fs.rm(scratchDir, { recursive: true, force: true });
  }
}

interface EvalScriptRun {
  evalScript: string;
  patchFile: string;
  logFile: string;
  checkout: string;
  nonce: string;
  runSetup: boolean;
  timeoutMs: number;
  /** Besides the checkout, what the run must be able to write (the log): for the sandbox. */
  writableDirs: string[];
  signal?: AbortSignal;
}

/**
 * eval.sh as separate sandboxed invocations on one checkout: with set-up, first the patches and the set-up
 * (npm install, pip: it needs the network), then the spec runs — the prediction's code — in a fresh sandbox with
 * no network. Without set-up, one invocation with no network. The phases share the run's time budget.
 */
async function runEvalPhases(run: EvalScriptRun): Promise<CommandOutcome> {
  if (!run.runSetup) return runEvalScript(run, { phase: EVAL_PHASES.all, timeoutMs: run.timeoutMs });
  const prepared = await runEvalScript(run, {
    phase: EVAL_PHASES.prepare,
    timeoutMs: run.timeoutMs,
    hostNetwork: true,
  });
  const preparedFully =
    prepared.spawnError === undefined && !prepared.timedOut && !prepared.cancelled && prepared.exitCode === 0;
  if (!preparedFully) return prepared; // eval.sh logged why (patch, test.patch, set-up) or the run was cut short
  const specs = await runEvalScript(run, {
    phase: EVAL_PHASES.specs,
    timeoutMs: Math.max(1, run.timeoutMs - prepared.durationMs),
    appendLog: true,
  });
  return { ...specs, durationMs: prepared.durationMs + specs.durationMs };
}

interface EvalInvocation {
  phase: EvalPhase;
  timeoutMs: number;
  /** Only the set-up gets the host's network; nothing else of the run has any. */
  hostNetwork?: boolean;
  /** The spec phase adds to the log the prepare phase began. */
  appendLog?: boolean;
}

/**
 * The one place a prediction's code runs (containment goes here). The log goes to a file, not through
 * runCommand's capped output: the markers can be anywhere in it. `exec` makes eval.sh the shell runCommand
 * started, so once eval.sh has re-executed itself without the nonce no process of the run holds it.
 */
async function runEvalScript(run: EvalScriptRun, invocation: EvalInvocation): Promise<CommandOutcome> {
  const availability = await detectSandbox();
  if (!availability.available && process.env.WEAVE_ALLOW_UNSANDBOXED !== '1') {
    throw new TaskRunError(
      `${availability.reason ?? 'no sandbox'}: predictions run only inside a sandbox ` +
        '(set WEAVE_ALLOW_UNSANDBOXED=1 to run them unsandboxed anyway)',
    );
  }
  const redirect = invocation.appendLog ? '>>' : '>';
  return runCommand({
    command: `exec sh ${shQuote(run.evalScript)} ${shQuote(run.patchFile)} ${redirect} ${shQuote(run.logFile)} 2>&1`,
    cwd: run.checkout,
    env: {
      WEAVE_RUN_SETUP: run.runSetup ? '1' : '0',
      WEAVE_PHASE: invocation.phase,
      [NONCE_VARIABLE]: run.nonce,
    },
    // A prediction is untrusted code: the allowlisted environment, the scratch folder writable and nothing
    // else, a private PID namespace.
    inheritEnv: false,
    ...(availability.available
      ? {
          sandbox: {
            checkout: run.checkout,
            writableDirs: run.writableDirs,
            // The task folder (eval.sh, base.bundle) may live under /tmp, which is private inside.
            readOnlyBinds: [{ source: path.dirname(run.evalScript), target: path.dirname(run.evalScript) }],
            network: invocation.hostNetwork ? ('host' as const) : ('none' as const),
          },
        }
      : {}),
    timeoutMs: invocation.timeoutMs,
    ...(run.signal ? { signal: run.signal } : {}),
  });
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
