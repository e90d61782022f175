// The archives and downloads family: where tar/unzip/7z extract, and what curl and wget write.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { effectsOf, targets } from './effects';

describe('archivers and downloaders', () => {
  test('tar -x writes the folder it extracts into; tar -c writes only the archive', () => {
    assert.deepEqual(targets(effectsOf(['tar', '-xf', 'a.tar'])), ['write .']);
    assert.deepEqual(targets(effectsOf(['tar', 'xzf', 'a.tgz', '-C', 'test'])), ['write test']);
    assert.deepEqual(targets(effectsOf(['tar', '-czf', '/tmp/b.tgz', 'test'])), ['write /tmp/b.tgz']);
  });
  test('unzip and 7z x', () => {
    assert.deepEqual(targets(effectsOf(['unzip', '-o', 'a.zip', '-d', 'test'])), ['write test']);
    assert.deepEqual(effectsOf(['unzip', '-l', 'a.zip']), []);
    assert.deepEqual(targets(effectsOf(['7z', 'x', 'a.7z', '-otest'])), ['write test']);
  });
  test('curl -o and -O', () => {
    assert.deepEqual(targets(effectsOf(['curl', '-s', '-o', 'f', 'http://h/x'])), ['write f']);
    assert.deepEqual(targets(effectsOf(['curl', '-O', 'http://h/a/b.js'])), ['write b.js']);
  });
  test('wget -O, and the URL name in -P DIR', () => {
    assert.deepEqual(targets(effectsOf(['wget', '-O', 'f', 'http://h/x'])), ['write f']);
    assert.deepEqual(targets(effectsOf(['wget', '-P', 'test', 'http://h/a.js'])), ['write test/a.js']);
  });
});
