// Thin helpers over the real `git` executable (no library: the user's git, hooks-free plumbing commands).
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors';

export class GitError extends InputError {
  override name = 'GitError';
  constructor(
    message: string,
    readonly args: readonly string[],
    readonly stderr: string,
  ) {
    super(message);
  }
}

/** Runs git with `args` in `cwd` and returns stdout. Throws GitError with git's own message on failure. */
export function git(
  args: readonly string[],
  cwd: string,
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      [...args],
      {
        cwd,
        maxBuffer: 256 * 1024 * 1024,
        // Never prompt (credentials, editors) and never page: a check runs unattended.
        env: { ...process.env, ...options.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C' },
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (error) {
          const detail = stderr.trim() || error.message;
          reject(new GitError(`git ${args.join(' ')}: ${detail}`, args, stderr));
        } else {
          resolve(stdout);
        }
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
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

/** Resolves a ref (branch, tag, sha, HEAD~2) to a commit sha, with a clear error for an unknown ref. */
export async function resolveCommit(dir: string, ref: string): Promise<string> {
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
