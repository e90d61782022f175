// The formatters family: writers of their operands (or `.`) in their write modes; their check modes only read.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { effectsOf, targets } from './effects';

describe('formatters and fixers', () => {
  test('write modes', () => {
    assert.deepEqual(targets(effectsOf(['prettier', '--write', 'test/a.js'])), ['write test/a.js']);
    assert.deepEqual(targets(effectsOf(['eslint', '--fix'])), ['write .']);
    assert.deepEqual(targets(effectsOf(['black', 'test'])), ['write test']);
    assert.deepEqual(targets(effectsOf(['ruff', 'check', '--fix', 'test'])), ['write test']);
    assert.deepEqual(targets(effectsOf(['gofmt', '-w', 'x.go'])), ['write x.go']);
    assert.deepEqual(targets(effectsOf(['cargo', 'fmt'])), ['write .']);
    assert.deepEqual(targets(effectsOf(['deno', 'fmt', 'test'])), ['write test']);
  });
  test('check modes read', () => {
    assert.deepEqual(effectsOf(['prettier', '--check', 'test']), []);
    assert.deepEqual(effectsOf(['eslint', 'test']), []);
    assert.deepEqual(effectsOf(['black', '--check', 'test']), []);
    assert.deepEqual(effectsOf(['cargo', 'test']), []);
    assert.deepEqual(effectsOf(['go', 'test', './...']), []);
  });
});
