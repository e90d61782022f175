// The OS sandbox around code Weave runs on behalf of an agent or a prediction: bubblewrap (Linux user/mount/PID
// namespaces, Debian's `bubblewrap`). Chosen over @anthropic-ai/sandbox-runtime because Weave needs exactly
// bwrap's primitives (bind a checkout writable, a root built from an allowlist, a private PID namespace, no
// network) and nothing of its proxy machinery; the runtime would add a dependency tree and a second policy
// language for the same bwrap call.
//
// Threat model (README, Containment): the code under test is hostile, runs in the test's own process, knows
// Weave's source, and Weave itself may be root. Inside:
//  - no privilege: an unprivileged uid with no capability and no_new_privs (sandboxUser.ts), limits on processes,
//    file size and /tmp (resourceLimits.ts);
//  - a root built from an allowlist (sandboxRoot.ts): system folders and toolchains read-only, no home (a private
//    empty HOME), no /run, no other project; then the run's checkout writable, its own .git read-only, the
//    caller's protected files and folders read-only *over* the checkout (so a rewrite fails while the run is still
//    going, instead of only being noticed by the hashes afterwards), dependency folders and Weave's hooks read-only;
//  - its own PID namespace and /proc (a daemon dies with the run; no other process's environ or namespaces to
//    reach), a private IPC and UTS namespace, and no network unless the caller allows the host's (a private
//    loopback interface exists, so a test can still talk to a server it starts itself).
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { unroutableResolverBind } from './networkObservation';
import { DEFAULT_SANDBOX_LIMITS, limitPrologue, type SandboxLimits } from './resourceLimits';
import { credentialsInside, isInside, systemRootArguments, toolchainDirs } from './sandboxRoot';
import { dropPrivilegeArguments, identityArguments, runsAsRoot } from './sandboxUser';

/** Inside the sandbox HOME is a private, empty folder on the size-capped /tmp. */
export const SANDBOX_HOME = '/tmp/home';

/** `none`: a private network namespace with only its own loopback. `host`: the host's network, loopback included. */
export type NetworkAccess = 'none' | 'host';

export interface SandboxOptions {
  /** The run's own standalone checkout: the only writable part of the real filesystem (besides writableDirs). */
  checkout: string;
  /** Further folders the run may write (results and coverage folders Weave reads afterwards). */
  writableDirs?: readonly string[];
  /** Folders shown read-only at another path inside the sandbox (the user's node_modules in the checkout). */
  readOnlyBinds?: ReadonlyArray<{ source: string; target: string }>;
  /**
   * Files and folders inside the checkout mounted read-only over it (the protected set: spec tests, `.weave`,
   * runner configs, test helpers): writing, truncating, renaming or deleting them fails inside.
   */
  protectedPaths?: readonly string[];
  /**
   * Record what the run tries (attemptObservation.ts): protected files shown as writable scratch copies compared
   * afterwards, the processes its command leaves behind and, without network, its refused connection attempts
   * (networkObservation.ts). For spec runs; never for set-up steps.
   */
  observeAttempts?: boolean;
  /** Protected files shown as these writable scratch copies instead of read-only (attemptObservation.ts). */
  writableCopies?: ReadonlyArray<{ source: string; target: string }>;
  /**
   * Folders inside the checkout already handed to the sandbox's uid, not walked again before the run (a shared
   * environment's copy, whose entries' ctimes are what shows a write into it).
   */
  grantedDirs?: readonly string[];
  /** Folders never shown, even when a toolchain prefix would contain them: the user's repository. */
  hiddenDirs?: readonly string[];
  /** A host folder to be HOME inside, writable (set-up steps' private home and caches); default: an empty one. */
  home?: string;
  network: NetworkAccess;
  limits?: SandboxLimits;
}

export interface SandboxAvailability {
  available: boolean;
  /** Why not, for the message that asks the user to opt out explicitly. */
  reason?: string;
}

let probed: Promise<SandboxAvailability> | undefined;

/**
 * Whether the sandbox works here (probed once per process): bubblewrap is installed and may create namespaces,
 * and the identity switch and limits run inside — the probe is the real argument list around `true`.
 */
export function detectSandbox(): Promise<SandboxAvailability> {
  probed ??= probeBwrap();
  return probed;
}

function probeBwrap(): Promise<SandboxAvailability> {
  if (process.platform !== 'linux') {
    return Promise.resolve({
      available: false,
      reason: `no sandbox on ${process.platform}: Weave's sandbox needs Linux bubblewrap`,
    });
  }
  return new Promise((resolve) => {
    const args = sandboxArguments({ checkout: '/nonexistent-weave-probe', network: 'none' }, '/', 'true');
    execFile('bwrap', args, { timeout: 10_000 }, (error, _stdout, stderr) => {
      if (!error) resolve({ available: true });
      else if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        resolve({
          available: false,
          reason: 'bubblewrap (bwrap) is not installed: `apt-get install bubblewrap`',
        });
      else
        resolve({
          available: false,
          reason: `bubblewrap cannot create namespaces here: ${String(stderr).trim() || error.message}`,
        });
    });
  });
}

/** bwrap's arguments that run `/bin/sh -c command` in `cwd` contained as `options` say. */
export function sandboxArguments(options: SandboxOptions, cwd: string, command: string): string[] {
  return [
    ...sandboxSetupArguments(options, cwd),
    ...sandboxCommandArguments('/bin/sh', [sandboxedShellText(options, command)]),
  ];
}

/** What the sandboxed shell runs: the limits, then the command (on one line, so its line numbers stay the command's). */
export function sandboxedShellText(options: SandboxOptions, command: string): string {
  return limitPrologue(options.limits ?? DEFAULT_SANDBOX_LIMITS) + command;
}

/**
 * The end of bwrap's arguments: `program -c …args`, started as the sandbox's unprivileged uid. The limits are set by
 * the command's own shell, after the switch to that uid and before the command's first line.
 */
export function sandboxCommandArguments(shell: string, shellArgs: readonly string[]): string[] {
  return ['--', ...dropPrivilegeArguments(runsAsRoot()), shell, '-c', ...shellArgs];
}

/** bwrap's options (everything before the command) that contain a run in `cwd` as `options` say. */
export function sandboxSetupArguments(options: SandboxOptions, cwd: string): string[] {
  const asRoot = runsAsRoot();
  const limits = options.limits ?? DEFAULT_SANDBOX_LIMITS;
  const args = [...identityArguments(asRoot), '--tmpfs', '/', ...systemRootArguments()];
  args.push('--dev', '/dev', '--proc', '/proc');
  args.push('--perms', '1777', '--size', String(limits.tmpBytes), '--tmpfs', '/tmp');
  args.push('--symlink', '/tmp', '/var/tmp');
  const hidden = [...(options.hiddenDirs ?? [])];
  const toolchains = toolchainDirs(process.env, [...hidden, options.checkout]);
  const targets = [
    ...toolchains,
    options.checkout,
    ...(options.readOnlyBinds ?? []).map((b) => b.target),
    ...(options.writableDirs ?? []),
    ...(options.home ? [options.home] : []),
  ];
  args.push(...traversableParents(targets));
  for (const dir of toolchains) args.push('--ro-bind', dir, dir);
  for (const store of credentialsInside(toolchains)) args.push(...maskArguments(store));
  // A name lookup in an observed run without network must reach the counted refusal (networkObservation.ts).
  const resolver =
    options.observeAttempts && options.network === 'none' ? unroutableResolverBind() : undefined;
  if (resolver) args.push('--ro-bind', resolver.source, resolver.target);
  if (existsSync(options.checkout)) args.push('--bind', options.checkout, options.checkout);
  const ownGit = path.join(options.checkout, '.git');
  if (existsSync(ownGit)) args.push('--ro-bind', ownGit, ownGit);
  for (const bind of options.readOnlyBinds ?? []) args.push('--ro-bind', bind.source, bind.target);
  for (const dir of options.writableDirs ?? []) args.push('--bind', dir, dir);
  // Last, so nothing bound later can uncover them; only paths inside the checkout, present now.
  const copies = new Map((options.writableCopies ?? []).map((c) => [c.target, c.source]));
  for (const p of options.protectedPaths ?? []) {
    if (!isInside(options.checkout, p) || !existsSync(p)) continue;
    const copy = copies.get(p);
    args.push(...(copy === undefined ? ['--ro-bind', p, p] : ['--bind', copy, p]));
  }
  const home = options.home ?? SANDBOX_HOME;
  if (options.home) args.push('--bind', options.home, options.home);
  // bwrap makes the private HOME as the uid it runs as: as root that is not the sandbox's uid, which is the only
  // uid inside, so the folder is opened to all instead of being made by the command's uid (an mkdir per run).
  else args.push('--perms', asRoot ? '0777' : '0700', '--dir', home);
  args.push('--setenv', 'HOME', home);
  // git refuses a repository owned by another uid; the checkout's .git belongs to Weave and is read-only inside.
  args.push('--setenv', 'GIT_CONFIG_COUNT', '1', '--setenv', 'GIT_CONFIG_KEY_0', 'safe.directory');
  args.push('--setenv', 'GIT_CONFIG_VALUE_0', '*');
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  if (options.network === 'none') args.push('--unshare-net');
  args.push('--die-with-parent', '--new-session', '--chdir', cwd);
  return args;
}

/** Mounts made before the binds: the folders themselves exist, and nothing can be created in the read-only ones. */
const OWN_MOUNTS = ['/tmp', '/dev', '/proc'];
const READ_ONLY_MOUNTS = ['/usr', '/etc', '/opt'];

/**
 * The folders on the way to each bind target, created 0755 first: bwrap would otherwise copy the host folder's mode
 * (/root and mkdtemp's folders are 0700), and the sandbox's uid could not reach what is bound below them.
 */
function traversableParents(targets: readonly string[]): string[] {
  const made = new Set<string>();
  const args: string[] = [];
  for (const target of targets) {
    const parts = path.resolve(target).split('/').filter(Boolean);
    for (let i = 1; i < parts.length; i++) {
      const dir = `/${parts.slice(0, i).join('/')}`;
      if (made.has(dir) || OWN_MOUNTS.includes(dir) || READ_ONLY_MOUNTS.some((ro) => isInside(ro, dir)))
        continue;
      made.add(dir);
      args.push('--perms', '0755', '--dir', dir);
    }
  }
  return args;
}

function maskArguments(target: string): string[] {
  let isDir: boolean;
  try {
    isDir = statSync(target).isDirectory();
  } catch {
    return [];
  }
  // An empty, read-only folder or file: a write there fails loudly instead of vanishing with the run.
  return isDir ? ['--tmpfs', target, '--remount-ro', target] : ['--ro-bind', '/dev/null', target];
}

/**
 * For the user's own `weave check` (and the external agent `weave bench` runs as the user would): the filesystem
 * and network exactly as outside, but a private PID namespace, so a daemon a test forks cannot outlive the run.
 * `hiddenDirs` appear as empty read-only folders (bench: the task folders, whose gold patch the agent must not see).
 */
export function pidNamespaceArguments(
  cwd: string,
  command: string,
  hiddenDirs: readonly string[] = [],
): string[] {
  const args = ['--bind', '/', '/', '--dev-bind', '/dev', '/dev', '--proc', '/proc'];
  for (const dir of hiddenDirs) {
    if (!isInside(dir, cwd) && existsSync(dir)) args.push('--tmpfs', dir, '--remount-ro', dir);
  }
  args.push('--unshare-pid', '--die-with-parent', '--chdir', cwd, '--', '/bin/sh', '-c', command);
  return args;
}
