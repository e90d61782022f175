// git's worktree commands for throw-away checkouts (core/workspace makes those): `worktree add --detach` of a
// commit with no hook run, and its removal. git's worktree bookkeeping is not safe against itself, so the commands
// take turns per repository here.
import { git } from './git';

/** `git worktree add --detach` of `commit` at `checkout` (a new path), with no hook run. */
export function addDetachedWorktree(root: string, checkout: string, commit: string): Promise<void> {
  // No hooks: a post-checkout hook must not run (it could touch anything) for a scratch checkout.
  return serializedPerRepo(root, async () => {
    await git(
      ['-c', 'core.hooksPath=/dev/null', 'worktree', 'add', '--detach', '--force', checkout, commit],
      root,
    );
  });
}

/** Removes the worktree at `checkout` (changes and all); a failure is ignored (the folder goes anyway). */
export function removeWorktree(root: string, checkout: string): Promise<void> {
  return serializedPerRepo(root, () =>
    git(['worktree', 'remove', '--force', '--force', checkout], root).then(
      () => undefined,
      () => undefined,
    ),
  );
}

/** Forgets worktrees whose folders are gone; a failure is ignored. */
export function pruneWorktrees(root: string): Promise<void> {
  return serializedPerRepo(root, () =>
    git(['worktree', 'prune'], root).then(
      () => undefined,
      () => undefined,
    ),
  );
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
