// One set-up per environment version, shared by every run that would set up the same environment (issue #37):
// `weave mine` verifies many commits of one repository, and each verification ran `npm ci` / the venv and `pip
// install` four times (base and gold in eval.sh, oracle and no agent in Harbor's contract) although the
// dependencies change with a few commits only.
//
// What determines an environment is its key: the set-up commands, the toolchains' versions and the contents of
// the files the set-up reads (lockfiles, manifests, the package managers' rc files) in the tree the set-up would
// run in — never the commit, so every commit with the same lockfile shares one environment and a commit that
// changes it gets its own. Only set-ups whose result is those files' alone are shared: a lockfile install (`npm
// ci`, pnpm / yarn with a frozen lockfile) and the venv with `pip install -r requirements.txt` naming no local
// path or other file. Anything else (an editable install of the project, the project's own lifecycle scripts, a
// lockfile-less `npm install`) depends on the source and is set up per run, as before.
//
// An environment is built once in the cache by the same set-up step eval.sh runs (renderSetupScript), sandboxed
// with the set-up's network and private HOME, at its final path (a venv's scripts name their interpreter by
// absolute path). A run then gets a copy of its folders at the same place in its checkout, owned as a set-up of
// its own would leave them, so the specs see exactly what a fresh set-up gives them; the copy's every entry is
// recorded, and an entry the spec runs created, changed or removed is an attempt to write into the environment
// (EnvironmentCopy.writes): the shared folders themselves are never shown writable to a run.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { runCommand } from '../../process/runCommand';
import { sandboxLauncher } from '../../sandbox/launchers';
import { containedEnvironment } from '../../sandbox/environment';
import { setupVariables } from '../../sandbox/setupEnvironment';
import { runsAsRoot, SANDBOX_GID, SANDBOX_UID } from '../../sandbox/sandboxUser';
import { MAKE_VENV, PIP, SETUP_VENV } from '../environmentSetup';
import { renderSetupScript } from './evalScript';
import { NONCE_VARIABLE, shQuote } from './specRunsScript';

/** The files a set-up reads besides the commands: equal contents (and commands, toolchains), equal environment. */
export const ENVIRONMENT_KEY_FILES: readonly string[] = [
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  'requirements.txt',
  'setup.py',
  'pyproject.toml',
  'setup.cfg',
  'tox.ini',
];

const NODE_MODULES = 'node_modules';
const LOCKFILE_INSTALL =
  /^(npm ci|pnpm install --frozen-lockfile|yarn install --frozen-lockfile)( --ignore-scripts)?$/;
const REQUIREMENTS_INSTALL = `${PIP} -r requirements.txt`;

/** The folders these set-up commands make (what is shared), or why their result is not the key files' alone. */
export function sharedFolders(commands: readonly string[]): { folders: string[] } | { reason: string } {
  if (commands.length === 0) return { reason: 'no set-up' };
  const folders = new Set<string>();
  for (const command of commands) {
    if (LOCKFILE_INSTALL.test(command)) folders.add(NODE_MODULES);
    else if (command === MAKE_VENV || command === REQUIREMENTS_INSTALL) folders.add(SETUP_VENV);
    else return { reason: `\`${command}\` depends on more than the lockfiles` };
  }
  return { folders: [...folders].sort() };
}

/** A requirements.txt line that brings in something besides the file itself (a path, another file, a link). */
const NON_LOCAL_REQUIREMENT = /^(-r|-c|-e|-f|--requirement|--constraint|--editable|--find-links|\.|\/|~)/;

async function requirementsProblem(tree: string): Promise<string | undefined> {
  const text = await fs.readFile(path.join(tree, 'requirements.txt'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line !== '' && (NON_LOCAL_REQUIREMENT.test(line) || line.includes('file:')))
      return `requirements.txt:${index + 1} names a path or another file`;
  }
  return undefined;
}

let toolchains: Promise<string> | undefined;

/** The versions of the tools a set-up runs (measured once per process, on the contained PATH). */
function toolchainVersions(): Promise<string> {
  toolchains ??= runCommand({
    command:
      'for t in node npm pnpm yarn python3; do printf "%s " "$t"; "$t" --version 2>/dev/null || echo none; done; uname -m',
    cwd: '/',
    baseEnv: containedEnvironment(),
    env: {},
    timeoutMs: 60_000,
  }).then((o) => o.output.trim());
  return toolchains;
}

/** The environment's key for a set-up in `tree`, or why that set-up is not shared. */
export async function environmentKey(
  tree: string,
  commands: readonly string[],
): Promise<{ key: string; folders: string[] } | { reason: string }> {
  const shared = sharedFolders(commands);
  if ('reason' in shared) return shared;
  const problem = await requirementsProblem(tree);
  if (problem !== undefined) return { reason: problem };
  for (const folder of shared.folders)
    if (await exists(path.join(tree, folder)))
      return { reason: `the tree already holds ${folder} (the set-up would start from it)` };
  const files: Record<string, string | null> = {};
  for (const name of ENVIRONMENT_KEY_FILES) {
    const bytes = await fs.readFile(path.join(tree, name)).catch(() => undefined);
    files[name] = bytes === undefined ? null : createHash('sha256').update(bytes).digest('hex');
  }
  const key = createHash('sha256')
    .update(JSON.stringify({ version: 1, commands, toolchains: await toolchainVersions(), files }))
    .digest('hex')
    .slice(0, 24);
  return { key, folders: shared.folders };
}

/** A built environment: its folders under `tree` (the path they were built at, which their scripts may name). */
export interface ReadyEnvironment {
  key: string;
  tree: string;
  folders: string[];
}

export interface EnvironmentCounts {
  /** Environments set up in the cache by this run. */
  built: number;
  /** Runs that used a built environment instead of setting up. */
  reused: number;
  /** Runs that set up themselves: a set-up that is not shared, one that failed, or one being built elsewhere. */
  fresh: number;
}

const READY_FILE = 'ready.json';

/**
 * The environments of one cache folder. `ready` gives the environment for a set-up in a tree, building it on first
 * use (concurrent requests for one key wait for one build); undefined means: set up in the run, as without reuse.
 */
export class SharedEnvironments {
  readonly counts: EnvironmentCounts = { built: 0, reused: 0, fresh: 0 };
  /** Why runs set up fresh, first line each, for the run log. */
  readonly freshReasons = new Set<string>();
  private readonly building = new Map<string, Promise<ReadyEnvironment | string>>();

  constructor(readonly cacheDir: string) {}

  async ready(
    tree: string,
    commands: readonly string[],
    run: { sandboxed: boolean; timeoutMs: number; signal?: AbortSignal },
  ): Promise<ReadyEnvironment | undefined> {
    const keyed = await environmentKey(tree, commands);
    if ('reason' in keyed) return this.fresh(keyed.reason);
    let pending = this.building.get(keyed.key);
    if (pending === undefined) {
      pending = this.build(tree, commands, keyed.key, keyed.folders, run);
      this.building.set(keyed.key, pending);
    }
    const built = await pending;
    if (typeof built === 'string') return this.fresh(built);
    this.counts.reused++;
    return built;
  }

  private fresh(reason: string): undefined {
    this.counts.fresh++;
    this.freshReasons.add(reason);
    return undefined;
  }

  private async build(
    tree: string,
    commands: readonly string[],
    key: string,
    folders: string[],
    run: { sandboxed: boolean; timeoutMs: number; signal?: AbortSignal },
  ): Promise<ReadyEnvironment | string> {
    const root = path.join(this.cacheDir, key);
    const target: ReadyEnvironment = { key, tree: path.join(root, 'tree'), folders };
    if (await exists(path.join(root, READY_FILE))) return target;
    await fs.mkdir(this.cacheDir, { recursive: true });
    const lock = `${root}.lock`;
    if (!(await takeLock(lock))) return `environment ${key} is being built by another process`;
    try {
      // A folder without its ready file is a build that was stopped: started again from nothing.
      await fs.rm(root, { recursive: true, force: true });
      const dirs = {
        harness: path.join(root, 'harness'),
        log: path.join(root, 'log'),
        home: path.join(root, 'home'),
      };
      for (const dir of Object.values(dirs)) await fs.mkdir(path.join(dir, '.cache'), { recursive: true });
      await fs.cp(tree, target.tree, {
        recursive: true,
        verbatimSymlinks: true,
        filter: (source) => source !== path.join(tree, '.git'),
      });
      const before = await treeDigest(target.tree, folders);
      const script = path.join(dirs.harness, 'setup.sh');
      await fs.writeFile(script, renderSetupScript([...commands]));
      const logFile = path.join(dirs.log, 'setup.log');
      const outcome = await runCommand({
        command: `exec sh ${shQuote(script)} > ${shQuote(logFile)} 2>&1`,
        cwd: target.tree,
        env: { ...setupVariables(dirs.home), WEAVE_RUN_SETUP: '1', [NONCE_VARIABLE]: '' },
        baseEnv: containedEnvironment(),
        ...(run.sandboxed
          ? {
              launcher: sandboxLauncher({
                checkout: target.tree,
                writableDirs: [dirs.log],
                readOnlyBinds: [{ source: dirs.harness, target: dirs.harness }],
                home: dirs.home,
                network: 'host',
              }),
            }
          : {}),
        timeoutMs: run.timeoutMs,
        ...(run.signal ? { signal: run.signal } : {}),
      });
      if (outcome.exitCode !== 0) return `the shared set-up of environment ${key} failed`;
      if ((await treeDigest(target.tree, folders)) !== before)
        return `the set-up changed files besides ${folders.join(' and ')}`;
      for (const folder of folders)
        if (!(await exists(path.join(target.tree, folder)))) return `the set-up made no ${folder}`;
      await fs.writeFile(path.join(root, READY_FILE), `${JSON.stringify({ commands, folders }, null, 2)}\n`);
      this.counts.built++;
      return target;
    } finally {
      await fs.rm(lock, { force: true });
    }
  }
}

/** Taken when no live process holds it (a lock left by a killed run is taken over). */
async function takeLock(lock: string): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fs.writeFile(lock, String(process.pid), { flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(await fs.readFile(lock, 'utf8').catch(() => ''));
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) return false;
      await fs.rm(lock, { force: true });
    }
  }
  return false;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Every file, link and folder of `tree` outside `skip` with its content: what a set-up may not change. */
async function treeDigest(tree: string, skip: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const entry of entries) {
      const relPath = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (rel === '' && skip.includes(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        hash.update(`d ${relPath}\0`);
        await walk(full, relPath);
      } else if (entry.isSymbolicLink()) hash.update(`l ${relPath} ${await fs.readlink(full)}\0`);
      else
        hash
          .update(`f ${relPath}\0`)
          .update(await fs.readFile(full))
          .update('\0');
    }
  };
  await walk(tree, '');
  return hash.digest('hex');
}

interface EntryState {
  directory: boolean;
  ino: bigint;
  mode: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

/**
 * A run's copy of a shared environment in its checkout, and what was written into it since. Every entry's state is
 * recorded after the copy: a write, truncation, chmod or rename changes an entry's ctime, which nothing inside the
 * sandbox can set back.
 */
export class EnvironmentCopy {
  private constructor(
    private readonly checkout: string,
    private readonly folders: readonly string[],
    private readonly states: Map<string, EntryState>,
  ) {}

  /**
   * Replaces `env`'s folders in `checkout` (whatever a patch put there: a fresh set-up removes it too) with copies,
   * handed to the sandbox's uid when `forSandbox` and Weave runs as root, as a set-up run there leaves them.
   */
  static async make(env: ReadyEnvironment, checkout: string, forSandbox: boolean): Promise<EnvironmentCopy> {
    for (const folder of env.folders) {
      const to = path.join(checkout, folder);
      await fs.rm(to, { recursive: true, force: true });
      await fs.cp(path.join(env.tree, folder), to, {
        recursive: true,
        verbatimSymlinks: true,
        preserveTimestamps: true,
      });
      if (forSandbox && runsAsRoot()) await chownTree(to);
    }
    const copy = new EnvironmentCopy(checkout, env.folders, new Map());
    await copy.walk((rel, state) => void copy.states.set(rel, state));
    return copy;
  }

  /** The environment's entries created, changed or removed since the copy (checkout-relative, sorted). */
  async writes(): Promise<string[]> {
    const changed = new Set<string>();
    const seen = new Set<string>();
    await this.walk((rel, state) => {
      seen.add(rel);
      const was = this.states.get(rel);
      // A folder's own times and size move with its entries, which are reported themselves.
      if (state.directory && was?.directory === true && was.ino === state.ino && was.mode === state.mode)
        return;
      if (
        was === undefined ||
        was.ino !== state.ino ||
        was.mode !== state.mode ||
        was.size !== state.size ||
        was.mtimeNs !== state.mtimeNs ||
        was.ctimeNs !== state.ctimeNs
      )
        changed.add(rel);
    });
    for (const rel of this.states.keys()) if (!seen.has(rel)) changed.add(rel);
    return [...changed].sort();
  }

  private async walk(visit: (rel: string, state: EntryState) => void): Promise<void> {
    const go = async (rel: string): Promise<void> => {
      const full = path.join(this.checkout, rel);
      const stat = await fs.lstat(full, { bigint: true }).catch(() => undefined);
      if (stat === undefined) return;
      visit(rel, {
        directory: stat.isDirectory(),
        ino: stat.ino,
        mode: stat.mode,
        size: stat.size,
        mtimeNs: stat.mtimeNs,
        ctimeNs: stat.ctimeNs,
      });
      if (!stat.isDirectory()) return;
      for (const name of await fs.readdir(full)) await go(`${rel}/${name}`);
    };
    for (const folder of this.folders) await go(folder);
  }
}

async function chownTree(dir: string): Promise<void> {
  await fs.lchown(dir, SANDBOX_UID, SANDBOX_GID);
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await chownTree(full);
    else await fs.lchown(full, SANDBOX_UID, SANDBOX_GID);
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(
    () => true,
    () => false,
  );
}

/** How a verification names the entries a run wrote into its shared environment (the first few). */
export function describeEnvironmentWrites(writes: readonly string[]): string {
  const shown = writes.slice(0, 5).join(', ');
  return `${ENVIRONMENT_WRITE}: ${shown}${writes.length > 5 ? ` and ${writes.length - 5} more` : ''}`;
}

/** The reason's prefix: an attempt, so the task is rejected whatever the verdicts say. */
export const ENVIRONMENT_WRITE = 'the spec runs wrote into the shared environment (an attempt)';
