// The directory builtins: cd, pushd and popd move the shell's working directory for the commands after them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { effectsOf, opaque } from './effects';

describe('cd, pushd, popd', () => {
  test('cd moves the shell; cd - and a substitution make it unknown', () => {
    assert.deepEqual(effectsOf(['cd', 'test']), ['cwd /w/test']);
    assert.deepEqual(effectsOf(['cd', '/tmp']), ['cwd /tmp']);
    assert.deepEqual(effectsOf(['cd', '-']), ['cwd undefined']);
    assert.deepEqual(effectsOf(['cd', opaque('$(x)')]), ['cwd undefined']);
  });
  test('cd alone goes home', () => {
    assert.deepEqual(effectsOf(['cd'], { vars: { HOME: '/home/u' } }), ['cwd /home/u']);
  });
  test('pushd moves; pushd +1 is unknown', () => {
    assert.deepEqual(effectsOf(['pushd', 'test']), ['cwd /w/test']);
    assert.deepEqual(effectsOf(['pushd', '+1']), ['cwd undefined']);
  });
});
