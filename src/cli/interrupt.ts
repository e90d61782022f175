// How long-running verbs (check, agent, blame, export, eval, …) stop. SIGINT, SIGTERM and SIGHUP all mean
// "stop": the first one aborts the verb's work, whose `finally` blocks then kill process trees and remove
// checkouts and temp folders. Further signals must NOT end the process early — that is exactly what left
// worktrees and daemons behind — so they only say that cleaning up is under way. A closed stdout (`| head`)
// is the same kind of stop: clean up, then end quietly instead of dying on EPIPE.
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type StopSignal = (typeof STOP_SIGNALS)[number];
const EXIT_CODES: Record<StopSignal, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

export interface Interruptible {
  signal: AbortSignal;
  /** The conventional exit code (128 + signal) once stopped by a signal; undefined otherwise. */
  exitCode(): number | undefined;
  dispose(): void;
}

/** Traps the stop signals for one verb run; `message` is printed once, on the first. */
export function trapInterrupts(verb: string, message: string): Interruptible {
  const controller = new AbortController();
  let received: StopSignal | undefined;
  const onSignal = (name: StopSignal): void => {
    if (received === undefined) {
      received = name;
      stoppedBy ??= name;
      process.stderr.write(`\nweave ${verb}: ${message}\n`);
      controller.abort();
    } else {
      process.stderr.write(`weave ${verb}: still cleaning up (processes, checkouts, temp folders)…\n`);
    }
  };
  for (const name of STOP_SIGNALS) process.on(name, onSignal);
  const onClosedOutput = (): void => controller.abort();
  closedOutputListeners.add(onClosedOutput);
  return {
    signal: controller.signal,
    exitCode: () => (received === undefined ? undefined : EXIT_CODES[received]),
    dispose: () => {
      for (const name of STOP_SIGNALS) process.removeListener(name, onSignal);
      closedOutputListeners.delete(onClosedOutput);
    },
  };
}

let stoppedBy: StopSignal | undefined;

/**
 * 128 + the signal once a verb was stopped by one, else undefined. The verb's runner exits with it whatever the
 * verb returned after cleaning up, so a script or CI sees "stopped", not "failed".
 */
export function stopExitCode(): number | undefined {
  return stoppedBy === undefined ? undefined : EXIT_CODES[stoppedBy];
}

const closedOutputListeners = new Set<() => void>();
let outputClosed = false;

/** Installed once by the CLI's entry point: a reader that went away stops the verb instead of crashing it. */
export function handleClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      outputClosed = true;
      for (const listener of closedOutputListeners) listener();
    });
  }
}

/** True once stdout or stderr lost its reader; the exit is then quiet. */
export function isOutputClosed(): boolean {
  return outputClosed;
}
