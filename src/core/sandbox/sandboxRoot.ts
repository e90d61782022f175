// The filesystem a sandboxed run sees, built from an allowlist instead of the host's `/` made read-only: the
// system folders (/usr and the merged-/usr links, /etc), the toolchains the allowlisted environment names (each
// PATH entry's installation prefix, PYENV_ROOT, JAVA_HOME …), and then only what the caller binds (the checkout,
// dependency folders, Weave's hooks). Everything else — /root and /home, /run and /var/run (the docker, dbus and
// ssh-agent sockets live there), /srv, /mnt, other projects under /tmp or /work — does not exist inside, so a
// listening unix socket or a credential file elsewhere cannot be connected to or read, whatever its mode.
// A bound prefix is never the home folder itself or an ancestor of it (PATH=~/bin must not expose ~), and the
// credential stores that fall inside a bound prefix (~/.cargo/credentials when ~/.cargo is bound) are masked.
import { existsSync, lstatSync, readlinkSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Folders every sandbox shows read-only at their own path (when they exist). */
const SYSTEM_DIRS = ['/usr', '/etc', '/opt'];
/** Top-level entries that are links into /usr on merged-/usr systems, folders on older ones. */
const SYSTEM_LINKS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** Environment variables that name a toolchain's root: shown read-only when set and present. */
const TOOLCHAIN_VARIABLES = [
  'PYENV_ROOT',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'NVM_DIR',
  'JAVA_HOME',
  'GOROOT',
  'CARGO_HOME',
  'RUSTUP_HOME',
];
/** The folder names of a PATH entry whose parent is the toolchain's installation prefix (npm's lib/ is beside bin/). */
const PREFIX_CHILDREN = new Set(['bin', 'sbin', 'shims']);

/**
 * Credential stores under the home folder. The home folder is not in the sandbox at all; these are masked where a
 * bound toolchain prefix would otherwise show them (and the list documents what a sandboxed run must never read).
 */
export const CREDENTIAL_PATHS = [
  '.ssh',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.config/gh',
  '.config/hub',
  '.config/github-copilot',
  '.docker',
  '.kube',
  '.gnupg',
  '.git-credentials',
  '.netrc',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pypirc',
  '.pgpass',
  '.bash_history',
  '.zsh_history',
  '.python_history',
  '.node_repl_history',
  '.claude',
  '.claude.json',
  '.codex',
  '.cache/huggingface',
  '.huggingface',
  '.kaggle',
  '.vault-token',
  '.terraform.d',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.config/Code',
  '.vscode-server/data/User',
  '.local/share/code-server/User',
];

/** bwrap arguments for the allowlisted system part of the root (call after `--tmpfs /`). */
export function systemRootArguments(): string[] {
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) if (isDirectory(dir)) args.push('--ro-bind', dir, dir);
  for (const entry of SYSTEM_LINKS) {
    const stat = lstatOrUndefined(entry);
    if (stat?.isSymbolicLink()) args.push('--symlink', readlinkSync(entry), entry);
    else if (stat?.isDirectory()) args.push('--ro-bind', entry, entry);
  }
  return args;
}

/**
 * The toolchain folders the environment points at, outside the system folders: each PATH entry's prefix and the
 * toolchain roots. `excluded` folders (the user's repository) are never shown, nor anything containing them.
 */
export function toolchainDirs(env: NodeJS.ProcessEnv, excluded: readonly string[]): string[] {
  const home = os.homedir();
  const candidates: string[] = [];
  for (const entry of (env.PATH ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(entry)) continue;
    const dir = path.resolve(entry);
    candidates.push(PREFIX_CHILDREN.has(path.basename(dir)) ? path.dirname(dir) : dir);
  }
  for (const name of TOOLCHAIN_VARIABLES) {
    const value = env[name];
    if (value && path.isAbsolute(value)) candidates.push(path.resolve(value));
  }
  const shown = new Set<string>();
  for (const dir of candidates) {
    if (isInsideAny(dir, SYSTEM_DIRS) || isInsideAny(dir, SYSTEM_LINKS)) continue;
    // Never the home folder or an ancestor of it, never the user's repository or a folder that holds it.
    if (isInside(dir, home) || excluded.some((e) => isInside(dir, e) || isInside(e, dir))) continue;
    if (!isDirectory(dir)) continue;
    shown.add(dir);
  }
  // A folder inside another shown one is bound with it.
  return [...shown].filter((dir) => ![...shown].some((other) => other !== dir && isInside(other, dir)));
}

/** Credential stores that would be visible inside one of `shownDirs`: to mask. */
export function credentialsInside(shownDirs: readonly string[]): string[] {
  const home = os.homedir();
  return CREDENTIAL_PATHS.map((p) => path.join(home, p)).filter(
    (p) => shownDirs.some((dir) => isInside(dir, p)) && existsSync(p),
  );
}

export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function isInsideAny(dir: string, parents: readonly string[]): boolean {
  return parents.some((p) => isInside(p, dir));
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function lstatOrUndefined(p: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}
