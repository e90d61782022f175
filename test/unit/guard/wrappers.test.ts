// The wrappers family: timeout, nice, env, sudo, busybox, stdbuf, flock, xargs, watch … are taken off with their
// own options, so the command they run is what the table reads; -C/--chdir/-D move that command only.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { effectsOf, targets } from './effects';

describe('wrappers', () => {
  test('the command behind a chain of wrappers is read', () => {
    assert.deepEqual(targets(effectsOf(['timeout', '-s', 'KILL', '5', 'nice', '-n', '3', 'rm', 'f'])), [
      'write f',
    ]);
    assert.deepEqual(targets(effectsOf(['sudo', '-u', 'nobody', 'tee', 'f'])), ['write f']);
    assert.deepEqual(targets(effectsOf(['busybox', 'sed', '-i', 's/a/b/', 'f'])), [
      'write s/a/b/',
      'write f',
    ]);
    assert.deepEqual(targets(effectsOf(['flock', '/tmp/l', 'cp', 'x', 'f'])), ['write f']);
  });
  test('env: assignments, -C moves the command, -S is shell code', () => {
    assert.deepEqual(effectsOf(['env', '-C', 'test', 'rm', 'a.js']), ['write a.js in /w/test (rm)']);
    assert.deepEqual(effectsOf(['env', 'A=1', 'cat', 'x']), []);
    assert.deepEqual(effectsOf(['env', '-S', 'rm f']), ['shell rm f']);
  });
  test('sudo -D moves the command, not the shell', () => {
    assert.deepEqual(effectsOf(['sudo', '-D', '/tmp', 'rm', 'x']), ['write x in /tmp (rm)']);
  });
  test('time -o and strace -o write their output', () => {
    assert.deepEqual(targets(effectsOf(['time', '-o', 'out', 'ls'])), ['write out']);
  });
  test('command -v and ionice -p run nothing', () => {
    assert.deepEqual(effectsOf(['command', '-v', 'rm']), []);
    assert.deepEqual(effectsOf(['ionice', '-p', '12']), []);
  });
  test('xargs: the command runs with targets from stdin, which the guard cannot see', () => {
    assert.deepEqual(targets(effectsOf(['xargs', 'rm'])), ['unresolved rm …']);
    assert.deepEqual(effectsOf(['xargs', 'grep', 'x']), []);
  });
  test('flock -c and watch run shell code', () => {
    assert.deepEqual(effectsOf(['flock', '/tmp/l', '-c', 'rm f']), ['shell rm f']);
    assert.deepEqual(effectsOf(['watch', '-n', '1', 'ls', 'test']), ['shell ls test']);
  });
});
