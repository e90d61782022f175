// The Node.js evidence hook signs records with its own HMAC-SHA256 (weave-evidence-hmac.cjs: no node:crypto, whose
// load costs every hooked process 10–15 ms); Weave verifies them with node:crypto (records.ts). The two must agree
// on every input the hook signs: short and multi-block bodies, keys of every length, non-ASCII text.
import assert from 'node:assert/strict';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from '../../support/paths';

const requireHook = createRequire(path.join(REPO_ROOT, 'resources/evidence/'));
const hmac = requireHook('./weave-evidence-hmac.cjs') as {
  hmacHex(key: string, text: string): string;
  randomHex(count: number): string;
  sha256(bytes: Uint8Array): Uint8Array;
};

describe('the evidence hook’s HMAC-SHA256', () => {
  it('equals node:crypto’s SHA-256 at every length around the block boundaries', () => {
    for (let length = 0; length <= 200; length++) {
      const bytes = randomBytes(length);
      assert.equal(
        Buffer.from(hmac.sha256(bytes)).toString('hex'),
        createHash('sha256').update(bytes).digest('hex'),
        `length ${length}`,
      );
    }
  });

  it('equals node:crypto’s HMAC for run keys, child keys, long keys and non-ASCII records', () => {
    const key = randomBytes(32).toString('hex');
    const bodies = [
      '',
      '{"instance":"ab12","kind":"started","runner":"node:test"}',
      `{"runs":[{"runner":"mocha","passed":3,"failed":0,"names":"${'é∂😀'.repeat(50)}"}]}`,
      'x'.repeat(10_000),
    ];
    for (const k of [key, 'short', 'k'.repeat(64), 'k'.repeat(65), 'ключ'.repeat(30)])
      for (const body of bodies)
        assert.equal(hmac.hmacHex(k, body), createHmac('sha256', k).update(body).digest('hex'));
  });

  it('draws fresh random bytes each time', () => {
    const seen = new Set(Array.from({ length: 50 }, () => hmac.randomHex(8)));
    assert.equal(seen.size, 50);
    for (const value of seen) assert.match(value, /^[0-9a-f]{16}$/);
  });
});
