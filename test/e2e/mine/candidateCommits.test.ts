// The walk over a repository's history (real git): which commits are candidates, why the others are not, and
// the limits (files, lines, how many candidates before the walk stops).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lookAtCommits, type CommitLook } from '../../../src/core/tasks/mine/candidateCommits';

const ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Walk',
  GIT_AUTHOR_EMAIL: 'walk@example.invalid',
  GIT_COMMITTER_NAME: 'Walk',
  GIT_COMMITTER_EMAIL: 'walk@example.invalid',
};

function commit(root: string, message: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  execFileSync('git', ['add', '-A'], { cwd: root, env: ENV });
  execFileSync('git', ['commit', '-q', '-m', message], { cwd: root, env: ENV });
}

describe('the commit walk of weave mine', () => {
  let root: string;
  const subjects = (looks: CommitLook[]) => looks.map((l) => [l.subject, l.rejected ?? 'candidate']);

  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-walk-'));
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root, env: ENV });
    commit(root, 'start', { 'lib/a.py': 'A = 1\n', 'tests/test_a.py': 'def test_a(): pass\n' });
    commit(root, 'tests only', { 'tests/test_a.py': 'def test_a(): assert True\n' });
    commit(root, 'source only', { 'lib/a.py': 'A = 2\n' });
    // 40 lines for 1 in lib/a.py (+40 -1), one line changed in the test (+1 -1): 43.
    commit(root, 'too big', {
      'lib/a.py': `${'X = 1\n'.repeat(40)}`,
      'tests/test_a.py': 'def test_a(): assert 1\n',
    });
    commit(root, 'first good', { 'lib/b.py': 'B = 1\n', 'tests/test_b.py': 'def test_b(): pass\n' });
    commit(root, 'second good', { 'lib/c.py': 'C = 1\n', 'test_c.py': 'def test_c(): pass\n' });
  });

  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('takes commits changing source and tests together, newest first, and says why it leaves the others', async () => {
    const looks = await lookAtCommits(root, undefined, '', { maxCandidates: 10, maxFiles: 30, maxLines: 30 });
    assert.deepEqual(subjects(looks), [
      ['second good', 'candidate'],
      ['first good', 'candidate'],
      ['too big', 'changes 43 lines (limit 30)'],
      ['source only', 'changes no test file'],
      ['tests only', 'changes no source file (tests only)'],
      ['start', 'the first commit: no parent to start the task from'],
    ]);
    assert.deepEqual(looks[0]?.testFiles, ['test_c.py']);
    assert.deepEqual(looks[0]?.sourceFiles, ['lib/c.py']);
  });

  it('stops walking once it has the newest --max-candidates candidates', async () => {
    const looks = await lookAtCommits(root, undefined, '', {
      maxCandidates: 1,
      maxFiles: 30,
      maxLines: 1500,
    });
    assert.deepEqual(subjects(looks), [['second good', 'candidate']]);
  });

  it('refuses a range that is not one, with git’s reason', async () => {
    await assert.rejects(
      lookAtCommits(root, 'nope..main', '', { maxCandidates: 1, maxFiles: 30, maxLines: 1500 }),
      /'nope\.\.main' is no revision range here/,
    );
  });
});
