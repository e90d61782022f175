// Stopping a long-running verb from outside, as a terminal (Ctrl-C: SIGINT), a CI runner or `kill` (SIGTERM) or
// a closed SSH session (SIGHUP) does, and checking what the stop left behind. Shared by the signal tests of
// every verb that goes through src/cli/interrupt.ts (check, agent, export, eval).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extraWorktrees } from '../support/demoWorkspace';
import { CLI } from '../support/paths';
import { until } from '../support/polling';
import { processesRunning } from './sandbox/processes';

/** The conventional exit code of a process stopped by each signal (128 + the signal's number). */
export const STOP_EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
export type StopSignal = keyof typeof STOP_EXIT_CODES;

export interface RunningWeave {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** The exit code; null when a signal killed the process instead of the verb ending itself. */
  exited: Promise<number | null>;
}

/** Starts `weave ARGS` in `cwd` (CI=true: no progress line), outside the test runner's own context. */
export function startWeave(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): RunningWeave {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, CI: 'true', ...env };
  delete childEnv.NODE_TEST_CONTEXT;
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

let sleepers = 0;

/**
 * A command line no other process has: `sleep <it>` sleeps ~1000 s, and the host sees it by this exact line even
 * inside a sandbox's PID namespace (where the `$!` a spec could write is not a host pid).
 */
export function uniqueSleep(): string {
  sleepers += 1;
  return `sleep 1000.${process.pid}${String(sleepers).padStart(3, '0')}`;
}

/** Resolves once `commandLine` runs (e.g. a spec test the verb started); fails with what the verb said if not. */
export async function untilRunning(commandLine: string, run: RunningWeave): Promise<void> {
  let ended = false;
  void run.exited.then(() => (ended = true));
  await until(
    `'${commandLine}' to start`,
    () => {
      if (ended) throw new Error(`weave ended before '${commandLine}' started:\n${run.stderr()}`);
      return processesRunning(commandLine).length > 0;
    },
    { timeoutMs: 60_000, intervalMs: 20 },
  );
}

/**
 * Sends `signals` one after another, each next one once the verb has said it got the previous one (a second
 * signal then arrives while the first one's clean-up runs; sent back to back, the process could see them in
 * either order).
 */
export async function stopWith(run: RunningWeave, signals: readonly StopSignal[]): Promise<number | null> {
  const acknowledged = (): number => (run.stderr().match(/^weave [a-z]+: /gm) ?? []).length;
  for (const [i, name] of signals.entries()) {
    const before = acknowledged();
    run.child.kill(name);
    if (i < signals.length - 1) {
      await until(
        `weave to acknowledge ${name}`,
        () => acknowledged() > before || run.child.exitCode !== null,
        {
          timeoutMs: 30_000,
          intervalMs: 10,
        },
      );
    }
  }
  return run.exited;
}

/** A temp folder of its own for one run (its TMPDIR), so a test can see every scratch folder the run left. */
export function privateTempDir(): { dir: string; leftovers(): string[]; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-stop-'));
  return {
    dir,
    leftovers: () => fs.readdirSync(dir),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Stops `run` with `signals` and asserts it stopped as it should: the signal's exit code without an internal
 * error or stack trace, `sleep` (what it was running) dead, its own temp folder empty and no git worktree left.
 */
export async function assertStopsCleanly(
  run: RunningWeave,
  signals: readonly [StopSignal, ...StopSignal[]],
  left: { sleep: string; tmp: ReturnType<typeof privateTempDir>; repo: string },
): Promise<void> {
  assert.equal(await stopWith(run, signals), STOP_EXIT_CODES[signals[0]], run.stderr());
  assert.doesNotMatch(run.stderr(), /internal error|\n\s+at .*:\d+:\d+/);
  assert.deepEqual(processesRunning(left.sleep), [], 'every process the run started is dead');
  assert.deepEqual(left.tmp.leftovers(), [], 'no scratch checkout or temp folder is left');
  assert.deepEqual(extraWorktrees(left.repo), [], 'no git worktree is left');
}
