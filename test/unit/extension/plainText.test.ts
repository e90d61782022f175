// Weave's own diagnostic text without raw Markdown backticks: identifiers plain, code fragments quoted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { plainText } from '../../../src/extension/plainText';

test('code spans become plain identifiers or quoted fragments', () => {
  assert.equal(
    plainText('the edit to `LruCache.get` (src/cache.js:3-5), made for `cache-hit`, breaks `no-stale-read`'),
    'the edit to LruCache.get (src/cache.js:3-5), made for cache-hit, breaks no-stale-read',
  );
  assert.equal(
    plainText('No spec notices if `+` becomes `-` here'),
    'No spec notices if ‘+’ becomes ‘-’ here',
  );
  assert.equal(plainText('if `a + b` becomes `a - b`'), 'if ‘a + b’ becomes ‘a - b’');
  assert.equal(plainText('no code here'), 'no code here');
  assert.doesNotMatch(plainText('`x` and `y < z`'), /`/);
});
