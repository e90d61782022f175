// The walk over a repository's history: which commits are worth a verification. A candidate changes source and
// tests together (the test change says what the source change is for), stays within the size limits (a task an
// agent can be asked to do, a diff a reviewer reads), and is not a merge. Every commit looked at is counted, and
// each one left out keeps its reason, for the funnel.
import { git, GitError, splitNul } from '../../git/git';

export interface CandidateLimits {
  /** At most this many candidates per repository: the walk stops at the newest this many. */
  maxCandidates: number;
  /** At most this many files changed (source + tests). */
  maxFiles: number;
  /** At most this many lines added + deleted. */
  maxLines: number;
}

export const DEFAULT_LIMITS: CandidateLimits = { maxCandidates: 20, maxFiles: 30, maxLines: 1500 };

export interface CommitLook {
  commit: string;
  parent: string;
  subject: string;
  /** The whole message: the task's goal. */
  message: string;
  testFiles: string[];
  sourceFiles: string[];
  /** Why it is no candidate; absent for a candidate. */
  rejected?: string;
}

// Test files by the conventions of the runners Weave reads: a test folder, or a test file name.
const TEST_PATH = [
  /(^|\/)(tests?|__tests__|spec)\//,
  /\.(test|spec)\.[cm]?[jt]sx?$/,
  /(^|\/)test_[^/]*\.py$/,
  /_test\.py$/,
];
const SOURCE_EXTENSIONS = /\.([cm]?[jt]sx?|py|go|rs|java)$/;

export function isTestPath(file: string): boolean {
  return TEST_PATH.some((pattern) => pattern.test(file));
}

/**
 * The commits of `range` (default: HEAD's history) touching `subdir`, newest first, each judged a candidate or
 * not. Paths are relative to `subdir`.
 */
export async function lookAtCommits(
  repoRoot: string,
  range: string | undefined,
  subdir: string,
  limits: CandidateLimits,
): Promise<CommitLook[]> {
  let listing: string;
  try {
    listing = await git(
      ['rev-list', '--no-merges', '--format=%H %P', '--end-of-options', range ?? 'HEAD', '--', subdir || '.'],
      repoRoot,
    );
  } catch (error) {
    if (error instanceof GitError)
      throw new Error(`'${range ?? 'HEAD'}' is no revision range here: ${error.stderr.trim()}`, {
        cause: error,
      });
    throw error;
  }
  const commits = listing
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('commit '))
    .map((line) => line.trim().split(' ') as [string, ...string[]]);
  const looks: CommitLook[] = [];
  let candidates = 0;
  for (const [commit, parent] of commits) {
    // Enough candidates: the older history is not looked at (a large repository's would cost a diff a commit).
    if (candidates >= limits.maxCandidates) break;
    const message = (await git(['log', '-1', '--format=%B', commit], repoRoot)).trim();
    const look: CommitLook = {
      commit,
      parent: parent ?? '',
      subject: message.split('\n')[0] ?? '',
      message,
      testFiles: [],
      sourceFiles: [],
    };
    looks.push(look);
    if (parent === undefined) {
      look.rejected = 'the first commit: no parent to start the task from';
      continue;
    }
    const files = await changedFiles(repoRoot, parent, commit, subdir);
    look.testFiles = files.names.filter(isTestPath);
    look.sourceFiles = files.names.filter((f) => !isTestPath(f) && SOURCE_EXTENSIONS.test(f));
    const rejected = rejection(look, files, limits);
    if (rejected === undefined) candidates++;
    else look.rejected = rejected;
  }
  return looks;
}

function rejection(
  look: CommitLook,
  files: { names: string[]; lines: number },
  limits: CandidateLimits,
): string | undefined {
  if (look.testFiles.length === 0) return 'changes no test file';
  if (look.sourceFiles.length === 0) return 'changes no source file (tests only)';
  if (files.names.length > limits.maxFiles)
    return `changes ${files.names.length} files (limit ${limits.maxFiles})`;
  if (files.lines > limits.maxLines) return `changes ${files.lines} lines (limit ${limits.maxLines})`;
  return undefined;
}

async function changedFiles(
  repoRoot: string,
  parent: string,
  commit: string,
  subdir: string,
): Promise<{ names: string[]; lines: number }> {
  const prefix = subdir === '' ? '' : `${subdir}/`;
  const stat = splitNul(
    await git(['diff', '--numstat', '-z', '--no-renames', parent, commit, '--', subdir || '.'], repoRoot),
  );
  const names: string[] = [];
  let lines = 0;
  for (const entry of stat) {
    const match = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(entry);
    if (!match) continue;
    lines += (Number(match[1]) || 0) + (Number(match[2]) || 0);
    const file = match[3] ?? '';
    if (file.startsWith(prefix)) names.push(file.slice(prefix.length));
  }
  return { names: names.sort(), lines };
}
