// When an agent's result may be applied: a final check with an `unverified` spec (a pass resting on a printed
// summary or the exit code, without the runner's signed results) is refused like a tampered one; a clean
// result is not.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyRefusal } from '../../../src/core/agent/applyPolicy';
import type { SpecResult, Verdict } from '../../../src/core/check/types';

function result(id: string, verdict: Verdict): SpecResult {
  return {
    id,
    kind: 'functional',
    verdict,
    exitCode: 0,
    signal: null,
    durationMs: 1,
    evidence: verdict === 'pass' ? 'runner' : 'summary',
    output: '',
    truncatedBytes: 0,
  };
}

describe('applyRefusal', () => {
  it('refuses a result whose final check has an unverified spec, naming it', () => {
    const refusal = applyRefusal({
      patch: 'diff',
      tamperedSpecs: [],
      testInfrastructure: [],
      findings: [],
      after: [result('a', 'pass'), result('b', 'unverified')],
    });
    assert.match(refusal ?? '', /^refused: b passes only on a printed summary or the exit code/);
  });

  it('refuses a tampered one first and applies a clean one', () => {
    const tampered = applyRefusal({
      patch: 'diff',
      tamperedSpecs: [],
      testInfrastructure: [],
      findings: [],
      after: [result('a', 'tampered'), result('b', 'unverified')],
    });
    assert.match(tampered ?? '', /forged runner evidence while specs ran \(tampered: a\)/);
    assert.equal(
      applyRefusal({
        patch: 'diff',
        tamperedSpecs: [],
        testInfrastructure: [],
        findings: [],
        after: [result('a', 'pass')],
      }),
      undefined,
    );
  });
});
