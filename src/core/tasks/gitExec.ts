// The git calls export and eval make: plumbing with stdin, extra environment (a private index, a fixed
// identity) and binary-safe output. RUN's src/core/git wraps porcelain for the user's repo; this stays here
// because the bench works mostly in its own scratch repositories with an isolated configuration.
import { execFile } from 'node:child_process';

export interface GitOptions {
  cwd: string;
  env?: Record<string, string>;
  input?: string | Buffer;
  /** Scratch repositories ignore the user's global and system config so diffs and commits are reproducible. */
  isolated?: boolean;
}

export class GitError extends Error {
  constructor(
    readonly args: string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed${exitCode === null ? '' : ` (exit ${exitCode})`}: ${stderr.trim()}`);
  }
}

const ISOLATED_ENV: Record<string, string> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Weave export',
  GIT_AUTHOR_EMAIL: 'weave@localhost',
  GIT_COMMITTER_NAME: 'Weave export',
  GIT_COMMITTER_EMAIL: 'weave@localhost',
};

// Config that would change the shape of a patch if a user set it globally.
const DIFF_CONFIG = ['-c', 'diff.noprefix=false', '-c', 'diff.mnemonicPrefix=false', '-c', 'color.ui=never'];

export function gitBuffer(args: string[], options: GitOptions): Promise<Buffer> {
  const fullArgs = [...DIFF_CONFIG, ...args];
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      fullArgs,
      {
        cwd: options.cwd,
        env: { ...process.env, ...(options.isolated ? ISOLATED_ENV : {}), ...options.env },
        encoding: 'buffer',
        maxBuffer: 512 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error) {
          const code = typeof error.code === 'number' ? error.code : null;
          reject(new GitError(args, code, stderr.toString('utf8') || error.message));
        } else resolve(stdout);
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

export async function git(args: string[], options: GitOptions): Promise<string> {
  return (await gitBuffer(args, options)).toString('utf8');
}

/** Splits `-z` output into its entries. */
export function splitNul(text: string): string[] {
  return text.split('\0').filter((entry) => entry.length > 0);
}
