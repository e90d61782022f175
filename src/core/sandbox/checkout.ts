// Standalone scratch checkouts for contained runs. Unlike a `git worktree` (whose `.git` file points back into
// the user's repository, so code under test could follow it and rewrite history, hooks or real files), this is
// a plain copy of the chosen state with a fresh repository of its own: one commit of that state, no remote, no
// link home. The user's repository is only read (a temporary index, never the user's own), and the copy is
// always removed afterwards, error and abort included.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git, resolveCommit } from '../git/git';
import {
  checkoutSource,
  copyUncommittedChanges,
  copyWorkspaceTree,
  DEPENDENCY_DIRS,
  WORKING_TREE,
} from '../git/worktree';
import { removeTree } from '../deepTrees';

export { DEPENDENCY_DIRS } from '../git/worktree';

export interface StandaloneCheckout {
  /** The workspace folder's counterpart inside the checkout. */
  workspaceDir: string;
  /** The checkout's top folder (its own repository root). */
  root: string;
  /** The user's repository root (or the workspace outside git): to hide inside the sandbox. */
  userRoot: string;
  /** Dependency folders of the user's tree and where they belong in the checkout. */
  dependencies: Array<{ source: string; target: string }>;
}

/**
 * Runs `fn` with a standalone copy of `workspaceDir` at `ref` (a commit, or WORKING_TREE = HEAD plus the
 * uncommitted and untracked, non-ignored changes). The workspace may be a subfolder of its repository: the same
 * subfolder of the copy is passed.
 */
export async function withStandaloneCheckout<T>(
  workspaceDir: string,
  ref: string,
  fn: (checkout: StandaloneCheckout) => Promise<T>,
): Promise<T> {
  const { workspace, root: repoRoot } = await checkoutSource(workspaceDir, ref);
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-sandbox-'));
  try {
    const root = path.join(scratch, 'tree');
    await fs.mkdir(root);
    const userRoot = repoRoot ?? workspace;
    if (repoRoot === null) {
      await copyWorkspaceTree(workspace, root, {
        topLevel: [...DEPENDENCY_DIRS, '.git'],
        weave: ['runs', 'cache'],
      });
    } else {
      await exportCommit(repoRoot, ref === WORKING_TREE ? 'HEAD' : ref, root, scratch);
      if (ref === WORKING_TREE) await copyUncommittedChanges(repoRoot, root, DEPENDENCY_DIRS);
    }
    await commitAsOwnRepository(root, repoRoot !== null);
    const inCheckout = path.join(root, path.relative(userRoot, workspace));
    await fs.mkdir(inCheckout, { recursive: true });
    const dependencies = await dependencyFolders(userRoot, root, workspace, inCheckout);
    return await fn({ workspaceDir: inCheckout, root, userRoot, dependencies });
  } finally {
    await removeTree(scratch);
  }
}

/** Writes the tree of `ref` into `target` through a temporary index: the user's index and HEAD stay as they are. */
async function exportCommit(repoRoot: string, ref: string, target: string, scratch: string): Promise<void> {
  const commit = await resolveCommit(repoRoot, ref);
  const env = { GIT_INDEX_FILE: path.join(scratch, 'export.index') };
  const common = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', `--work-tree=${target}`];
  await git([...common, 'read-tree', commit], repoRoot, { env });
  await git([...common, 'checkout-index', '--all', '--force'], repoRoot, { env });
}

/**
 * A repository of the copy's own, so tools that ask git (and Weave's patch snapshots) work without a link home.
 * The copy holds no ignored file but those the project tracks despite its ignore rules (`git add -f
 * build/config.js`): they are part of the base too, added by force, so a change to one shows in the diff.
 */
async function commitAsOwnRepository(root: string, fromGit: boolean): Promise<void> {
  await git(['init', '-q'], root);
  await fs.writeFile(
    path.join(root, '.git', 'info', 'exclude'),
    DEPENDENCY_DIRS.map((d) => `/${d}\n`).join(''),
  );
  await git(['add', '-A'], root);
  // Outside git every file of the workspace was copied: its .gitignore means nothing there.
  const forceTracked = fromGit
    ? (await git(['ls-files', '-z', '--others', '--ignored', '--exclude-standard'], root))
        .split('\0')
        .filter((p) => p !== '' && !p.split('/').some((part) => DEPENDENCY_DIRS.includes(part)))
    : [];
  if (forceTracked.length > 0) {
    await git(['add', '-f', '--pathspec-from-file=-', '--pathspec-file-nul'], root, {
      input: forceTracked.map((p) => `${p}\0`).join(''),
    });
  }
  await git(
    [
      '-c',
      'user.name=weave',
      '-c',
      'user.email=weave@localhost',
      '-c',
      'commit.gpgsign=false',
      'commit',
      '-q',
      '--allow-empty',
      '--no-verify',
      '-m',
      'weave: base of a contained run',
    ],
    root,
  );
}

async function dependencyFolders(
  userRoot: string,
  root: string,
  workspace: string,
  inCheckout: string,
): Promise<Array<{ source: string; target: string }>> {
  const pairs = [{ from: userRoot, to: root }];
  if (workspace !== userRoot) pairs.push({ from: workspace, to: inCheckout });
  const found: Array<{ source: string; target: string }> = [];
  for (const { from, to } of pairs) {
    for (const name of DEPENDENCY_DIRS) {
      const source = path.join(from, name);
      if (!(await isDirectory(source))) continue;
      const target = path.join(to, name);
      // The mount point the sandbox binds the folder onto (outside a sandbox: a symlink instead).
      await fs.mkdir(target, { recursive: true });
      found.push({ source, target });
    }
  }
  return found;
}

/**
 * For an explicitly unsandboxed run: the dependency folders as symlinks, since nothing binds them. (In the
 * sandbox the empty mount points stay and bwrap shows the real folders read-only there.)
 */
export async function linkDependenciesUnsandboxed(checkout: StandaloneCheckout): Promise<void> {
  for (const { source, target } of checkout.dependencies) {
    await fs.rm(target, { recursive: true, force: true });
    await fs.symlink(source, target, 'junction');
  }
}

async function isDirectory(p: string): Promise<boolean> {
  return fs.stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
