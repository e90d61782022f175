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
  test('curl output flags in combined forms', () => {
    for (const argv of [
      ['-so', 'f', 'http://h/x'],
      ['-sSLo', 'f', 'http://h/x'],
      ['-sof', 'http://h/x'],
      ['--output=f', 'http://h/x'],
      ['--output', 'f', 'http://h/x'],
      ['http://h/x', '-o', 'f'],
      ['-H', 'X-o: y', '-o', 'f', 'http://h/x'],
    ])
      assert.deepEqual(targets(effectsOf(['curl', ...argv])), ['write f'], argv.join(' '));
    assert.deepEqual(targets(effectsOf(['curl', '-sLO', 'http://h/a/b.js'])), ['write b.js']);
    assert.deepEqual(targets(effectsOf(['curl', '-sS', 'http://h/x'])), []);
    assert.deepEqual(targets(effectsOf(['curl', '-OJ', 'http://h/x'])), ['unresolved .']);
  });
  test('wget output flags in combined forms', () => {
    assert.deepEqual(targets(effectsOf(['wget', '-qO', 'f', 'http://h/x'])), ['write f']);
    assert.deepEqual(targets(effectsOf(['wget', '-qOf', 'http://h/x'])), ['write f']);
    assert.deepEqual(targets(effectsOf(['wget', '-qO-', 'http://h/x'])), []);
    assert.deepEqual(targets(effectsOf(['wget', '--output-document=f', 'http://h/x'])), ['write f']);
    assert.deepEqual(targets(effectsOf(['wget', '-qP', 'd', 'http://h/a.js'])), ['write d/a.js']);
    assert.deepEqual(targets(effectsOf(['wget', '-e', 'output_document=f', 'http://h/x'])), [
      'unresolved output_document=f',
      'write x',
    ]);
  });
  test('wget -O, and the URL name in -P DIR', () => {
    assert.deepEqual(targets(effectsOf(['wget', '-O', 'f', 'http://h/x'])), ['write f']);
    assert.deepEqual(targets(effectsOf(['wget', '-P', 'test', 'http://h/a.js'])), ['write test/a.js']);
  });
});
