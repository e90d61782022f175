// A sandboxed run's bwrap process, started and moved into its memory cgroup ahead of the run. Moving a process into
// a cgroup costs ~10 ms on cgroup v1 (the mover waits out an RCU grace period; measured, issue #22), while a process
// forked inside the group costs nothing extra. So while one run runs, the next run's bwrap is spawned with
// `--args FD` (it blocks reading its options from that pipe), moved into a fresh group, and left waiting; the next
// run writes its options to the pipe and takes the process over, stdio pipes and all. The command line of a waiting
// process is fixed, so the run's command reaches the sandboxed shell through a variable that shell unsets before it
// starts the command (bwrap reads `--args` data as options only). The environment is set by `--clearenv` and one
// `--setenv` per variable: the waiting process itself holds none of the run's environment.
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import type { Writable } from 'node:stream';
import { sandboxCommandArguments } from './bwrap';
import { createMemoryCgroup, type RunCgroup } from './memoryCgroup';

/** Carries the run's command from the options to the sandboxed shell, which unsets it first. */
const COMMAND_VARIABLE = 'WEAVE_SANDBOX_COMMAND';
const STARTER = `c=$${COMMAND_VARIABLE}; unset ${COMMAND_VARIABLE}; exec /bin/sh -c "$c"`;

interface Waiting {
  limitBytes: number;
  inheritedInputs: number;
  child: ChildProcess;
  group: RunCgroup;
  exited: boolean;
  idleTimer?: NodeJS.Timeout;
}

/**
 * A waiting process not taken within this long is stopped: runs of a batch follow each other within milliseconds,
 * and between batches (an editor left open) Weave leaves no process of its own running.
 */
const IDLE_MS = 1000;

/** The one waiting process (runs of one process share their limit and inputs, so one is enough). */
let waiting: Promise<Waiting | undefined> | undefined;
let handOvers = 0;
/** The waiting process, known synchronously for the exit handler. */
let idleChild: ChildProcess | undefined;

/** How many runs of this process were handed a prepared process; for tests. */
export function preparedHandOvers(): number {
  return handOvers;
}

/** The waiting process for a run limited to `limitBytes`, if one is ready (in its group); taken, so no one else gets it. */
export async function takePrepared(limitBytes: number): Promise<PreparedRun | undefined> {
  const taken = waiting;
  waiting = undefined;
  idleChild = undefined;
  const ready = await taken;
  if (!ready) return undefined;
  clearTimeout(ready.idleTimer);
  if (ready.exited || ready.limitBytes !== limitBytes) {
    await dispose(ready);
    return undefined;
  }
  return new PreparedRun(ready);
}

/** Prepares the next run's process (in the background) unless one with the same shape waits already. */
export function prepareNext(limitBytes: number, inheritedInputs: number): void {
  // Runs hand over one input (the evidence key); a shape beyond a few is not worth a process kept waiting.
  if (waiting !== undefined || inheritedInputs > 6) return;
  const next = prepare(limitBytes, inheritedInputs).catch(() => undefined);
  waiting = next;
  void next.then((state) => {
    if (!state) return;
    state.idleTimer = setTimeout(() => {
      if (waiting !== next) return;
      waiting = undefined;
      idleChild = undefined;
      void dispose(state);
    }, IDLE_MS).unref();
  });
}

export class PreparedRun {
  constructor(private readonly prepared: Waiting) {}

  get group(): RunCgroup {
    return this.prepared.group;
  }

  /**
   * Starts the run: bwrap gets `setup` as its options, `env` as the whole environment and `shellText` as the
   * sandboxed shell's command. Undefined (and the process killed) when it cannot serve this run.
   */
  start(
    env: NodeJS.ProcessEnv,
    inheritedInputs: number,
    setup: readonly string[],
    shellText: string,
  ): ChildProcess | undefined {
    const { child } = this.prepared;
    if (this.prepared.exited || inheritedInputs !== this.prepared.inheritedInputs) {
      child.kill('SIGKILL');
      return undefined;
    }
    const options = ['--clearenv'];
    for (const [name, value] of Object.entries(env)) {
      if (value !== undefined) options.push('--setenv', name, value);
    }
    options.push('--setenv', COMMAND_VARIABLE, shellText, ...setup);
    const argsPipe = child.stdio[3 + inheritedInputs] as Writable;
    argsPipe.on('error', () => undefined);
    argsPipe.end(options.map((o) => `${o}\0`).join(''));
    child.ref();
    for (const stream of child.stdio) refStream(stream, true);
    handOvers++;
    return child;
  }
}

async function prepare(limitBytes: number, inheritedInputs: number): Promise<Waiting | undefined> {
  const group = await createMemoryCgroup(limitBytes);
  if (!group) return undefined;
  const argsFd = 3 + inheritedInputs;
  const child = spawn('bwrap', ['--args', String(argsFd), ...sandboxCommandArguments('/bin/sh', [STARTER])], {
    cwd: '/',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', ...Array.from({ length: inheritedInputs + 1 }, () => 'pipe' as const)],
  });
  idleChild = child;
  const state: Waiting = { limitBytes, inheritedInputs, child, group, exited: false };
  child.once('exit', () => (state.exited = true));
  child.once('error', () => (state.exited = true));
  // A waiting process must not keep Weave alive; when Weave exits, its options pipe closes and bwrap stops.
  child.unref();
  for (const stream of child.stdio) refStream(stream, false);
  if (child.pid === undefined) {
    await dispose(state);
    return undefined;
  }
  try {
    await fs.writeFile(group.procsFile, String(child.pid));
  } catch {
    await dispose(state);
    return undefined;
  }
  return state;
}

async function dispose(state: Waiting): Promise<void> {
  state.child.kill('SIGKILL');
  for (const stream of state.child.stdio) stream?.destroy();
  await state.group.finish();
}

function refStream(stream: unknown, ref: boolean): void {
  const handle = stream as { ref?: () => void; unref?: () => void } | null;
  if (ref) handle?.ref?.();
  else handle?.unref?.();
}

process.once('exit', () => {
  idleChild?.kill('SIGKILL');
});
