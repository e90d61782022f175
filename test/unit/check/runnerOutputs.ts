// Runner output the summary tests read, each as printed by the runner (see the CAPTURED / TRANSCRIBED notes in
// summaryFormats.test.ts): node:test reporters, pytest modes, unittest, mocha reporters, cargo, vitest, jest, go.
// CAPTURED: node --test --test-reporter=dot
export const nodeDot = `.X

Failed tests:

✖ two (0.364061ms)
  Error: x
      at TestContext.<anonymous> (/tmp/ev/a.test.js:3:23)
`;
// CAPTURED: node --test --test-reporter=junit
export const nodeJunit = `<?xml version="1.0" encoding="utf-8"?>
<testsuites>
	<testcase name="one" time="0.000919" classname="test" file="/tmp/ev/a.test.js"/>
	<testcase name="two" time="0.000368" classname="test" file="/tmp/ev/a.test.js" failure="x">
		<failure type="testCodeFailure" message="x">
[Error [ERR_TEST_FAILURE]: x] {
  code: 'ERR_TEST_FAILURE',
}
		</failure>
	</testcase>
	<!-- tests 2 -->
	<!-- suites 0 -->
	<!-- pass 1 -->
	<!-- fail 1 -->
	<!-- cancelled 0 -->
	<!-- skipped 0 -->
	<!-- todo 0 -->
	<!-- duration_ms 91.189129 -->
</testsuites>
`;
// CAPTURED: pytest -qq (no totals line at all)
export const pytestQQ = `.F                                                                       [100%]
=================================== FAILURES ===================================
____________________________________ test_b ____________________________________

>   def test_b(): assert False
E   assert False

test_p.py:2: AssertionError
=========================== short test summary info ============================
FAILED test_p.py::test_b - assert False
`;
// CAPTURED: pytest on a module that fails to import
export const pytestCollectionError = `============================= test session starts ==============================
platform linux -- Python 3.11.2, pytest-7.2.1, pluggy-1.0.0+repack
rootdir: /tmp/ev/py
collected 0 items / 1 error

==================================== ERRORS ====================================
_________________________ ERROR collecting test_bad.py _________________________
ImportError while importing test module '/tmp/ev/py/test_bad.py'.
E   ModuleNotFoundError: No module named 'nonexistent_mod'
=========================== short test summary info ============================
ERROR test_bad.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
=============================== 1 error in 0.04s ===============================
`;
// CAPTURED: the same with -qq (no totals line)
export const pytestCollectionErrorQQ = `
==================================== ERRORS ====================================
_________________________ ERROR collecting test_bad.py _________________________
E   ModuleNotFoundError: No module named 'nonexistent_mod'
=========================== short test summary info ============================
ERROR test_bad.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
`;
// CAPTURED: pytest --co, and --co -q
export const pytestCollectOnly = `collected 2 items

<Module test_p.py>
  <Function test_a>
  <Function test_b>

========================== 2 tests collected in 0.00s ==========================
`;
export const pytestCollectOnlyQuiet = 'test_p.py::test_a\ntest_p.py::test_b\n\n2 tests collected in 0.00s\n';
// CAPTURED: python3 -m unittest discover -s tests | tail -4, and a run with a module that fails to import
export const unittestTail = `----------------------------------------------------------------------
Ran 4 tests in 0.001s

FAILED (failures=1, errors=1, skipped=1)
`;
export const unittestOk =
  '.\n----------------------------------------------------------------------\nRan 1 test in 0.000s\n\nOK\n';
export const unittestNone =
  '\n----------------------------------------------------------------------\nRan 0 tests in 0.000s\n\nOK\n';
export const unittestImportError = `E
======================================================================
ERROR: test_imp (unittest.loader._FailedTest.test_imp)
----------------------------------------------------------------------
ImportError: Failed to import test module: test_imp
Traceback (most recent call last):
ModuleNotFoundError: No module named 'nope'


----------------------------------------------------------------------
Ran 1 test in 0.000s

FAILED (errors=1)
`;
// CAPTURED: mocha --reporter xunit, --reporter json (head), --reporter tap
export const mochaXunit = `<testsuite name="Mocha Tests" tests="3" failures="0" errors="1" skipped="1" timestamp="Tue, 01 Dec 2026 08:20:47 GMT" time="0.002">
<testcase classname="m" name="ok" file="/tmp/ev/mo/m.spec.js" time="0.001"/>
<testcase classname="m" name="bad" file="/tmp/ev/mo/m.spec.js" time="0"><failure>x</failure></testcase>
</testsuite>
`;
export const mochaJson = `{
  "stats": {
    "suites": 1,
    "tests": 3,
    "passes": 1,
    "pending": 1,
    "failures": 1,
    "start": "2026-12-01T08:20:47.190Z",
    "end": "2026-12-01T08:20:47.192Z",
    "duration": 2
  },
  "tests": []
}
`;
export const mochaTap = `ok 1 m ok
not ok 2 m bad
  x
ok 3 m sk # SKIP -
# tests 2
# pass 1
# fail 1
1..3
`;
// CAPTURED: cargo test --no-run
export const cargoNoRun = `   Compiling cg v0.1.0 (/tmp/ev/cg)
    Finished \`test\` profile [unoptimized + debuginfo] target(s) in 0.93s
  Executable unittests src/lib.rs (target/debug/deps/cg-cf430339bf8ee7bc)
`;
// TRANSCRIBED: vitest when a test file fails to import (vitest-dev/vitest#5272, #3774)
export const vitestImportError = ` FAIL  ../src/App.test.tsx [ ../src/App.test.tsx ]
Error: Failed to load url D:/vit/react-testing-lib/src/App.test.tsx (resolved id: D:/vit/react-testing-lib/src/App.test.tsx). Does the file exist?
 ❯ loadAndTransform node_modules/vite/dist/node/chunks/dep-jDlpJiMN.js:53601:21

 Test Files  1 failed (1)
      Tests  no tests
   Start at  18:47:46
   Duration  536ms (transform 24ms, setup 0ms, collect 0ms, tests 0ms)
`;
// TRANSCRIBED: jest --json (vitest --reporter=json writes the same jest-shaped document)
export const jestJson =
  '{"numFailedTestSuites":1,"numFailedTests":1,"numPassedTestSuites":0,"numPassedTests":2,"numPendingTestSuites":0,"numPendingTests":1,"numRuntimeErrorTestSuites":0,"numTodoTests":0,"numTotalTestSuites":1,"numTotalTests":4,"success":false,"testResults":[]}\n';
export const jestJsonUnloaded =
  '{"numFailedTestSuites":1,"numFailedTests":0,"numPassedTestSuites":0,"numPassedTests":0,"numPendingTestSuites":0,"numPendingTests":0,"numRuntimeErrorTestSuites":1,"numTodoTests":0,"numTotalTestSuites":1,"numTotalTests":0,"success":false}\n';
// TRANSCRIBED: jest-junit / vitest --reporter=junit
export const vitestJunit = `<?xml version="1.0" encoding="UTF-8" ?>
<testsuites name="vitest tests" tests="3" failures="1" errors="0" time="0.01">
    <testsuite name="test/cache.test.ts" timestamp="2026-12-01T08:00:00.000Z" hostname="h" tests="3" failures="1" errors="0" skipped="0" time="0.006">
        <testcase classname="test/cache.test.ts" name="cache &gt; evicts" time="0.002">
            <failure message="expected 1 to be 2" type="AssertionError">AssertionError: expected 1 to be 2</failure>
        </testcase>
    </testsuite>
</testsuites>
`;
// TRANSCRIBED: jest when a suite fails to load
export const jestSuiteFailed = `FAIL src/cache.test.js
  ● Test suite failed to run

    Cannot find module '../cache' from 'src/cache.test.js'

Test Suites: 1 failed, 1 total
Tests:       0 total
Snapshots:   0 total
Time:        0.4 s
`;
// TRANSCRIBED: go test -list .
export const goList = 'TestAdd\nTestSub\nok  \texample.com/calc\t0.002s\n';
