// The patches family: `patch` writes what its patch names, and the diff file list shared with apply_patch.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { diffTargets } from '../../../src/cli/guard/commands/patches';
import { effectsOf, targets } from './effects';

describe('patch and diff targets', () => {
  test('diffTargets: ---/+++ with and without a/ b/, diff --git, renames; /dev/null skipped', () => {
    assert.deepEqual(diffTargets('--- /dev/null\n+++ b/new.js\n'), ['b/new.js', 'new.js']);
    assert.deepEqual(diffTargets('diff --git a/x b/y\nrename from x\nrename to y\n').sort(), ['x', 'y']);
  });
  test('patch < heredoc writes the files the patch names; an unreadable patch is unresolved', () => {
    assert.deepEqual(targets(effectsOf(['patch', '-p1'], { stdin: '--- a/t/x.js\n+++ b/t/x.js\n' })), [
      'write a/t/x.js',
      'write t/x.js',
      'write b/t/x.js',
    ]);
    assert.deepEqual(targets(effectsOf(['patch', '-p1'])), ['unresolved stdin']);
  });
  test('patch FILE writes FILE', () => {
    assert.deepEqual(targets(effectsOf(['patch', 'src/a.js', '/nonexistent.diff'])), [
      'write src/a.js',
      'write /nonexistent.diff',
    ]);
  });
});
