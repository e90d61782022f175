// copyWorkspace, the one way Weave copies a workspace, on real temp repositories: each kind gives a usable copy
// of the right state (worktree: linked home; standalone: a repository of its own, contained or not; bundle: a
// task's base from its bundle), the user's tree stays byte-identical, and dispose() — or a failed copy — leaves
// no temp folder and no worktree behind.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { specFileSchema } from '../../../src/shared/specSchema';
import { copyWorkspace, WORKING_TREE, withCopiedWorkspace } from '../../../src/core/workspace';
import { gitIn, makeRepo, snapshot, writeFiles } from '../../support/gitRepo';

const cleanup: string[] = [];
after(async () => {
  await Promise.all(cleanup.map((d) => fs.rm(d, { recursive: true, force: true })));
});

const NO_SPECS = specFileSchema.parse({ version: 1, goal: '', specs: [] });

/** Temp folders whose name starts with `prefix` (each test uses a prefix of its own). */
async function tempFolders(prefix: string): Promise<string[]> {
  return (await fs.readdir(os.tmpdir())).filter((n) => n.startsWith(prefix));
}

function worktreeCount(repo: string): number {
  return gitIn(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)?.length ?? 0;
}

describe('copyWorkspace', () => {
  it('standalone: the working state in a repository of its own, dependencies linked when uncontained', async () => {
    const repo = await makeRepo({ 'ws/lib.js': 'v1\n', '.gitignore': 'node_modules/\n' });
    cleanup.push(repo);
    await writeFiles(repo, {
      'ws/lib.js': 'v2 uncommitted\n',
      'ws/new.txt': 'n\n',
      'node_modules/dep/i.js': 'd\n',
    });
    const before = await snapshot(repo);
    const prefix = 'weave-test-standalone-';
    const copy = await copyWorkspace(path.join(repo, 'ws'), {
      kind: 'standalone',
      ref: WORKING_TREE,
      tempPrefix: prefix,
    });
    assert.equal(copy.containment, undefined);
    assert.equal(path.relative(copy.root, copy.dir), 'ws');
    assert.equal(await fs.readFile(path.join(copy.dir, 'lib.js'), 'utf8'), 'v2 uncommitted\n');
    assert.equal(await fs.readFile(path.join(copy.dir, 'new.txt'), 'utf8'), 'n\n');
    // Its own repository: .git is a folder (a worktree's is a file pointing home), one commit, clean.
    assert.equal((await fs.lstat(path.join(copy.root, '.git'))).isDirectory(), true);
    assert.equal(gitIn(copy.root, 'rev-list', '--count', 'HEAD').trim(), '1');
    assert.equal(gitIn(copy.root, 'remote').trim(), '');
    assert.equal(gitIn(copy.root, 'status', '--porcelain').trim(), '');
    assert.equal(await fs.readlink(path.join(copy.root, 'node_modules')), path.join(repo, 'node_modules'));
    await copy.dispose();
    await copy.dispose(); // a second call does nothing
    assert.deepEqual(await tempFolders(prefix), []);
    assert.deepEqual(await snapshot(repo), before, "the user's tree is byte-identical");
  });

  it('standalone, contained: the sandbox binds the dependency folders onto empty mount points', async () => {
    const repo = await makeRepo({ 'lib.js': 'v1\n', '.gitignore': 'node_modules/\n' });
    cleanup.push(repo);
    await writeFiles(repo, { 'node_modules/dep/i.js': 'd\n' });
    await withCopiedWorkspace(
      repo,
      { kind: 'standalone', ref: WORKING_TREE, contain: { specFile: NO_SPECS, network: 'none' } },
      async (copy) => {
        const sandbox = copy.containment.sandbox;
        assert.ok(sandbox, 'bubblewrap must work on this machine');
        assert.equal(sandbox.checkout, copy.root);
        assert.deepEqual(sandbox.hiddenDirs, [repo]);
        const mountPoint = path.join(copy.root, 'node_modules');
        assert.ok(
          sandbox.readOnlyBinds?.some(
            (b) => b.source === path.join(repo, 'node_modules') && b.target === mountPoint,
          ),
        );
        assert.equal((await fs.lstat(mountPoint)).isDirectory(), true);
        assert.deepEqual(await fs.readdir(mountPoint), []);
      },
    );
  });

  it('worktree: a ref checked out linked home, forgotten by git afterwards', async () => {
    const repo = await makeRepo({ 'a.txt': 'v1\n' });
    cleanup.push(repo);
    const first = gitIn(repo, 'rev-parse', 'HEAD').trim();
    await writeFiles(repo, { 'a.txt': 'v2\n' });
    gitIn(repo, 'commit', '-qam', 'v2');
    const prefix = 'weave-test-worktree-';
    const content = await withCopiedWorkspace(
      repo,
      { kind: 'worktree', ref: first, tempPrefix: prefix },
      async (copy) => {
        assert.equal(copy.dir, copy.root);
        assert.equal((await fs.lstat(path.join(copy.root, '.git'))).isFile(), true);
        assert.equal(worktreeCount(repo), 2);
        return fs.readFile(path.join(copy.dir, 'a.txt'), 'utf8');
      },
    );
    assert.equal(content, 'v1\n');
    assert.equal(worktreeCount(repo), 1);
    assert.deepEqual(await tempFolders(prefix), []);
  });

  it("bundle: a task's base cloned from its bundle at the commit, with no way home", async () => {
    const repo = await makeRepo({ 'a.txt': 'base\n' });
    cleanup.push(repo);
    const base = gitIn(repo, 'rev-parse', 'HEAD').trim();
    await writeFiles(repo, { 'a.txt': 'later\n' });
    gitIn(repo, 'commit', '-qam', 'later');
    const taskDir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-test-task-'));
    cleanup.push(taskDir);
    const bundle = path.join(taskDir, 'base.bundle');
    gitIn(repo, 'bundle', 'create', '-q', bundle, '--all');
    const prefix = 'weave-test-bundle-';
    await withCopiedWorkspace(bundle, { kind: 'bundle', ref: base, tempPrefix: prefix }, async (copy) => {
      assert.equal(await fs.readFile(path.join(copy.dir, 'a.txt'), 'utf8'), 'base\n');
      assert.equal(gitIn(copy.dir, 'rev-parse', 'HEAD').trim(), base);
      assert.equal(gitIn(copy.dir, 'remote', 'get-url', 'origin').trim(), bundle);
      assert.ok(copy.dir.startsWith(copy.scratch + path.sep));
    });
    assert.deepEqual(await tempFolders(prefix), []);
  });

  it('a copy that fails leaves no temp folder and no worktree, and says why', async () => {
    const repo = await makeRepo({ 'a.txt': 'a\n' });
    cleanup.push(repo);
    const prefix = 'weave-test-failed-';
    await assert.rejects(
      copyWorkspace(repo, { kind: 'worktree', ref: 'no-such-branch', tempPrefix: prefix }),
      /unknown git ref 'no-such-branch'/,
    );
    await assert.rejects(
      copyWorkspace(repo, { kind: 'standalone', ref: 'no-such-branch', tempPrefix: prefix }),
      /unknown git ref 'no-such-branch'/,
    );
    await assert.rejects(
      copyWorkspace(path.join(repo, 'missing.bundle'), { kind: 'bundle', ref: 'HEAD', tempPrefix: prefix }),
    );
    assert.deepEqual(await tempFolders(prefix), []);
    assert.equal(worktreeCount(repo), 1);
    const plain = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-test-plain-'));
    cleanup.push(plain);
    await assert.rejects(
      copyWorkspace(plain, { kind: 'standalone', ref: 'main', tempPrefix: prefix }),
      /not in a git repository/,
    );
    assert.deepEqual(await tempFolders(prefix), []);
  });

  it('removes the copy when the function throws', async () => {
    const repo = await makeRepo({ 'a.txt': 'a\n' });
    cleanup.push(repo);
    const prefix = 'weave-test-throws-';
    for (const kind of ['worktree', 'standalone'] as const) {
      await assert.rejects(
        withCopiedWorkspace(repo, { kind, ref: 'HEAD', tempPrefix: prefix }, () =>
          Promise.reject(new Error('boom')),
        ),
        /boom/,
      );
    }
    assert.deepEqual(await tempFolders(prefix), []);
    assert.equal(worktreeCount(repo), 1);
  });
});
