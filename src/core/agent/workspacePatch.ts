// The agent's change as a patch: a snapshot (git tree) of the worktree before the agent starts, including
// the user's uncommitted changes, diffed against a snapshot at the end. Snapshots use the throw-away
// worktree's own index (a non-git copy gets a fresh `git init`), so the user's index is never touched.
// Patches are workspace-relative so they apply to the user's workspace folder wherever its repo root is.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { git, GitError, gitRoot } from '../git/git';

export class PatchApplyError extends Error {
  override name = 'PatchApplyError';
}

// Never part of the agent's change: Weave's run state, and node_modules, which may be a symlink the checkout
// added (a `node_modules/` ignore rule does not match a symlink). They are dropped from the snapshot's index
// after `git add`, not excluded by pathspec: git 2.39 fails `add` outright ("The following paths are ignored")
// when an exclude pathspec names a path an ignore rule also matches, as in every npm project.
const EXCLUDED = ['.weave/runs', 'node_modules'];

/** Records the workspace's current content as a git tree and returns its id. */
export async function snapshotWorkspace(workspaceDir: string): Promise<string> {
  if ((await gitRoot(workspaceDir)) === null) {
    // A copied non-git folder: a private repository just for the diff.
    await git(['init', '-q'], workspaceDir);
  }
  await git(['add', '-A', '--', '.'], workspaceDir);
  await git(['rm', '-r', '-q', '--cached', '--ignore-unmatch', '--', ...EXCLUDED], workspaceDir);
  return (await git(['write-tree'], workspaceDir)).trim();
}

export interface WorkspaceDiff {
  patch: string;
  files: string[];
  /** The snapshot the patch ends at (the diff policy reads the changes between it and the base). */
  afterTree: string;
}

/** The change since `baseTree`, relative to the workspace folder. */
export async function diffWorkspace(workspaceDir: string, baseTree: string): Promise<WorkspaceDiff> {
  const after = await snapshotWorkspace(workspaceDir);
  const common = ['--no-color', '--no-ext-diff', '--relative', baseTree, after, '--', '.'];
  const patch = await git(['diff', '--binary', ...common], workspaceDir);
  const names = await git(['diff', '--name-only', ...common], workspaceDir);
  return { patch, files: names.split('\n').filter((l) => l !== ''), afterTree: after };
}

/**
 * Applies a workspace-relative patch to the user's workspace, all or nothing: refuses (PatchApplyError)
 * when it does not apply cleanly, leaving every file as it was.
 */
export async function applyPatchToWorkspace(workspaceDir: string, patch: string): Promise<void> {
  if (patch.trim() === '') return;
  const top = await gitRoot(workspaceDir);
  // Inside a repo, `git apply` ignores paths outside the current folder, so apply from the top level with
  // the workspace's prefix; outside git it behaves like patch(1) in the folder itself.
  let cwd = workspaceDir;
  const extra: string[] = [];
  if (top !== null) {
    cwd = top;
    const prefix = path
      .relative(top, await fs.realpath(workspaceDir))
      .split(path.sep)
      .join('/');
    if (prefix) extra.push(`--directory=${prefix}`);
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-patch-'));
  try {
    const file = path.join(dir, 'agent.patch');
    await fs.writeFile(file, patch);
    try {
      await git(['apply', '--check', ...extra, file], cwd);
    } catch (error) {
      const detail = error instanceof GitError ? error.stderr.trim() : String(error);
      throw new PatchApplyError(
        `The agent's patch does not apply cleanly to ${workspaceDir} (did the files change since the run?); nothing was changed.\n${detail}`,
      );
    }
    await git(['apply', ...extra, file], cwd);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
