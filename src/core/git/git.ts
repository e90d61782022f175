// The one way Weave runs the real `git` executable (no library: the user's git). Every call gets the same
// environment policy (gitEnvironment): never prompt, never page, never take optional locks, stable messages and
// patch shapes; scratch repositories (`isolated`) also ignore the user's configuration and commit under a fixed
// identity, so what export and eval write is reproducible.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors';

export class GitError extends InputError {
  override name = 'GitError';
  constructor(
    message: string,
    readonly args: readonly string[],
    readonly stderr: string,
    /** git's exit code; null when it did not run or was killed. */
    readonly exitCode: number | null = null,
  ) {
    super(message);
  }
}

export interface GitOptions {
  /** Extra environment (GIT_INDEX_FILE, dates); the policy's own variables always win. */
  env?: Record<string, string>;
  /** Written to git's stdin (stdin is closed either way, so git never waits on it). */
  input?: string | Buffer;
  maxBuffer?: number;
  signal?: AbortSignal;
  /** Exit codes that are answers rather than failures (e.g. 1 from `check-ignore`). */
  allowExitCodes?: readonly number[];
  /** A scratch repository: no user or system configuration, a fixed identity. */
  isolated?: boolean;
}

const DEFAULT_MAX_BUFFER = 512 * 1024 * 1024;

// Unattended and deterministic: no credential prompt (terminal or askpass helper), no pager or editor, no
// index refresh written behind the user's back by read-only commands, English messages.
const POLICY_ENV: Record<string, string> = {
  GIT_TERMINAL_PROMPT: '0',
  GIT_ASKPASS: '',
  GIT_PAGER: 'cat',
  GIT_EDITOR: 'true',
  GIT_OPTIONAL_LOCKS: '0',
  LC_ALL: 'C',
};

const ISOLATED_ENV: Record<string, string> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Weave export',
  GIT_AUTHOR_EMAIL: 'weave@localhost',
  GIT_COMMITTER_NAME: 'Weave export',
  GIT_COMMITTER_EMAIL: 'weave@localhost',
};

// Configuration that would change the shape of a patch if a user set it globally.
const DETERMINISTIC_CONFIG = [
  '-c',
  'diff.noprefix=false',
  '-c',
  'diff.mnemonicPrefix=false',
  '-c',
  'color.ui=never',
];

/** The environment every git process runs with. */
export function gitEnvironment(options: Pick<GitOptions, 'env' | 'isolated'> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...(options.isolated ? ISOLATED_ENV : {}), ...options.env, ...POLICY_ENV };
}

export interface GitOutcome {
  stdout: Buffer;
  /** 0, or one of the allowed exit codes. */
  exitCode: number;
}

/** Runs git with `args` in `cwd`. Throws GitError with git's own message unless it exits 0 or an allowed code. */
export function runGit(args: readonly string[], cwd: string, options: GitOptions = {}): Promise<GitOutcome> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      [...DETERMINISTIC_CONFIG, ...args],
      {
        cwd,
        env: gitEnvironment(options),
        encoding: 'buffer',
        maxBuffer: options.maxBuffer ?? DEFAULT_MAX_BUFFER,
        ...(options.signal ? { signal: options.signal } : {}),
      },
      (error, stdout, stderrBuffer) => {
        if (!error) {
          resolve({ stdout, exitCode: 0 });
          return;
        }
        const code = typeof error.code === 'number' ? error.code : null;
        if (code !== null && options.allowExitCodes?.includes(code)) {
          resolve({ stdout, exitCode: code });
          return;
        }
        const stderr = stderrBuffer.toString('utf8');
        const detail = stderr.trim() || error.message;
        reject(new GitError(`git ${args.join(' ')}: ${detail}`, args, stderr, code));
      },
    );
    // git may exit before reading all of its input (a bad patch); its exit status reports that, not EPIPE.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.input);
  });
}

/** git's stdout as bytes (patches and blobs that must survive unchanged). */
export async function gitBuffer(
  args: readonly string[],
  cwd: string,
  options: GitOptions = {},
): Promise<Buffer> {
  return (await runGit(args, cwd, options)).stdout;
}

/** git's stdout as text. */
export async function git(args: readonly string[], cwd: string, options: GitOptions = {}): Promise<string> {
  return (await runGit(args, cwd, options)).stdout.toString('utf8');
}

/** A long-running git process with piped stdio (e.g. `cat-file --batch`), under the same environment policy. */
export function longRunningGit(
  args: readonly string[],
  cwd: string,
  options: Pick<GitOptions, 'env' | 'isolated'> = {},
): ChildProcessWithoutNullStreams {
  return spawn('git', [...DETERMINISTIC_CONFIG, ...args], { cwd, env: gitEnvironment(options) });
}

/** Splits `-z` output into its entries. */
export function splitNul(text: string): string[] {
  return text.split('\0').filter((entry) => entry.length > 0);
}

/** The top folder of the repository containing `dir` (symlinks resolved), or null outside git. */
export async function gitRoot(dir: string): Promise<string | null> {
  try {
    return await fs.realpath((await git(['rev-parse', '--show-toplevel'], dir)).trim());
  } catch {
    return null;
  }
}

/** The commit HEAD points at, or null outside git / in a repository without commits. */
export async function headCommit(dir: string): Promise<string | null> {
  try {
    return (await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], dir)).trim() || null;
  } catch {
    return null;
  }
}

/**
 * Refuses a revision or range a user gave (`--since`, `--base`, `--baseline-ref`, `--from-history`, an MCP
 * argument) that git would read as an option: `--from-history=--output=FILE` reached `git rev-list` as
 * `--output=FILE` and truncated FILE. No ref name starts with '-' (git check-ref-format), nor does any
 * revision expression. Callers also put `--end-of-options` before the value where git accepts it.
 */
export function assertRevision(
  value: string,
  flag: string,
  toError: (message: string) => InputError = (message) => new InputError(message),
): void {
  if (value.startsWith('-'))
    throw toError(`${flag} '${value}' is not a git revision: a revision never starts with '-'`);
  if (value === '' || /[\0\n\r]/.test(value))
    throw toError(`${flag} needs a git revision (a branch, tag or commit), not ${JSON.stringify(value)}`);
}

/** Resolves a ref (branch, tag, sha, HEAD~2) to a commit sha, with a clear error for an unknown ref. */
export async function resolveCommit(dir: string, ref: string): Promise<string> {
  assertRevision(ref, 'git ref');
  try {
    return (await git(['rev-parse', '--verify', '--end-of-options', `${ref}^{commit}`], dir)).trim();
  } catch {
    throw new GitError(`unknown git ref '${ref}' (not a commit in ${dir})`, ['rev-parse', ref], '');
  }
}

/**
 * True when the folder `dir` (and everything below it) has no uncommitted change, untracked files included.
 * Weave's own local state (.weave/runs/ and the .weave/.gitignore Weave writes) does not count. Scoped to
 * `dir`, not the whole repository, because a workspace may be a subfolder of a bigger repository.
 * Outside git this is false: there is no committed state to be clean against.
 */
export async function isClean(dir: string): Promise<boolean> {
  const root = await gitRoot(dir);
  if (root === null) return false;
  const prefix = path
    .relative(root, await fs.realpath(dir))
    .split(path.sep)
    .join('/');
  const own = (p: string): boolean => {
    const rel = prefix === '' ? p : p.startsWith(`${prefix}/`) ? p.slice(prefix.length + 1) : p;
    return rel === '.weave/.gitignore' || rel.startsWith('.weave/runs/') || rel === '.weave/runs';
  };
  const status = await git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', '.'], dir);
  const entries = status.split('\0').filter((e) => e.length > 3);
  // -z entries are "XY path" (a rename's source path follows as its own entry without the XY prefix).
  return entries.every((e) => own(e.slice(3)) || !/^[ MADRCU?!]{2} /.test(e));
}
