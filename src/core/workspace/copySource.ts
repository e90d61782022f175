// What every copy of a workspace starts from: the workspace folder and its repository (or none), the user's
// uncommitted state laid over a checkout, a plain copy outside git, and the dependency folders linked in. Only
// read from the user's side: the user's working tree, index and HEAD are never written.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { GitError, git, gitRoot, splitNul } from '../git/git';
import { DEPENDENCY_DIRS } from '../sandbox/dependencyDirs';

/** Copy the current working state (HEAD + uncommitted changes + untracked, non-ignored files). */
export const WORKING_TREE = 'WORKTREE';

/**
 * The workspace folder (symlinks resolved) and its repository's root; null outside git, where only the working
 * tree can be copied.
 */
export async function copySource(
  workspaceDir: string,
  ref: string,
): Promise<{ workspace: string; root: string | null }> {
  const workspace = await fs.realpath(workspaceDir);
  const root = await gitRoot(workspace);
  if (root === null && ref !== WORKING_TREE) {
    throw new GitError(`cannot check out '${ref}': ${workspaceDir} is not in a git repository`, [], '');
  }
  return { workspace, root };
}

/**
 * Applies the user's staged + unstaged changes and copies untracked (non-ignored) files into `target`, except
 * those under the dependency folders. `target` may be a plain folder: there `git apply` works as a patch tool.
 */
export async function copyUncommittedChanges(root: string, target: string): Promise<void> {
  const diff = await git(['diff', 'HEAD', '--binary', '--no-color', '--no-ext-diff'], root);
  if (diff.trim().length > 0)
    await git(['apply', '--whitespace=nowarn', '--binary', '-'], target, { input: diff });
  const untracked = splitNul(await git(['ls-files', '--others', '--exclude-standard', '-z'], root));
  for (const rel of untracked) {
    if (DEPENDENCY_DIRS.includes(rel.split('/')[0] ?? '')) continue;
    const destination = path.join(target, rel);
    await fs.mkdir(path.dirname(destination), { recursive: true });
    await fs.cp(path.join(root, rel), destination, { verbatimSymlinks: true });
  }
}

/** A copy of a workspace outside git, without the top-level folders `topLevel` and the `.weave/` folders `weave`. */
export async function copyPlainTree(
  from: string,
  to: string,
  excluded: { topLevel: readonly string[]; weave: readonly string[] },
): Promise<void> {
  await fs.cp(from, to, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => {
      const [top, second] = path.relative(from, source).split(path.sep);
      const weaveState = top === '.weave' && second !== undefined && excluded.weave.includes(second);
      return !(top !== undefined && excluded.topLevel.includes(top)) && !weaveState;
    },
  });
}

/** Symlinks `workspace`'s dependency folders into `target` where it has none of its own. */
export async function linkDependencies(workspace: string, target: string): Promise<void> {
  for (const name of DEPENDENCY_DIRS) {
    const source = path.join(workspace, name);
    const destination = path.join(target, name);
    const [hasSource, hasDestination] = await Promise.all([exists(source), exists(destination)]);
    if (hasSource && !hasDestination) await fs.symlink(source, destination, 'junction');
  }
}

async function exists(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    () => true,
    () => false,
  );
}
