// The agent's change as a patch: a snapshot (git tree) of the worktree before the agent starts, including
// the user's uncommitted changes, diffed against a snapshot at the end. Snapshots use the throw-away
// worktree's own index (a non-git copy gets a fresh `git init`), so the user's index is never touched.
// Patches are workspace-relative so they apply to the user's workspace folder wherever its repo root is.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { git, GitError, gitRoot } from '../git/git';
import {
  classifyApplyFailure,
  conflictReason,
  conflictSummary,
  splitPatchByFile,
  type FileConflict,
} from './patchConflicts';

/** A refused patch: `conflicts` says which files do not apply and why; `applicable` the files that still would. */
export class PatchApplyError extends Error {
  override name = 'PatchApplyError';
  constructor(
    message: string,
    readonly conflicts: readonly FileConflict[] = [],
    readonly applicable: readonly string[] = [],
  ) {
    super(message);
  }
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

/** Where `git apply` runs for a workspace folder, and the `--directory` it needs inside a larger repo. */
async function applyPlace(workspaceDir: string): Promise<{ cwd: string; extra: string[] }> {
  const top = await gitRoot(workspaceDir);
  // Inside a repo, `git apply` ignores paths outside the current folder, so apply from the top level with
  // the workspace's prefix; outside git it behaves like patch(1) in the folder itself.
  if (top === null) return { cwd: workspaceDir, extra: [] };
  const prefix = path
    .relative(top, await fs.realpath(workspaceDir))
    .split(path.sep)
    .join('/');
  return { cwd: top, extra: prefix ? [`--directory=${prefix}`] : [] };
}

async function withPatchFile<T>(patch: string, use: (file: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-patch-'));
  try {
    const file = path.join(dir, 'agent.patch');
    await fs.writeFile(file, patch);
    return await use(file);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Checks each file of the patch on its own: which would apply now, and which conflict and why. */
export async function checkPatchFiles(
  workspaceDir: string,
  patch: string,
): Promise<{ applicable: string[]; conflicts: FileConflict[] }> {
  const { cwd, extra } = await applyPlace(workspaceDir);
  const applicable: string[] = [];
  const conflicts: FileConflict[] = [];
  for (const file of splitPatchByFile(patch)) {
    const stderr = await withPatchFile(file.patch, async (f) => {
      try {
        await git(['apply', '--check', ...extra, f], cwd);
        return undefined;
      } catch (error) {
        return error instanceof GitError ? error.stderr : String(error);
      }
    });
    if (stderr === undefined) applicable.push(file.path);
    else {
      const kind = classifyApplyFailure(stderr);
      conflicts.push({ path: file.path, kind, reason: conflictReason(file.path, kind) });
    }
  }
  return { applicable, conflicts };
}

/**
 * Applies a workspace-relative patch to the user's workspace, all or nothing: refuses (PatchApplyError, naming
 * each conflicting file in words) when it does not apply cleanly, leaving every file as it was.
 */
export async function applyPatchToWorkspace(workspaceDir: string, patch: string): Promise<void> {
  if (patch.trim() === '') return;
  const { cwd, extra } = await applyPlace(workspaceDir);
  await withPatchFile(patch, async (file) => {
    try {
      await git(['apply', '--check', ...extra, file], cwd);
    } catch (error) {
      if (!(error instanceof GitError)) throw error;
      const { applicable, conflicts } = await checkPatchFiles(workspaceDir, patch);
      // Each file applies alone but not all together (e.g. two parts of one file): still the whole patch's refusal.
      const named: FileConflict[] =
        conflicts.length > 0
          ? conflicts
          : [{ path: 'the patch', kind: 'other', reason: "the agent's files do not apply together" }];
      throw new PatchApplyError(
        conflictSummary(named, conflicts.length > 0 ? applicable : []),
        named,
        conflicts.length > 0 ? applicable : [],
      );
    }
    await git(['apply', ...extra, file], cwd);
  });
}
