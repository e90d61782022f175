// Runs one patch against one task folder the way a harness would: clone base.bundle into a scratch folder,
// check out base_commit, run eval.sh with the patch, parse its markers. Shared by export (verification) and
// eval (scoring). The whole process tree of eval.sh is killed on timeout or abort (runCommand), and the scratch
// folder is always removed.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand } from '../process/runCommand';
import { git } from './gitExec';
import { parseEvalLog, type ParsedEvalLog } from './evalLog';
import { shQuote } from './evalScript';
import { TASK_FILES, type TaskSpec } from './taskFormat';

export interface TaskRunInput {
  taskDir: string;
  baseCommit: string;
  specs: readonly TaskSpec[];
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
}

export class TaskRunError extends Error {}

export async function runTaskPatch(input: TaskRunInput): Promise<TaskRunResult> {
  const taskDir = path.resolve(input.taskDir);
  const scratchDir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-eval-'));
  try {
    const checkout = path.join(scratchDir, 'repo');
    try {
      await git(['clone', '-q', '--no-checkout', path.join(taskDir, TASK_FILES.baseBundle), checkout], {
        cwd: scratchDir,
        isolated: true,
      });
      await git(['checkout', '-q', '--detach', input.baseCommit], { cwd: checkout, isolated: true });
    } catch (error) {
      throw new TaskRunError(
        `could not recreate the base from ${TASK_FILES.baseBundle}: ${(error as Error).message}`,
      );
    }
    const patchFile = path.join(scratchDir, 'prediction.patch');
    await fs.writeFile(patchFile, input.patch);
    const logFile = path.join(scratchDir, 'eval.log');
    // The log goes to a file, not through runCommand's capped output: the markers can be anywhere in it.
    const evalScript = path.join(taskDir, TASK_FILES.evalScript);
    const outcome = await runCommand({
      command: `sh ${shQuote(evalScript)} ${shQuote(patchFile)} > ${shQuote(logFile)} 2>&1`,
      cwd: checkout,
      env: { WEAVE_RUN_SETUP: input.runSetup ? '1' : '0' },
      timeoutMs: input.timeoutMs,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    if (outcome.spawnError !== undefined)
      throw new TaskRunError(`could not start eval.sh: ${outcome.spawnError}`);
    const log = await fs.readFile(logFile, 'utf8').catch(() => '');
    const interrupted = outcome.timedOut
      ? `task timed out after ${Math.round(input.timeoutMs / 1000)} s`
      : outcome.cancelled
        ? 'cancelled'
        : undefined;
    return {
      parsed: parseEvalLog(log, input.specs, interrupted),
      log,
      timedOut: outcome.timedOut,
      cancelled: outcome.cancelled,
      durationMs: outcome.durationMs,
      scratchDir,
    };
  } finally {
    await fs.rm(scratchDir, { recursive: true, force: true });
  }
}
