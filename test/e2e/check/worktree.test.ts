// copyWorkspace's 'worktree' kind and the git helpers on real temp repositories: the user's tree (uncommitted changes included) is
// byte-identical afterwards, the checkout is gone, a subfolder workspace maps into the checkout.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { gitRoot, headCommit, isClean } from '../../../src/core/git/git';
import { WORKING_TREE, withCopiedWorkspace, type CopiedWorkspace } from '../../../src/core/workspace';
import { gitIn, makeRepo, snapshot, writeFiles } from '../../support/gitRepo';

const cleanup: string[] = [];
after(async () => {
  await Promise.all(cleanup.map((d) => fs.rm(d, { recursive: true, force: true })));
});

describe('git helpers', () => {
  it('finds the root, HEAD and cleanliness (scoped to the folder, ignoring Weave run state)', async () => {
    const repo = await makeRepo({ 'app/a.txt': 'a\n', 'other/b.txt': 'b\n' });
    cleanup.push(repo);
    const app = path.join(repo, 'app');
    assert.equal(await gitRoot(app), repo);
    assert.equal(await headCommit(app), gitIn(repo, 'rev-parse', 'HEAD').trim());
    assert.equal(await isClean(app), true);
    await writeFiles(app, { '.weave/runs/r1.json': '{}', '.weave/.gitignore': 'runs/\n' });
    assert.equal(await isClean(app), true, 'Weave state does not make the tree dirty');
    await writeFiles(repo, { 'other/b.txt': 'changed\n' });
    assert.equal(await isClean(app), true, 'changes outside the workspace folder do not count');
    await writeFiles(app, { 'new.txt': 'untracked\n' });
    assert.equal(await isClean(app), false);
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-nogit-'));
    cleanup.push(outside);
    assert.equal(await gitRoot(outside), null);
    assert.equal(await headCommit(outside), null);
    assert.equal(await isClean(outside), false);
  });
});

/** A worktree copy of `dir` at `ref` for `fn`'s duration, `fn` given the workspace's counterpart in it. */
function withWorktree<T>(dir: string, ref: string, fn: (dirInCopy: string) => Promise<T>): Promise<T> {
  return withCopiedWorkspace(dir, { kind: 'worktree', ref }, (copy: CopiedWorkspace) => fn(copy.dir));
}

describe('copyWorkspace: worktree', () => {
  it('checks out a ref of a subfolder workspace without touching the user tree, and removes it', async () => {
    const repo = await makeRepo({ 'ws/lib.js': 'v1\n', 'ws/keep.txt': 'k\n', 'README.md': 'r\n' });
    cleanup.push(repo);
    const first = gitIn(repo, 'rev-parse', 'HEAD').trim();
    await writeFiles(repo, { 'ws/lib.js': 'v2\n' });
    gitIn(repo, 'commit', '-q', '-am', 'v2');
    // Uncommitted work of every kind: modified, staged, untracked, deleted.
    await writeFiles(repo, {
      'ws/lib.js': 'v3 uncommitted\n',
      'ws/untracked.txt': 'u\n',
      'ws/staged.txt': 's\n',
    });
    gitIn(repo, 'add', 'ws/staged.txt');
    await fs.rm(path.join(repo, 'ws/keep.txt'));
    const before = await snapshot(repo);
    const statusBefore = gitIn(repo, 'status', '--porcelain');

    let seenDir = '';
    const content = await withWorktree(path.join(repo, 'ws'), first, async (dir) => {
      seenDir = dir;
      assert.equal(path.basename(dir), 'ws');
      assert.equal(await fs.readFile(path.join(dir, 'keep.txt'), 'utf8'), 'k\n');
      await assert.rejects(fs.access(path.join(dir, 'untracked.txt')));
      await fs.writeFile(path.join(dir, 'lib.js'), 'scribbled in the checkout\n');
      return fs.readFile(path.join(dir, '..', 'README.md'), 'utf8');
    });
    assert.equal(content, 'r\n');
    await assert.rejects(fs.access(seenDir), 'the checkout is removed');
    assert.deepEqual(await snapshot(repo), before, 'the user tree is byte-identical');
    assert.equal(gitIn(repo, 'status', '--porcelain'), statusBefore);
    assert.equal(gitIn(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)?.length, 1);
  });

  it('WORKTREE carries the uncommitted changes and untracked files', async () => {
    const repo = await makeRepo({ 'lib.js': 'v1\n', 'gone.txt': 'g\n', '.gitignore': 'ignored.log\n' });
    cleanup.push(repo);
    await writeFiles(repo, { 'lib.js': 'v2 uncommitted\n', 'new/file.txt': 'n\n', 'ignored.log': 'x\n' });
    await fs.rm(path.join(repo, 'gone.txt'));
    const before = await snapshot(repo);
    await withWorktree(repo, WORKING_TREE, async (dir) => {
      assert.equal(await fs.readFile(path.join(dir, 'lib.js'), 'utf8'), 'v2 uncommitted\n');
      assert.equal(await fs.readFile(path.join(dir, 'new/file.txt'), 'utf8'), 'n\n');
      await assert.rejects(fs.access(path.join(dir, 'gone.txt')));
      await assert.rejects(fs.access(path.join(dir, 'ignored.log')));
    });
    assert.deepEqual(await snapshot(repo), before);
  });

  it('removes the checkout when the callback throws, and rejects unknown refs clearly', async () => {
    const repo = await makeRepo({ 'a.txt': 'a\n' });
    cleanup.push(repo);
    let seenDir = '';
    await assert.rejects(
      withWorktree(repo, 'HEAD', async (dir) => {
        seenDir = dir;
        throw new Error('boom');
      }),
      /boom/,
    );
    await assert.rejects(fs.access(seenDir));
    assert.equal(gitIn(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)?.length, 1);
    await assert.rejects(
      withWorktree(repo, 'no-such-branch', () => Promise.resolve()),
      /unknown git ref 'no-such-branch'/,
    );
  });

  it('copies a folder outside git (WORKTREE only) and links its node_modules', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-plain-'));
    cleanup.push(dir);
    await writeFiles(dir, {
      'a.txt': 'a\n',
      'node_modules/dep/index.js': 'dep\n',
      '.weave/runs/old.json': '{}',
    });
    const before = await snapshot(dir);
    await withWorktree(dir, WORKING_TREE, async (copy) => {
      assert.notEqual(copy, dir);
      assert.equal(await fs.readFile(path.join(copy, 'a.txt'), 'utf8'), 'a\n');
      assert.equal((await fs.lstat(path.join(copy, 'node_modules'))).isSymbolicLink(), true);
      await assert.rejects(fs.access(path.join(copy, '.weave/runs/old.json')));
      await fs.writeFile(path.join(copy, 'a.txt'), 'changed in the copy\n');
    });
    assert.deepEqual(await snapshot(dir), before);
    await assert.rejects(
      withWorktree(dir, 'main', () => Promise.resolve()),
      /not in a git repository/,
    );
  });
});
