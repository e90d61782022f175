// The file tools family of the guard's command table: readers never report, writers report every operand (or the
// last / -t DIR), sed -i, awk -i inplace, sort -o, uniq OUTPUT, dd of=, find -delete / -exec.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { effectsOf, opaque, targets } from './effects';

describe('file tools', () => {
  test('readers report nothing, even on a test', () => {
    for (const argv of [
      ['cat', 'test/a.test.js'],
      ['grep', '-rn', 'x', 'test/'],
      ['head', '-5', 'test/a.test.js'],
      ['mkdir', '-p', 'test/fixtures'],
      ['sed', 's/a/b/', 'test/a.test.js'],
      ['sort', 'test/a.test.js'],
    ])
      assert.deepEqual(effectsOf(argv), [], argv.join(' '));
  });
  test('writers of every operand', () => {
    assert.deepEqual(targets(effectsOf(['rm', '-rf', 'a', 'b'])), ['write a', 'write b']);
    assert.deepEqual(targets(effectsOf(['tee', '-a', 'log'])), ['write log']);
    assert.deepEqual(targets(effectsOf(['mv', 'x', 'y'])), ['write x', 'write y']);
  });
  test('writers of the last operand or of -t DIR', () => {
    assert.deepEqual(targets(effectsOf(['cp', '-r', 'a', 'b', 'dest'])), ['write dest']);
    assert.deepEqual(targets(effectsOf(['cp', '-t', 'dir', 'a', 'b'])), ['write dir']);
    assert.deepEqual(targets(effectsOf(['ln', '-sf', 'x', 'test/a.test.js'])), ['write test/a.test.js']);
  });
  test('an unresolved write target is reported as one', () => {
    assert.deepEqual(targets(effectsOf(['cp', 'x', opaque('$(echo t)')])), ['unresolved $(echo t)']);
  });
  test('sed -i writes its operands (the script too: it is an operand the guard cannot tell apart)', () => {
    assert.deepEqual(targets(effectsOf(['sed', '-i', 's/a/b/', 'f.js'])), ['write s/a/b/', 'write f.js']);
  });
  test('sed in-place flags in every combination', () => {
    for (const flags of [
      ['-i'],
      ['-Ei'],
      ['-i.bak'],
      ['--in-place=.bak'],
      ['--in-place'],
      ['-n', '-i'],
      ['-ni'],
      ['-E', '-i'],
    ])
      assert.ok(targets(effectsOf(['sed', ...flags, 's/a/b/', 'f'])).includes('write f'), flags.join(' '));
    assert.deepEqual(effectsOf(['sed', '-n', '-E', 's/a/b/p', 'f']), []);
  });
  test('awk: the program is inline code; -i inplace writes the files', () => {
    assert.deepEqual(effectsOf(['awk', '{print}', 'f']), ['inline {print}']);
    assert.deepEqual(targets(effectsOf(['awk', '-i', 'inplace', '{print}', 'f'])), [
      'inline {print}',
      'write f',
    ]);
  });
  test('sort -o, uniq OUTPUT, dd of=', () => {
    assert.deepEqual(targets(effectsOf(['sort', '-o', 'out', 'in'])), ['write out']);
    assert.deepEqual(targets(effectsOf(['uniq', 'in', 'out'])), ['write out']);
    assert.deepEqual(targets(effectsOf(['dd', 'if=/dev/zero', 'of=t/x'])), ['write t/x']);
  });
  test('find -delete writes its roots; -exec runs the command on each root', () => {
    assert.deepEqual(targets(effectsOf(['find', 'test', '-name', '*.js', '-delete'])), ['write test']);
    assert.deepEqual(targets(effectsOf(['find', 'test', '-exec', 'sed', '-i', 's/a/b/', '{}', '+'])), [
      'write s/a/b/',
      'write test',
    ]);
    assert.deepEqual(effectsOf(['find', 'test', '-name', '*.js']), []);
  });
  test('an unknown command gets `other` access to its words', () => {
    assert.deepEqual(effectsOf(['frobnicate', 'test/a.test.js']), ['other test/a.test.js (frobnicate)']);
  });
});
