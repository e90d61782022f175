// Runner summaries, from real output of each runner (node:test, mocha, pytest and cargo captured on this
// machine; vitest, jest and go test as their current versions print them).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { summarize } from '../../../src/core/check/summary';
import { verdictOf } from '../../../src/core/check/verdict';
import type { CommandOutcome } from '../../../src/core/process/runCommand';

const nodeTap = `TAP version 13
# Subtest: one
ok 1 - one
  ---
  duration_ms: 0.9
  ...
# Subtest: two
not ok 2 - two
  ---
  duration_ms: 1.2
  ...
# Subtest: three
ok 3 - three # SKIP
  ---
  duration_ms: 0.157156
  ...
1..3
# tests 3
# suites 0
# pass 1
# fail 1
# cancelled 0
# skipped 1
# todo 0
# duration_ms 177.631151
`;
const nodeSpec = `✔ one (0.81ms)
✖ two (1.2ms)
﹣ three (0.1ms) # SKIP
ℹ tests 3
ℹ suites 0
ℹ pass 1
ℹ fail 1
ℹ cancelled 0
ℹ skipped 1
ℹ todo 0
ℹ duration_ms 230.187841
`;
const nodeNoneRan = `1..3
# tests 3
# suites 0
# pass 0
# fail 0
# cancelled 0
# skipped 3
# todo 0
# duration_ms 150.873499
`;
const mochaMixed = `

  m
    ✔ ok
    1) bad
    - sk


  1 passing (7ms)
  1 pending
  1 failing

  1) m
       bad:
     Error: x
      at Context.<anonymous> (m.js:1:67)
`;
const mochaNone = '\n\n  0 passing (2ms)\n\n';
const vitestMixed = ` ❯ test/cache.test.ts (3 tests | 1 failed) 6ms
   × cache > evicts
 Test Files  1 failed (1)
      Tests  1 failed | 2 passed (3)
   Start at  10:01:02
   Duration  312ms (transform 31ms, setup 0ms, collect 25ms, tests 4ms, environment 0ms, prepare 88ms)
`;
const vitestSkipped = ` Test Files  1 skipped (1)
      Tests  3 skipped (3)
   Duration  280ms
`;
const vitestNoFiles = `No test files found, exiting with code 0\n\ninclude: **/*.{test,spec}.?(c|m)[jt]s?(x)\n`;
const jestMixed = `FAIL src/cache.test.js (5.2 s)
  ● cache › evicts

Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 skipped, 2 passed, 4 total
Snapshots:   0 total
Time:        0.512 s
Ran all test suites.
`;
const jestNone = 'No tests found, exiting with code 0\n';
const pytestMixed = `test_p.py .Fs                                                            [100%]
=========================== short test summary info ============================
FAILED test_p.py::test_b - assert False
==================== 1 failed, 1 passed, 1 skipped in 1.05s ====================
`;
const pytestQuiet = 'FAILED test_p.py::test_b - assert False\n1 failed, 1 passed, 1 skipped in 1.13s\n';
const pytestNone = '\n============================ no tests ran in 0.92s =============================\n';
const pytestDeselected =
  '\n============================ 3 deselected in 0.73s =============================\n';
const goVerbose = `=== RUN   TestAdd
--- PASS: TestAdd (0.00s)
=== RUN   TestSub
    calc_test.go:12: got 1, want 2
--- FAIL: TestSub (0.00s)
=== RUN   TestSkip
    calc_test.go:16: later
--- SKIP: TestSkip (0.00s)
FAIL
FAIL	example.com/calc	0.002s
FAIL
`;
const goQuiet = `ok  	example.com/calc	0.002s
ok  	example.com/calc/store	(cached)
?   	example.com/calc/cmd	[no test files]
`;
const goNoTests = `?   	example.com/calc/cmd	[no test files]
ok  	example.com/calc	0.002s [no tests to run]
`;
const cargoMixed = `running 3 tests
test tests::ig ... ignored
test tests::ok ... ok
test tests::bad ... FAILED

failures:
    tests::bad

test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.16s

error: test failed, to rerun pass \`--lib\`
`;
const cargoTwoBinaries = `running 2 tests
test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

   Doc-tests cr

running 1 test
test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.21s
`;
const cargoFiltered =
  'test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 3 filtered out; finished in 0.00s\n';
const tapPlain = 'TAP version 14\n1..3\nok 1 - a\nnot ok 2 - b\nok 3 - c # SKIP no network\n';
const plainLine = 'checking budgets…\n5 passed, 1 failed\n';

describe('summarize', () => {
  const cases: Array<[string, string, ReturnType<typeof summarize>]> = [
    ['node:test TAP', nodeTap, { runner: 'node:test', passed: 1, failed: 1, skipped: 1 }],
    ['node:test spec reporter', nodeSpec, { runner: 'node:test', passed: 1, failed: 1, skipped: 1 }],
    ['node:test nothing ran', nodeNoneRan, { runner: 'node:test', passed: 0, failed: 0, skipped: 3 }],
    ['mocha', mochaMixed, { runner: 'mocha', passed: 1, failed: 1, skipped: 1 }],
    ['mocha none', mochaNone, { runner: 'mocha', passed: 0, failed: 0, skipped: 0 }],
    ['vitest', vitestMixed, { runner: 'vitest', passed: 2, failed: 1, skipped: 0 }],
    ['vitest all skipped', vitestSkipped, { runner: 'vitest', passed: 0, failed: 0, skipped: 3 }],
    ['vitest no files', vitestNoFiles, { runner: 'vitest', passed: 0, failed: 0, skipped: 0 }],
    ['jest', jestMixed, { runner: 'jest', passed: 2, failed: 1, skipped: 1 }],
    ['jest none', jestNone, { runner: 'jest', passed: 0, failed: 0, skipped: 0 }],
    ['pytest', pytestMixed, { runner: 'pytest', passed: 1, failed: 1, skipped: 1 }],
    ['pytest -q', pytestQuiet, { runner: 'pytest', passed: 1, failed: 1, skipped: 1 }],
    ['pytest no tests ran', pytestNone, { runner: 'pytest', passed: 0, failed: 0, skipped: 0 }],
    ['pytest all deselected', pytestDeselected, { runner: 'pytest', passed: 0, failed: 0, skipped: 0 }],
    ['go test -v', goVerbose, { runner: 'go test', passed: 1, failed: 1, skipped: 1 }],
    ['go test packages', goQuiet, { runner: 'go test', passed: 2, failed: 0, skipped: 0 }],
    ['go test no tests', goNoTests, { runner: 'go test', passed: 0, failed: 0, skipped: 0 }],
    [
      'go test warning',
      'testing: warning: no tests to run\nPASS\n',
      { runner: 'go test', passed: 0, failed: 0, skipped: 0 },
    ],
    ['cargo test', cargoMixed, { runner: 'cargo test', passed: 1, failed: 1, skipped: 1 }],
    [
      'cargo test, two binaries summed',
      cargoTwoBinaries,
      { runner: 'cargo test', passed: 3, failed: 0, skipped: 0 },
    ],
    ['cargo test filtered out', cargoFiltered, { runner: 'cargo test', passed: 0, failed: 0, skipped: 0 }],
    ['TAP', tapPlain, { runner: 'tap', passed: 1, failed: 1, skipped: 1 }],
    ['plain line', plainLine, { runner: 'plain', passed: 5, failed: 1, skipped: 0 }],
  ];
  for (const [name, output, expected] of cases) {
    it(`recognises ${name}`, () => assert.deepEqual(summarize(output), expected));
  }

  it('ignores colour codes and CRLF', () => {
    const coloured = '\u001b[32m  3 passing\u001b[39m\u001b[90m (4ms)\u001b[39m\r\n';
    assert.deepEqual(summarize(coloured), { runner: 'mocha', passed: 3, failed: 0, skipped: 0 });
  });

  it('finds nothing in output that is no runner summary', () => {
    assert.equal(summarize('built 3 files\nall good\n'), undefined);
    assert.equal(summarize(''), undefined);
  });
});

function outcome(
  exitCode: number | null,
  output: string,
  extra: Partial<CommandOutcome> = {},
): CommandOutcome {
  return {
    exitCode,
    signal: null,
    timedOut: false,
    cancelled: false,
    output,
    truncatedBytes: 0,
    durationMs: 5,
    ...extra,
  };
}

describe('verdictOf', () => {
  it('passes exit 0 with tests that ran', () => {
    assert.equal(verdictOf(outcome(0, '# tests 2\n# pass 2\n# fail 0\n'), 1000).verdict, 'pass');
  });
  it('passes exit 0 without any recognised summary (the exit code decides)', () => {
    assert.deepEqual(verdictOf(outcome(0, 'ok\n'), 1000), {
      verdict: 'pass',
      reason: 'unverified: no test result seen',
      evidence: 'exit-code',
    });
  });
  for (const [name, output] of [
    ['node:test', nodeNoneRan],
    ['mocha', mochaNone],
    ['pytest', pytestNone],
    ['jest', jestNone],
    ['vitest', vitestNoFiles],
    ['cargo', cargoFiltered],
    ['go', goNoTests],
  ] as const) {
    it(`makes exit 0 with zero tests (${name}) an error "ran no test"`, () => {
      const v = verdictOf(outcome(0, output), 1000);
      assert.equal(v.verdict, 'error');
      assert.match(v.reason ?? '', /^ran no test/);
    });
  }
  it('fails exit 0 when the summary reports failed tests', () => {
    const v = verdictOf(outcome(0, mochaMixed), 1000);
    assert.equal(v.verdict, 'fail');
    assert.match(v.reason ?? '', /1 of 2 tests failed \(mocha\), although the command exited 0/);
  });
  it('fails a non-zero exit and says how many tests failed', () => {
    assert.deepEqual(
      verdictOf(outcome(1, pytestMixed), 1000).reason,
      'exit code 1: 1 of 2 tests failed (pytest)',
    );
  });
  it('names timeouts, missing commands, signals and spawn errors as errors', () => {
    assert.deepEqual(verdictOf(outcome(null, '', { timedOut: true, signal: 'SIGTERM' }), 60_000), {
      verdict: 'error',
      reason: 'timed out after 60 s',
      evidence: 'exit-code',
    });
    const missing = verdictOf(outcome(127, '/bin/sh: 1: vitestt: not found\n'), 1000);
    assert.deepEqual(missing, {
      verdict: 'error',
      reason: 'command not found (exit 127): /bin/sh: 1: vitestt: not found',
      evidence: 'exit-code',
    });
    assert.equal(verdictOf(outcome(null, '', { signal: 'SIGSEGV' }), 1000).reason, 'killed by SIGSEGV');
    assert.equal(
      verdictOf(outcome(null, '', { spawnError: 'working directory does not exist: /x' }), 1000).verdict,
      'error',
    );
  });
  it('marks a cancelled command skipped', () => {
    assert.deepEqual(verdictOf(outcome(null, '', { cancelled: true }), 1000), {
      verdict: 'skipped',
      reason: 'cancelled',
      evidence: 'exit-code',
    });
  });
});
