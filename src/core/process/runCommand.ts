// Runs one shell command the way the user wrote it (`/bin/sh -c` on POSIX, cmd.exe on Windows) in its own
// process group, with a timeout, cancellation, and bounded output. Whatever happens, no process of the command
// outlives the returned promise: on timeout or abort the whole tree is killed, and after a normal exit anything
// the command left running in the background is killed too.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { Attempt } from '../../shared/attempts';
import { OutputCapture } from './outputCapture';
import { RUN_MARKER_VARIABLE, killProcessTree, processStartTime, treeOutlivesExit } from './processTree';

export interface RunCommandOptions {
  command: string;
  cwd: string;
  /** Added to (and overriding) the environment the command starts from (baseEnv). */
  env?: Record<string, string>;
  /**
   * The environment the command starts from; default all of process.env. Contained runs hand over the
   * allowlisted one (sandbox/environment.ts containedEnvironment()): process sits below sandbox and does not
   * choose it itself.
   */
  baseEnv?: Readonly<NodeJS.ProcessEnv>;
  /** How the command is started (sandbox/launchers.ts: the sandbox, a PID namespace); default `/bin/sh -c`. */
  launcher?: Launcher;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Bytes kept from the start and, separately, from the end of the output. Default 256 KiB each. */
  outputCapBytes?: number;
  /** Time between SIGTERM and SIGKILL when killing the tree. Default 2 s. */
  killGraceMs?: number;
  /**
   * Data handed to the command on inherited descriptors 3, 4, …: each is a socket whose only content is its
   * data, then end of file. Unlike the environment or argv it is in no /proc file, and a reader takes it
   * out (bwrap and sh pass such descriptors on untouched).
   */
  inheritedInputs?: readonly string[];
}

export interface CommandOutcome {
  /** Exit code of the shell; 127 = command not found, 126 = not executable. Null when killed by a signal. */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  /** Why the command could not be started at all (e.g. the working directory does not exist). */
  spawnError?: string;
  /** stdout and stderr interleaved in arrival order, head and tail kept. */
  output: string;
  truncatedBytes: number;
  durationMs: number;
  /** A command that did not exit 0 and ran into one of its launcher's limits (the sandbox's): which, in words. */
  resourceLimit?: string;
  /** What the command tried that its launcher refused or contained (the sandbox's observation), when it looked. */
  attempts?: Array<Pick<Attempt, 'kind' | 'target'>>;
}

/** Starts commands some other way than a plain shell: the program and arguments that run `command` in `cwd`. */
export interface Launcher {
  start(command: string, cwd: string): Promise<Launch>;
}

export interface Launch {
  file: string;
  args: string[];
  /**
   * Starts the launch line itself instead of runCommand (the sandbox hands over a process it started and placed
   * ahead of the run): a child in its own process group with stdio `ignore, pipe, pipe` and one pipe per inherited
   * input, whose environment is `env`; undefined lets runCommand spawn `file` with `args` as usual.
   */
  spawn?(env: NodeJS.ProcessEnv, inheritedInputs: number): ChildProcess | undefined;
  /**
   * Whether `outcome` is the launcher's own failure before the command started, one a new attempt can get past
   * (bwrap copying the host's mounts while another program mounts or unmounts): then runCommand starts it again.
   */
  setupFailed?(outcome: CommandOutcome): boolean;
  /** Once the command's whole tree is gone (outcome undefined: it could not be started): a limit it hit, if any. */
  finish(outcome: CommandOutcome | undefined): Promise<string | undefined>;
  /** After finish: what the command tried that the launcher refused or contained (it is always called once). */
  attempts?(outcome: CommandOutcome | undefined): Promise<Array<Pick<Attempt, 'kind' | 'target'>>>;
}

export const DEFAULT_OUTPUT_CAP_BYTES = 256 * 1024;
const DEFAULT_KILL_GRACE_MS = 2000;
/** Starts of one command at most, when its launcher's set-up failed (Launch.setupFailed). */
const SETUP_ATTEMPTS = 3;
/** After the tree is gone the pipes close at once; this only guards against a descendant we could not find. */
const PIPE_CLOSE_GRACE_MS = 1000;

export async function runCommand(options: RunCommandOptions): Promise<CommandOutcome> {
  const started = performance.now();
  if (options.signal?.aborted) return notStartedOutcome('cancelled before it started', started, true);
  const cwdProblem = await checkDirectory(options.cwd);
  if (cwdProblem) return notStartedOutcome(cwdProblem, started);

  const env: NodeJS.ProcessEnv = { ...(options.baseEnv ?? process.env), ...options.env };
  // Set when Weave itself runs under `node --test`: it would make a spec's own `node --test` report to that
  // outer runner in a binary protocol instead of printing its summary.
  if (options.env?.NODE_TEST_CONTEXT === undefined) delete env.NODE_TEST_CONTEXT;
  for (let attempt = 1; ; attempt++) {
    const line: Launch = options.launcher
      ? await options.launcher.start(options.command, options.cwd)
      : { file: options.command, args: [], finish: () => Promise.resolve(undefined) };
    let outcome: CommandOutcome | undefined;
    let resourceLimit: string | undefined;
    let attempts: CommandOutcome['attempts'];
    try {
      outcome = await launch(options, env, line, started);
    } finally {
      try {
        resourceLimit = await line.finish(outcome);
      } finally {
        attempts = await line.attempts?.(outcome);
      }
    }
    if (attempt < SETUP_ATTEMPTS && !options.signal?.aborted && line.setupFailed?.(outcome)) continue;
    return {
      ...outcome,
      ...(resourceLimit ? { resourceLimit } : {}),
      ...(attempts && attempts.length > 0 ? { attempts } : {}),
    };
  }
}

function notStartedOutcome(spawnError: string, started: number, cancelled = false): CommandOutcome {
  return {
    exitCode: null,
    signal: null,
    timedOut: false,
    cancelled,
    spawnError,
    output: '',
    truncatedBytes: 0,
    durationMs: performance.now() - started,
  };
}

/** Starts the command by its launch line and waits until its whole tree is gone. */
async function launch(
  options: RunCommandOptions,
  baseEnv: NodeJS.ProcessEnv,
  line: Omit<Launch, 'finish'>,
  started: number,
): Promise<CommandOutcome> {
  const graceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const notStarted = (spawnError: string): CommandOutcome => notStartedOutcome(spawnError, started);
  const marker = randomBytes(12).toString('hex');
  const inputs = options.inheritedInputs ?? [];
  const env = { ...baseEnv, [RUN_MARKER_VARIABLE]: marker };
  const child = line.spawn?.(env, inputs.length) ?? spawnChild(options, env, line.file, line.args);
  if (typeof child === 'string') return notStarted(child);
  const stdout = child.stdout as Readable;
  const stderr = child.stderr as Readable;
  const capture = captureOutput(child, options.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES, inputs);

  const pid = child.pid;
  const spawnFailure = new Promise<string>((resolve) => child.once('error', (e) => resolve(e.message)));
  if (pid === undefined) return notStarted(`could not start the shell: ${await spawnFailure}`);
  const rootStartTime = processStartTime(pid);

  let timedOut = false;
  let cancelled = false;
  let killing: Promise<void> | undefined;
  const killTree = (): Promise<void> => (killing ??= killProcessTree(pid, marker, graceMs, rootStartTime));
  const timer = setTimeout(() => {
    timedOut = true;
    void killTree();
  }, options.timeoutMs);
  const onAbort = (): void => {
    cancelled = true;
    void killTree();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // An abort while the launcher prepared this run (a sandbox set-up is awaited after runCommand's first check) has
  // already fired and will not fire again: without this the run went on until its time-out (120 s by default).
  if (options.signal?.aborted) onAbort();

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  try {
    const { code, signal } = await exited;
    clearTimeout(timer);
    // Background processes the command left behind (a server, `sleep &`) must not survive the run; a sandbox's
    // namespace still being torn down is given a moment to finish instead (treeOutlivesExit).
    if (killing || (await treeOutlivesExit(pid, marker, rootStartTime))) await killTree();
    await Promise.race([closed, delayMs(PIPE_CLOSE_GRACE_MS)]);
    stdout.destroy();
    stderr.destroy();
    for (let i = 0; i < inputs.length; i++) (child.stdio[3 + i] as Writable | null)?.destroy();
    const output = capture.result();
    return {
      exitCode: code,
      signal,
      timedOut,
      cancelled: cancelled && !timedOut,
      output: output.text,
      truncatedBytes: output.truncatedBytes,
      durationMs: performance.now() - started,
    };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** The child started in its own process group, or why it could not be. */
function spawnChild(
  options: RunCommandOptions,
  env: NodeJS.ProcessEnv,
  file: string,
  args: string[],
): ChildProcess | string {
  const isWindows = process.platform === 'win32';
  try {
    return spawn(file, args, {
      cwd: options.cwd,
      env,
      shell: file === options.command ? (isWindows ? true : '/bin/sh') : false,
      // POSIX: own session and process group, so the group can be signalled as a whole.
      detached: !isWindows,
      stdio: ['ignore', 'pipe', 'pipe', ...(options.inheritedInputs ?? []).map(() => 'pipe' as const)],
      windowsHide: true,
    });
  } catch (error) {
    // spawn throws (rather than emitting 'error') on arguments no process can take, e.g. a NUL byte.
    return `could not start the command: ${(error as Error).message}`;
  }
}

/** stdout and stderr into one bounded capture; each inherited input written to its descriptor and closed. */
function captureOutput(child: ChildProcess, capBytes: number, inputs: readonly string[]): OutputCapture {
  const capture = new OutputCapture(capBytes, capBytes);
  (child.stdout as Readable).on('data', (chunk: Buffer) => capture.push(chunk));
  (child.stderr as Readable).on('data', (chunk: Buffer) => capture.push(chunk));
  inputs.forEach((data, i) => {
    const input = child.stdio[3 + i] as Writable | null;
    if (!input) return;
    // A command that closes the descriptor unread (or is gone) is not an error of the run.
    input.on('error', () => undefined);
    input.end(data);
  });
  return capture;
}

async function checkDirectory(dir: string): Promise<string | undefined> {
  try {
    const stat = await fs.stat(dir);
    return stat.isDirectory() ? undefined : `working directory is not a directory: ${dir}`;
  } catch {
    return `working directory does not exist: ${dir}`;
  }
}

function delayMs(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
