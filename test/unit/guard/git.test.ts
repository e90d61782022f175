// The git family: reads never report; writers report their operands or the whole tree; what moves HEAD or brings
// another commit's files into the work tree writes `.` (every protected file it holds).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { effectsOf, targets } from './effects';

describe('git', () => {
  test('reads', () => {
    for (const sub of ['diff', 'log', 'show', 'status', 'add', 'commit', 'fetch', 'blame'])
      assert.deepEqual(effectsOf(['git', sub, 'test/a.js']), [], sub);
  });
  test('writers of their operands', () => {
    assert.deepEqual(targets(effectsOf(['git', 'checkout', '--', 'test/'])), ['write test/']);
    assert.deepEqual(targets(effectsOf(['git', 'restore', 'test/a.js'])), ['write test/a.js']);
    assert.deepEqual(targets(effectsOf(['git', 'rm', '-q', 'test/a.js'])), ['write test/a.js']);
  });
  test('whole-tree writers', () => {
    assert.deepEqual(targets(effectsOf(['git', 'reset', '--hard'])), ['write .']);
    assert.deepEqual(targets(effectsOf(['git', 'stash'])), ['write .']);
    assert.deepEqual(targets(effectsOf(['git', 'clean', '-fd'])), ['write .']);
  });
  test('moving HEAD writes the work tree', () => {
    for (const argv of [
      ['merge', 'x'],
      ['pull', '.', 'x'],
      ['rebase', 'x'],
      ['cherry-pick', '-n', 'x'],
      ['revert', 'HEAD'],
      ['read-tree', '-u', '--reset', 'x'],
      ['stash', 'pop'],
    ])
      assert.deepEqual(targets(effectsOf(['git', ...argv])), ['write .'], argv.join(' '));
    assert.deepEqual(targets(effectsOf(['git', 'checkout', 'evil'])), ['write .', 'write evil']);
  });
  test('git -C moves the command; an unknown subcommand gets `other` access', () => {
    assert.deepEqual(effectsOf(['git', '-C', 'sub', 'rm', 'x']), ['write x in /w/sub (git rm)']);
    assert.deepEqual(effectsOf(['git', 'frob', 'test/a.js']), ['other test/a.js (git frob)']);
  });
  test('git apply of a heredoc writes what the patch names', () => {
    const patch = '--- a/test/a.js\n+++ b/test/a.js\n@@ -1 +1 @@\n-a\n+b\n';
    assert.deepEqual(targets(effectsOf(['git', 'apply'], { stdin: patch })), [
      'write a/test/a.js',
      'write test/a.js',
      'write b/test/a.js',
    ]);
    assert.deepEqual(targets(effectsOf(['git', 'apply', '/nonexistent.patch'])), [
      'unresolved /nonexistent.patch',
    ]);
  });
});
