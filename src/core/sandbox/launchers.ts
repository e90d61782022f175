// How the commands Weave runs are started, as launchers runCommand is handed (it knows process groups, time-outs
// and output, nothing of sandboxes): the full sandbox for code run on behalf of an agent or a prediction, and the
// private PID namespace for the user's own checks and the external agents of `weave bench`. The sandbox launcher
// does what must happen around each start: hand the writable folders to the sandbox's uid, make the run's memory
// cgroup (the launch line joins it before bwrap starts), and afterwards name the limit a failed run ran into.
import path from 'node:path';
import type { CommandOutcome, Launch, Launcher } from '../process/runCommand';
import {
  pidNamespaceArguments,
  sandboxCommandArguments,
  sandboxedShellText,
  sandboxSetupArguments,
  type SandboxOptions,
} from './bwrap';
import { observedCommand, processesLeft, ProtectedCopies } from './attemptObservation';
import { connectionAttempts } from './networkObservation';
import { CheckoutGrowth } from './writeCapObservation';
import { prepareNext, takePrepared } from './preparedSandbox';
import { DEPENDENCY_DIRS } from './dependencyDirs';
import { createMemoryCgroup } from './memoryCgroup';
import { checkoutWriteCap, DEFAULT_SANDBOX_LIMITS, resourceLimitHit } from './resourceLimits';
import { grantWrites } from './writeGrants';

/** Runs each command inside bubblewrap as `options` say (the caller asked requireSandbox(), sandboxPolicy.ts). */
export function sandboxLauncher(options: SandboxOptions): Launcher {
  return {
    async start(command: string, cwd: string): Promise<Launch> {
      await grantSandboxWrites(options);
      const limits = options.limits ?? DEFAULT_SANDBOX_LIMITS;
      const copies = options.observeAttempts
        ? ProtectedCopies.create(options.checkout, options.protectedPaths ?? [])
        : undefined;
      const growth = options.observeAttempts
        ? CheckoutGrowth.start(options.checkout, checkoutWriteCap(limits))
        : undefined;
      const prepared = await takePrepared(limits.memoryBytes);
      const memoryGroup = prepared?.group ?? (await createMemoryCgroup(limits.memoryBytes));
      const observed = copies ? { ...options, writableCopies: copies.binds() } : options;
      const setup = sandboxSetupArguments(observed, cwd);
      const observeNetwork = options.network === 'none';
      const shellText = sandboxedShellText(
        options,
        copies ? observedCommand(command, observeNetwork) : command,
      );
      const args = [...setup, ...sandboxCommandArguments('/bin/sh', [shellText])];
      return {
        // Without a process prepared in the group, the shell moves itself into the run's cgroup first, so bwrap
        // and all it starts are inside from their first instruction (moving a pid after spawn would race the
        // sandbox's own forks).
        ...(memoryGroup
          ? {
              file: '/bin/sh',
              args: ['-c', 'echo $$ > "$0" && exec "$@"', memoryGroup.procsFile, 'bwrap', ...args],
            }
          : { file: 'bwrap', args }),
        spawn(env: NodeJS.ProcessEnv, inheritedInputs: number) {
          // The next run's process, started and moved into its group while this run runs.
          if (memoryGroup) setImmediate(() => prepareNext(limits.memoryBytes, inheritedInputs));
          return prepared?.start(env, inheritedInputs, setup, shellText);
        },
        async finish(outcome: CommandOutcome | undefined): Promise<string | undefined> {
          const { outOfMemory } = (await memoryGroup?.finish()) ?? { outOfMemory: false };
          if (!outcome || outcome.spawnError !== undefined) return undefined;
          if (outcome.exitCode === 0 && !outOfMemory) return undefined;
          return resourceLimitHit({ ...outcome, outOfMemory }, limits);
        },
        ...(copies
          ? {
              attempts: (outcome: CommandOutcome | undefined) =>
                Promise.resolve([
                  ...copies.changedAndDispose(),
                  ...processesLeft(outcome?.output ?? ''),
                  ...(observeNetwork ? connectionAttempts(outcome?.output ?? '') : []),
                  ...(growth?.attempts() ?? []),
                ]),
            }
          : {}),
      };
    },
  };
}

/**
 * The filesystem and network as outside, in a private PID namespace so no daemon outlives the run; `hiddenDirs`
 * appear empty and read-only.
 */
export function pidNamespaceLauncher(hiddenDirs: readonly string[] = []): Launcher {
  return {
    start: (command: string, cwd: string): Promise<Launch> =>
      Promise.resolve({
        file: 'bwrap',
        args: pidNamespaceArguments(cwd, command, hiddenDirs),
        setupFailed: bwrapMountRace,
        finish: () => Promise.resolve(undefined),
      }),
  };
}

/**
 * bwrap failed while copying the host's mount tree (`--bind / /` binds every submount, and one that another program
 * unmounts meanwhile — a Docker container stopping — fails with EINVAL or ENOENT) before the command started: its
 * one line of output is bwrap's own. Seen in CI beside the Docker engine the Harbor tests start.
 */
export function bwrapMountRace(outcome: CommandOutcome): boolean {
  return outcome.exitCode === 1 && /^bwrap: Can't [^\n]*mount[^\n]*$/.test(outcome.output.trim());
}

/** `options` with further writable folders (a run's evidence and coverage folders). */
export function withWritableDirs(options: SandboxOptions, dirs: readonly string[]): SandboxOptions {
  return { ...options, writableDirs: [...(options.writableDirs ?? []), ...dirs] };
}

/**
 * The sandbox's unprivileged uid must own what it may write: the checkout (not its .git or the dependency mount
 * points, which are read-only inside) and the extra writable folders.
 */
async function grantSandboxWrites(sandbox: SandboxOptions): Promise<void> {
  const skip = new Set([path.join(sandbox.checkout, '.git')]);
  for (const bind of sandbox.readOnlyBinds ?? []) skip.add(path.resolve(bind.target));
  for (const name of DEPENDENCY_DIRS) skip.add(path.join(sandbox.checkout, name));
  for (const dir of sandbox.grantedDirs ?? []) skip.add(path.resolve(dir));
  const dirs = [...(sandbox.writableDirs ?? [])];
  if (sandbox.home) dirs.push(sandbox.home);
  await grantWrites(sandbox.checkout, dirs, skip);
}
