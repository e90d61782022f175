// The interpreters and shells family: inline code is handed on to be scanned, shell code is read back through the
// reader, and input the guard cannot read (a pipe from another program, a file it cannot open) is unresolved.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { effectsOf, opaque, targets } from './effects';

describe('interpreters and shells', () => {
  test('inline code: python -c, node -e, perl -pe, ruby -e, php -r', () => {
    assert.deepEqual(effectsOf(['python3', '-c', 'print(1)']), ['inline print(1)']);
    assert.deepEqual(effectsOf(['node', '-e', 'x()']), ['inline x()']);
    assert.deepEqual(effectsOf(['perl', '-pe', 's/a/b/']), ['inline s/a/b/']);
    assert.deepEqual(effectsOf(['ruby', '-e', 'x']), ['inline x']);
    assert.deepEqual(effectsOf(['php', '-r', 'x']), ['inline x']);
  });
  test('inline code that writes files, given an argument the guard cannot read, is unresolved (#36)', () => {
    const write = 'require("fs").writeFileSync(process.argv[1], "x")';
    assert.deepEqual(effectsOf(['node', '-e', write, opaque('$(ls test/add*)')]), [
      `inline ${write}`,
      'unresolved $(ls test/add*)',
    ]);
    assert.deepEqual(
      targets(effectsOf(['python3', '-c', 'import sys; open(sys.argv[1], "w")', opaque('"$f"')])),
      ['inline import sys; open(sys.argv[1], "w")', 'unresolved "$f"'],
    );
    // Code that writes nothing, or literal arguments: as before.
    assert.deepEqual(effectsOf(['node', '-e', 'console.log(1)', opaque('$(ls)')]), ['inline console.log(1)']);
    assert.deepEqual(effectsOf(['node', '-e', write, 'out.txt']), [`inline ${write}`]);
  });
  test('perl -i writes its operands', () => {
    assert.deepEqual(targets(effectsOf(['perl', '-pi', '-e', 's/a/b/', 'f'])), [
      'write s/a/b/',
      'write f',
      'inline s/a/b/',
    ]);
  });
  test('perl and ruby -i in every combination of switches; -Mstrict and -Ilib are not -i', () => {
    for (const flags of [
      ['-0pi'],
      ['-0777pi.bak'],
      ['-pi.bak'],
      ['-i', '-p'],
      ['-ni'],
      ['-lpi'],
      ['-p', '-i.orig'],
    ])
      assert.ok(
        targets(effectsOf(['perl', ...flags, '-e', 's/a/b/', 'f'])).includes('write f'),
        flags.join(' '),
      );
    assert.ok(targets(effectsOf(['ruby', '-pi', '-e', 'x', 'f'])).includes('write f'));
    assert.deepEqual(effectsOf(['perl', '-Mstrict', '-Ilib', '-ne', 'print', 'f']), ['inline print']);
  });
  test('code on stdin: known (a heredoc) is inline; unknown (a pipe) is unresolved', () => {
    assert.deepEqual(effectsOf(['python3', '-'], { stdin: 'open("x")' }), ['inline open("x")']);
    assert.deepEqual(effectsOf(['python3']), ['unresolved stdin']);
  });
  test('a script run reads it; its arguments get `other` access; python -m pytest reads', () => {
    assert.deepEqual(effectsOf(['node', 'tool.js', 'test/a.js']), ['other test/a.js (node)']);
    assert.deepEqual(effectsOf(['python3', '-m', 'pytest', 'test']), []);
    assert.deepEqual(effectsOf(['node', '--test', 'test/']), []);
  });
  test('sh -c and bash -lc are shell code; a substitution as the script is unresolved', () => {
    assert.deepEqual(effectsOf(['sh', '-c', 'rm f']), ['shell rm f']);
    assert.deepEqual(effectsOf(['bash', '-lc', 'rm f']), ['shell rm f']);
    assert.deepEqual(effectsOf(['sh', '-c', opaque('"$(x)"')]), ['unresolved "$(x)"']);
  });
  test('a shell fed from a pipe the guard cannot read, or a script it cannot open, is unresolved', () => {
    assert.deepEqual(effectsOf(['sh']), ['unresolved stdin']);
    assert.deepEqual(effectsOf(['sh'], { stdin: 'rm f' }), ['shell rm f']);
    assert.deepEqual(effectsOf(['bash', '/nonexistent/new.sh']), ['unresolved /nonexistent/new.sh']);
    assert.deepEqual(effectsOf(['sh', '--version']), []);
  });
  test('eval of exact words is shell code; of anything else, unresolved', () => {
    assert.deepEqual(effectsOf(['eval', 'rm', 'f']), ['shell rm f']);
    assert.deepEqual(effectsOf(['eval', opaque('"$x"')]), ['unresolved "$x"']);
  });
  test('source / . of a file the guard cannot open is unresolved', () => {
    assert.deepEqual(effectsOf(['.', '/nonexistent/new.sh']), ['unresolved /nonexistent/new.sh']);
  });
});
