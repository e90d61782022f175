// Throw-away checkouts for running things away from the user's files: `git worktree add --detach` of a ref,
// or of HEAD plus the user's uncommitted changes ('WORKTREE'), always removed afterwards (error and abort
// included). Outside git the workspace folder is copied instead. The user's working tree is never written.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GitError, git, gitRoot, resolveCommit, splitNul } from './git';
import { removeTree } from '../deepTrees';

/** Check out the current working state (HEAD + uncommitted changes + untracked, non-ignored files). */
export const WORKING_TREE = 'WORKTREE';

/**
 * Installed-dependency folders git does not track: never copied into a scratch checkout of any kind. A worktree
 * links them from the workspace; a standalone checkout shows them read-only (sandbox/checkout.ts).
 */
export const DEPENDENCY_DIRS = ['node_modules', '.venv', 'venv'];

/**
 * The workspace folder (symlinks resolved) and its repository's root; null outside git, where only the working
 * tree can be checked out (as a copy).
 */
export async function checkoutSource(
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
 * Runs `fn` with the path of `workspaceDir`'s counterpart inside a scratch checkout of `ref`. The workspace may be
 * a subfolder of its repository: the same subfolder of the checkout is passed. The workspace's installed
 * dependency folders (DEPENDENCY_DIRS), which git does not track, are symlinked into the checkout so tests can run.
 */
export async function withWorktree<T>(
  workspaceDir: string,
  ref: string,
  fn: (workspaceDirInCheckout: string) => Promise<T>,
): Promise<T> {
  const { workspace, root } = await checkoutSource(workspaceDir, ref);
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-checkout-'));
  try {
    if (root === null) {
      const copy = path.join(scratch, path.basename(workspace));
      await copyWorkspaceTree(workspace, copy, { topLevel: DEPENDENCY_DIRS, weave: ['runs'] });
      await linkDependencies(workspace, copy);
      return await fn(copy);
    }
    // A unique last path segment gives each worktree its own admin folder (.git/worktrees/<name>).
    const checkout = path.join(scratch, `tree-${path.basename(scratch).slice(-6)}`);
    const commit = ref === WORKING_TREE ? await resolveCommit(root, 'HEAD') : await resolveCommit(root, ref);
    // No hooks: a post-checkout hook must not run (it could touch anything) for a scratch checkout.
    await serializedPerRepo(root, () =>
      git(
        ['-c', 'core.hooksPath=/dev/null', 'worktree', 'add', '--detach', '--force', checkout, commit],
        root,
      ),
    );
    try {
      if (ref === WORKING_TREE) await copyUncommittedChanges(root, checkout, DEPENDENCY_DIRS);
      const inCheckout = path.join(checkout, path.relative(root, workspace));
      await fs.mkdir(inCheckout, { recursive: true });
      await linkDependencies(workspace, inCheckout);
      return await fn(inCheckout);
    } finally {
      await serializedPerRepo(root, () =>
        git(['worktree', 'remove', '--force', '--force', checkout], root).catch(() => undefined),
      );
    }
  } finally {
    await removeTree(scratch);
    if (root !== null)
      await serializedPerRepo(root, () => git(['worktree', 'prune'], root).catch(() => undefined));
  }
}

/**
 * git's worktree bookkeeping is not safe against itself: a `prune` or a second `add` running while an `add` is
 * half done can delete or misread its admin folder ("failed to read .git/worktrees/…/commondir"). Parallel
 * checkouts (the agent matrix, blame, baselines) therefore take turns for these short commands, per repository.
 */
const repoQueues = new Map<string, Promise<unknown>>();
function serializedPerRepo<T>(root: string, fn: () => Promise<T>): Promise<T> {
  const previous = repoQueues.get(root) ?? Promise.resolve();
  const next = previous.then(fn, fn);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  repoQueues.set(root, settled);
  void settled.then(() => {
    if (repoQueues.get(root) === settled) repoQueues.delete(root);
  });
  return next;
}

/**
 * Applies the user's staged + unstaged changes and copies untracked (non-ignored) files into `target`, except
 * those under the top-level folders `skipTopLevel`. `target` may be a plain folder: there `git apply` works as
 * a patch tool.
 */
export async function copyUncommittedChanges(
  root: string,
  target: string,
  skipTopLevel: readonly string[] = [],
): Promise<void> {
  const diff = await git(['diff', 'HEAD', '--binary', '--no-color', '--no-ext-diff'], root);
  if (diff.trim().length > 0)
    await git(['apply', '--whitespace=nowarn', '--binary', '-'], target, { input: diff });
  const untracked = splitNul(await git(['ls-files', '--others', '--exclude-standard', '-z'], root));
  for (const rel of untracked) {
    if (skipTopLevel.includes(rel.split('/')[0] ?? '')) continue;
    const destination = path.join(target, rel);
    await fs.mkdir(path.dirname(destination), { recursive: true });
    await fs.cp(path.join(root, rel), destination, { verbatimSymlinks: true });
  }
}

/** A copy of a workspace outside git, without the top-level folders `topLevel` and the `.weave/` folders `weave`. */
export async function copyWorkspaceTree(
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

async function linkDependencies(workspace: string, target: string): Promise<void> {
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
