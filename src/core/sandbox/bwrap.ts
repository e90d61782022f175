// The OS sandbox around code Weave runs on behalf of an agent or a prediction: bubblewrap (Linux user/mount/PID
// namespaces, Debian's `bubblewrap`). Chosen over @anthropic-ai/sandbox-runtime because Weave needs exactly
// bwrap's primitives (bind a checkout writable, hide the user's repository, a private PID namespace, no
// network) and nothing of its proxy machinery; the runtime would add a dependency tree and a second policy
// language for the same bwrap call.
//
// Inside: the whole filesystem read-only; the run's checkout and the caller's `writableDirs` writable; a private
// /tmp; the user's repository (work tree and .git) and well-known credential folders hidden behind empty
// tmpfs mounts; the checkout's own .git read-only (so code under test cannot plant hooks or a
// `core.fsmonitor` command that Weave's later `git` calls would run); a private PID namespace, so every process
// — daemons included — dies with the run; no network unless the caller allows the host's (a private loopback
// interface exists, so a test can still talk to a server it starts itself).
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** `none`: a private network namespace with only its own loopback. `host`: the host's network, loopback included. */
export type NetworkAccess = 'none' | 'host';

export interface SandboxOptions {
  /** The run's own standalone checkout: the only writable part of the real filesystem (besides writableDirs). */
  checkout: string;
  /** Further folders the run may write (results and coverage folders Weave reads afterwards). */
  writableDirs?: readonly string[];
  /** Folders shown read-only at another path inside the sandbox (the user's node_modules in the checkout). */
  readOnlyBinds?: ReadonlyArray<{ source: string; target: string }>;
  /** Folders made invisible (an empty folder appears instead): the user's repository. */
  hiddenDirs?: readonly string[];
  network: NetworkAccess;
}

export interface SandboxAvailability {
  available: boolean;
  /** Why not, for the message that asks the user to opt out explicitly. */
  reason?: string;
}

/** Credential stores under the home folder that no sandboxed run may read. */
const CREDENTIAL_PATHS = [
  '.ssh',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.config/gh',
  '.config/hub',
  '.docker',
  '.kube',
  '.gnupg',
  '.git-credentials',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.config/Code',
  '.vscode-server/data/User',
  '.local/share/code-server/User',
];

let probed: Promise<SandboxAvailability> | undefined;

/** Whether bubblewrap works here (probed once per process: it is installed and may create namespaces). */
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
    execFile(
      'bwrap',
      [
        '--ro-bind',
        '/',
        '/',
        '--proc',
        '/proc',
        '--unshare-pid',
        '--unshare-net',
        '--die-with-parent',
        '/bin/true',
      ],
      { timeout: 10_000 },
      (error, _stdout, stderr) => {
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
      },
    );
  });
}

/** bwrap's arguments that run `/bin/sh -c command` in `cwd` contained as `options` say. */
export function sandboxArguments(options: SandboxOptions, cwd: string, command: string): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  const home = os.homedir();
  const hidden = [...(options.hiddenDirs ?? []), ...CREDENTIAL_PATHS.map((p) => path.join(home, p))];
  for (const target of hidden) {
    if (isInside(options.checkout, target) || isInside(target, options.checkout)) continue;
    const kind = kindOf(target);
    // An empty, read-only folder: a write there fails loudly instead of vanishing with the run.
    if (kind === 'dir') args.push('--tmpfs', target, '--remount-ro', target);
    else if (kind === 'file') args.push('--ro-bind', '/dev/null', target);
  }
  args.push('--bind', options.checkout, options.checkout);
  const ownGit = path.join(options.checkout, '.git');
  if (existsSync(ownGit)) args.push('--ro-bind', ownGit, ownGit);
  for (const bind of options.readOnlyBinds ?? []) args.push('--ro-bind', bind.source, bind.target);
  for (const dir of options.writableDirs ?? []) args.push('--bind', dir, dir);
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  if (options.network === 'none') args.push('--unshare-net');
  args.push('--die-with-parent', '--new-session', '--chdir', cwd, '--', '/bin/sh', '-c', command);
  return args;
}

/**
 * For the user's own `weave check`: the filesystem and network exactly as outside, but a private PID
 * namespace, so a daemon a test forks cannot outlive the run.
 */
export function pidNamespaceArguments(cwd: string, command: string): string[] {
  return [
    '--bind',
    '/',
    '/',
    '--dev-bind',
    '/dev',
    '/dev',
    '--proc',
    '/proc',
    '--unshare-pid',
    '--die-with-parent',
    '--chdir',
    cwd,
    '--',
    '/bin/sh',
    '-c',
    command,
  ];
}

function kindOf(p: string): 'dir' | 'file' | undefined {
  try {
    return statSync(p).isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
