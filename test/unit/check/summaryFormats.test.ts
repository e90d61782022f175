// What the output alone tells (when no runner hook reported): reporters and modes the first recognisers missed.
// CAPTURED: printed on this machine by node 24 (node:test), mocha 11.8, pytest 7.2.1, Python 3.11 unittest and
// cargo 1.x, stack frames shortened. TRANSCRIBED (before jest and vitest were devDependencies; go is not
// installed here): their text is copied from their documented formats and from output quoted in
// vitest-dev/vitest#5272 and #3774.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { summarize } from '../../../src/core/check/summary';
import type { TestSummary } from '../../../src/core/check/types';
import { verdictOf } from '../../../src/core/check/verdict';
import {
  nodeDot,
  nodeJunit,
  pytestQQ,
  pytestCollectionError,
  pytestCollectionErrorQQ,
  pytestCollectOnly,
  pytestCollectOnlyQuiet,
  unittestTail,
  unittestOk,
  unittestNone,
  unittestImportError,
  mochaXunit,
  mochaJson,
  mochaTap,
  cargoNoRun,
  vitestImportError,
  jestJson,
  jestJsonUnloaded,
  vitestJunit,
  jestSuiteFailed,
  goList,
} from './runnerOutputs';

describe('summarize, more reporters and modes', () => {
  const cases: Array<[string, string, TestSummary]> = [
    ['node:test dot reporter', nodeDot, { runner: 'node:test', passed: 1, failed: 1, skipped: 0 }],
    ['node:test junit reporter', nodeJunit, { runner: 'node:test', passed: 1, failed: 1, skipped: 0 }],
    ['pytest -qq', pytestQQ, { runner: 'pytest', passed: 1, failed: 1, skipped: 0 }],
    [
      'pytest collection error',
      pytestCollectionError,
      { runner: 'pytest', passed: 0, failed: 0, skipped: 0, collectionErrors: 1 },
    ],
    [
      'pytest -qq collection error',
      pytestCollectionErrorQQ,
      { runner: 'pytest', passed: 0, failed: 0, skipped: 0, collectionErrors: 1 },
    ],
    ['pytest --co', pytestCollectOnly, { runner: 'pytest', passed: 0, failed: 0, skipped: 0, listing: true }],
    [
      'pytest --co -q',
      pytestCollectOnlyQuiet,
      { runner: 'pytest', passed: 0, failed: 0, skipped: 0, listing: true },
    ],
    ['unittest FAILED', unittestTail, { runner: 'unittest', passed: 1, failed: 2, skipped: 1 }],
    ['unittest OK', unittestOk, { runner: 'unittest', passed: 1, failed: 0, skipped: 0 }],
    ['unittest none', unittestNone, { runner: 'unittest', passed: 0, failed: 0, skipped: 0 }],
    [
      'unittest import error',
      unittestImportError,
      { runner: 'unittest', passed: 0, failed: 0, skipped: 0, collectionErrors: 1 },
    ],
    ['mocha xunit', mochaXunit, { runner: 'junit', passed: 1, failed: 1, skipped: 1 }],
    ['mocha json', mochaJson, { runner: 'mocha', passed: 1, failed: 1, skipped: 1 }],
    ['mocha tap', mochaTap, { runner: 'node:test', passed: 1, failed: 1, skipped: 0 }],
    [
      'cargo test --no-run',
      cargoNoRun,
      { runner: 'cargo test', passed: 0, failed: 0, skipped: 0, listing: true },
    ],
    [
      'vitest import error',
      vitestImportError,
      { runner: 'vitest', passed: 0, failed: 0, skipped: 0, collectionErrors: 1 },
    ],
    ['jest --json', jestJson, { runner: 'jest', passed: 2, failed: 1, skipped: 1 }],
    [
      'jest --json, suite not loaded',
      jestJsonUnloaded,
      { runner: 'jest', passed: 0, failed: 0, skipped: 0, collectionErrors: 1 },
    ],
    ['vitest junit', vitestJunit, { runner: 'junit', passed: 2, failed: 1, skipped: 0 }],
    [
      'jest suite failed to run',
      jestSuiteFailed,
      { runner: 'jest', passed: 0, failed: 0, skipped: 0, collectionErrors: 1 },
    ],
    ['go test -list', goList, { runner: 'go test', passed: 0, failed: 0, skipped: 0, listing: true }],
  ];
  for (const [name, output, expected] of cases) {
    it(`recognises ${name}`, () => assert.deepEqual(summarize(output), expected));
  }

  it('adds up every summary: a failing run before a passing one is not hidden', () => {
    const passingNode = '# tests 3\n# pass 3\n# fail 0\n';
    assert.deepEqual(summarize(`${mochaTap}\n${passingNode}`), {
      runner: 'node:test',
      passed: 4,
      failed: 1,
      skipped: 0,
    });
    const passingPytest = '==== 2 passed in 0.01s ====\n';
    assert.deepEqual(summarize(`${unittestTail}${passingPytest}`), {
      runner: 'pytest',
      passed: 3,
      failed: 2,
      skipped: 1,
    });
  });
});

function exitedZero(output: string) {
  return verdictOf(
    {
      exitCode: 0,
      signal: null,
      timedOut: false,
      cancelled: false,
      output,
      truncatedBytes: 0,
      durationMs: 1,
    },
    1000,
  );
}

describe('verdicts from output alone (exit 0: a pipe or || true hid the runner exit code)', () => {
  const cases: Array<[string, string, string, RegExp]> = [
    ['node dot', nodeDot, 'fail', /^1 of 2 tests failed \(node:test\), although the command exited 0$/],
    ['node junit', nodeJunit, 'fail', /^1 of 2 tests failed/],
    ['pytest -qq', pytestQQ, 'fail', /^1 of 2 tests failed \(pytest\)/],
    ['pytest collection error', pytestCollectionError, 'error', /^0 tests ran: collection error/],
    ['pytest --co', pytestCollectOnly, 'error', /^ran no test \(pytest: .*only listed or dry-run\)$/],
    ['unittest | tail', unittestTail, 'fail', /^2 of 3 tests failed \(unittest\)/],
    ['unittest import error', unittestImportError, 'error', /^0 tests ran: collection error/],
    ['mocha xunit', mochaXunit, 'fail', /^1 of 2 tests failed \(junit\)/],
    ['mocha json', mochaJson, 'fail', /^1 of 2 tests failed \(mocha\)/],
    ['cargo --no-run', cargoNoRun, 'error', /^ran no test \(cargo test/],
    ['vitest import error', vitestImportError, 'error', /^0 tests ran: collection error/],
    ['jest json', jestJson, 'fail', /^1 of 3 tests failed \(jest\)/],
    ['jest suite failed to run', jestSuiteFailed, 'error', /^0 tests ran: collection error/],
    ['vitest junit', vitestJunit, 'fail', /^1 of 3 tests failed \(junit\)/],
    ['go test -list', goList, 'error', /^ran no test \(go test/],
  ];
  for (const [name, output, verdict, reason] of cases) {
    it(`${name}: ${verdict}, on summary evidence`, () => {
      const v = exitedZero(output);
      assert.equal(v.verdict, verdict);
      assert.equal(v.evidence, 'summary');
      assert.match(v.reason ?? '', reason);
    });
  }

  it("runner evidence wins: the hook's failure fails a run whose output looks clean", () => {
    const v = verdictOf(
      {
        exitCode: 0,
        signal: null,
        timedOut: false,
        cancelled: false,
        output: 'all good\n',
        truncatedBytes: 0,
        durationMs: 1,
      },
      1000,
      { runner: 'pytest', passed: 3, failed: 1, skipped: 0 },
    );
    assert.deepEqual(
      [v.verdict, v.evidence, v.reason],
      ['fail', 'runner', '1 of 4 tests failed (pytest), although the command exited 0'],
    );
  });

  it('a failure printed by a run the hooks did not see still fails a run the hooks saw pass', () => {
    const v = verdictOf(
      {
        exitCode: 0,
        signal: null,
        timedOut: false,
        cancelled: false,
        output: pytestQQ,
        truncatedBytes: 0,
        durationMs: 1,
      },
      1000,
      { runner: 'node:test', passed: 3, failed: 0, skipped: 0 },
    );
    assert.deepEqual([v.verdict, v.evidence], ['fail', 'runner']);
  });
});
