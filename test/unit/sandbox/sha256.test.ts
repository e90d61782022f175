// The guard's plain-JavaScript SHA-256 (src/core/sha256.ts, the evidence hook's weave-evidence-hmac.cjs) names the session folder that every other part of
// Weave finds with node:crypto: the two must agree on every input, block boundaries and non-ASCII text included.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { sha256Hex } from '../../../src/core/sha256';

test('sha256Hex equals node:crypto on empty, boundary-length, non-ASCII and long inputs', () => {
  const inputs = [
    '',
    'abc',
    '/tmp/weave-ws',
    // Every length over the first three blocks (the padding and length fields cross block boundaries).
    ...Array.from({ length: 200 }, (_, n) => 'x'.repeat(n)),
    'é/日本/🙂 path with spaces',
    'a\u0000b',
    Array.from({ length: 70_000 }, (_, i) => String.fromCharCode(32 + (i % 90))).join(''),
  ];
  for (const input of inputs)
    assert.equal(
      sha256Hex(input),
      createHash('sha256').update(input, 'utf8').digest('hex'),
      `${input.length} chars`,
    );
});
