// The 'standalone' kind, for contained runs. Unlike a `git worktree` (whose `.git` file points back into the
// user's repository, so code under test could follow it and rewrite history, hooks or real files), this is a
// plain copy of the chosen state with a fresh repository of its own: one commit of that state, no remote, no link
// home. The user's repository is only read (a temporary index, never the user's own).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { git, resolveCommit } from '../git/git';
import { containmentFor, linkDependenciesUnsandboxed, type ContainedTree } from '../sandbox/containment';
import { DEPENDENCY_DIRS } from '../sandbox/dependencyDirs';
import { copyPlainTree, copySource, copyUncommittedChanges, WORKING_TREE } from './copySource';
import type { ContainRequest, CopyScratch, MadeCopy } from './copyTypes';

export async function standaloneCopy(
  workspaceDir: string,
  ref: string,
  scratch: CopyScratch,
  contain: ContainRequest | undefined,
): Promise<MadeCopy> {
  const { workspace, root: repoRoot } = await copySource(workspaceDir, ref);
  const root = path.join(scratch.dir, 'tree');
  await fs.mkdir(root);
  const userRoot = repoRoot ?? workspace;
  if (repoRoot === null) {
    await copyPlainTree(workspace, root, {
      topLevel: [...DEPENDENCY_DIRS, '.git'],
      weave: ['runs', 'cache'],
    });
  } else {
    await exportCommit(repoRoot, ref === WORKING_TREE ? 'HEAD' : ref, root, scratch.dir);
    if (ref === WORKING_TREE) await copyUncommittedChanges(repoRoot, root);
  }
  await commitAsOwnRepository(root, repoRoot !== null);
  const inCheckout = path.join(root, path.relative(userRoot, workspace));
  await fs.mkdir(inCheckout, { recursive: true });
  const tree: ContainedTree = {
    workspaceDir: inCheckout,
    root,
    userRoot,
    dependencies: await dependencyMountPoints(userRoot, root, workspace, inCheckout),
  };
  if (contain === undefined) {
    // Nobody binds the dependency folders into an uncontained copy: linked, so its tests can run.
    await linkDependenciesUnsandboxed(tree);
    return { dir: inCheckout, root };
  }
  const { specFile, ...request } = contain;
  return { dir: inCheckout, root, containment: await containmentFor(tree, specFile, request) };
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

/** The user's dependency folders and the empty mount points made for them in the copy. */
async function dependencyMountPoints(
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

async function isDirectory(p: string): Promise<boolean> {
  return fs.stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
