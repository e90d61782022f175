// The 'worktree' kind: `git worktree add --detach` of a ref, or of HEAD plus the user's uncommitted changes
// (WORKING_TREE); outside git a plain copy of the folder. Its `.git` file points home, so it is for running the
// user's own commands (baselines, blame probes), never an agent's or a prediction's (those get 'standalone').
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { resolveCommit } from '../git/git';
import { addDetachedWorktree, pruneWorktrees, removeWorktree } from '../git/worktree';
import { DEPENDENCY_DIRS } from '../sandbox/dependencyDirs';
import {
  copyPlainTree,
  copySource,
  copyUncommittedChanges,
  linkDependencies,
  WORKING_TREE,
} from './copySource';
import type { CopyScratch, MadeCopy } from './copyTypes';

export async function worktreeCopy(
  workspaceDir: string,
  ref: string,
  scratch: CopyScratch,
): Promise<MadeCopy> {
  const { workspace, root } = await copySource(workspaceDir, ref);
  if (root === null) {
    const copy = path.join(scratch.dir, path.basename(workspace));
    await copyPlainTree(workspace, copy, { topLevel: DEPENDENCY_DIRS, weave: ['runs'] });
    await linkDependencies(workspace, copy);
    return { dir: copy, root: copy };
  }
  // A unique last path segment gives each worktree its own admin folder (.git/worktrees/<name>).
  const checkout = path.join(scratch.dir, `tree-${path.basename(scratch.dir).slice(-6)}`);
  const commit = await resolveCommit(root, ref === WORKING_TREE ? 'HEAD' : ref);
  scratch.afterRemoval.push(() => pruneWorktrees(root));
  await addDetachedWorktree(root, checkout, commit);
  scratch.beforeRemoval.push(() => removeWorktree(root, checkout));
  if (ref === WORKING_TREE) await copyUncommittedChanges(root, checkout);
  const inCheckout = path.join(checkout, path.relative(root, workspace));
  await fs.mkdir(inCheckout, { recursive: true });
  await linkDependencies(workspace, inCheckout);
  return { dir: inCheckout, root: checkout };
}
