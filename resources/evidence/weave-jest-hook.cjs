'use strict';
// jest's part of Weave's runner hook (weave-node-hook.cjs requires it). jest runs its tests in the main process
// (-i, one file) or in worker processes, so the one place that sees every test file's result, whatever the mode,
// is the main process's `runCLI` (@jest/core's programmatic entry that jest-cli, `npx jest` and `jest.run()`
// call): it resolves to jest's own AggregatedResult. A crashed worker, a file that threw on import and a hook
// that failed are all file results there with `testExecError` / `failureMessage`, never a silent pass.
// Verified with jest 30.5.2. Anything that is not that shape (another major version) is left untouched, so the
// printed summary decides.
const { replacedInResults, loadedInResults } = require('./weave-jest-expect.cjs');

/**
 * `exports` is what a `require` returned. When it is @jest/core's, returns a view of it whose `runCLI` reports
 * the aggregated result through `reporting.beginRun('jest')`; otherwise undefined. `reporting.markNested` runs
 * when the tests start, so worker processes and runners started by tests stay quiet.
 */
function observeJestCore(exports, { beginRun, markNested, readSafely, reportReplaced }) {
  if (
    !exports ||
    typeof exports !== 'object' ||
    typeof exports.runCLI !== 'function' ||
    typeof exports.createTestScheduler !== 'function' ||
    typeof exports.getVersion !== 'function'
  ) {
    return undefined;
  }
  const runCLI = exports.runCLI;
  async function weaveObservedRunCLI() {
    markNested();
    const run = beginRun('jest');
    let outcome;
    try {
      outcome = await runCLI.apply(this, arguments);
    } catch (error) {
      // A rejection (a configuration error): the run finished having run no test.
      run.finish({ passed: 0, failed: 0, skipped: 0 });
      throw error;
    }
    const replaced = outcome && readSafely(() => replacedInResults(outcome.results));
    if (replaced) reportReplaced(replaced);
    const results = outcome && readSafely(() => jestRun(outcome.results, outcome.globalConfig));
    if (results)
      run.finish(
        results,
        readSafely(() => loadedInResults(outcome.results)),
      );
    else run.abandon();
    return outcome;
  }
  // @jest/core's exports are non-configurable getters: a proxy, handed only to the module that required it.
  return new Proxy(exports, {
    get(target, key, receiver) {
      return key === 'runCLI' ? weaveObservedRunCLI : Reflect.get(target, key, receiver);
    },
  });
}

/** The run's counts; undefined (or a throw, which readSafely catches) for results of another shape. */
function jestRun(results, globalConfig) {
  const count = (value) => (Number.isInteger(value) && value >= 0 ? value : undefined);
  if (!results || !Array.isArray(results.testResults)) return undefined;
  const passed = count(results.numPassedTests);
  const failed = count(results.numFailedTests);
  const pending = count(results.numPendingTests);
  if (passed === undefined || failed === undefined || pending === undefined) return undefined;
  // A file that could not run (an import error, a crashed worker) or failed outside its tests (a hook).
  const brokenFiles = results.testResults.filter(
    (file) => file && (file.testExecError || (file.failureMessage && !(file.numFailingTests > 0))),
  ).length;
  return {
    passed,
    failed,
    skipped: pending + (count(results.numTodoTests) ?? 0),
    collectionErrors: brokenFiles,
    listing: Boolean(globalConfig && (globalConfig.listTests || globalConfig.collectTests)),
  };
}

module.exports = { observeJestCore };
