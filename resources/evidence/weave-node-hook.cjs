'use strict';
// Weave loads this file into every Node.js process of a spec's test command (NODE_OPTIONS=--require …) to
// learn what the test runner itself concluded, whatever the command does with the runner's output and exit
// code (`| cat`, `|| true`, `a; b`, any reporter). It writes one JSON file per process into
// WEAVE_EVIDENCE_DIR when the process exits (and when a jest or vitest run starts) and changes nothing else.
// Code under test runs in the same process and could forge this file: it defeats pipes and ignored exit
// codes, not a malicious test.
//   node:test  the final `test:summary` event of the runner's event stream (node --test, or a plain
//              `node file.test.js`), observed where the runner emits it;
//   mocha      the runner's own stats when it ends (and whether it was a --dry-run);
//   jest       the aggregated result of the whole run in jest's main process (weave-jest-hook.cjs);
//   vitest     the whole run's test modules in vitest's main process (weave-vitest-hook.cjs).
const fs = require('node:fs');
const path = require('node:path');

const dir = process.env.WEAVE_EVIDENCE_DIR;
// Only the outermost test runner reports. Child processes of `node --test` (NODE_TEST_CONTEXT=child-v8) report
// to their parent, which counts them; a runner started by a test (a test suite that tests a test tool, say)
// finds WEAVE_EVIDENCE_NESTED, which every runner sets for the processes its tests start.
const NESTED = 'WEAVE_EVIDENCE_NESTED';
if (dir && process.env.NODE_TEST_CONTEXT !== undefined) process.env[NESTED] = '1';
if (dir && process.env.NODE_TEST_CONTEXT === undefined && process.env[NESTED] === undefined) {
  let nodeTest;
  // With --test, a file whose tests were all filtered out (--test-name-pattern) is itself reported as one
  // passing test named after the file: it ran no test of the user's.
  let emptyFilesPassed = 0;
  const mochaRuns = [];
  // jest's and vitest's runs, in the results-file shape. A run is counted from its start as one that ran no
  // test, so a runner that dies before it finishes (vitest writing into a closed pipe) is not a silent pass.
  const jestAndVitestRuns = [];
  const beginJestOrVitestRun = (runner) => {
    const run = { runner, passed: 0, failed: 0, skipped: 0 };
    jestAndVitestRuns.push(run);
    // Written now too: a runner killed outright (a test that SIGKILLs vitest's main thread) never reaches 'exit'.
    writeResults();
    return {
      finish: (results) => Object.assign(run, results),
      // The runner's results were not what the hook knows: the printed summary decides.
      abandon: () => jestAndVitestRuns.splice(jestAndVitestRuns.indexOf(run), 1),
    };
  };
  const markNested = () => {
    process.env[NESTED] = '1';
  };
  // A reader that throws on results of a shape it does not know reports nothing: the summary decides.
  const readSafely = (read) => {
    try {
      return read();
    } catch {
      return undefined;
    }
  };
  const reporting = { beginRun: beginJestOrVitestRun, markNested, readSafely };
  const { observeJestCore } = require('./weave-jest-hook.cjs');
  require('./weave-vitest-hook.cjs').observeVitest(reporting);

  const { Readable } = require('node:stream');
  const emit = Readable.prototype.emit;
  Readable.prototype.emit = function weaveObservedEmit(type, data) {
    if (
      typeof type === 'string' &&
      type.startsWith('test:') &&
      this.constructor.name === 'TestsStream' &&
      data
    ) {
      if (type === 'test:summary' && data.counts) {
        // Per-file summaries come first; the last one is the whole run's.
        nodeTest = { counts: data.counts, success: data.success };
      } else if (type === 'test:pass' && isEmptyFile(data)) {
        emptyFilesPassed++;
      }
    }
    return emit.apply(this, arguments);
  };

  function isEmptyFile(data) {
    return (
      data.nesting === 0 &&
      typeof data.file === 'string' &&
      typeof data.name === 'string' &&
      (!data.details || data.details.type === 'test') &&
      path.resolve(data.name) === data.file
    );
  }

  const Module = require('node:module');
  const load = Module._load;
  Module._load = function weaveObservedLoad() {
    const exports = load.apply(this, arguments);
    const jestCore = observeJestCore(exports, reporting);
    if (jestCore) return jestCore;
    if (
      typeof exports === 'function' &&
      exports.Runner &&
      exports.Suite &&
      typeof exports.prototype.run === 'function' &&
      !exports.prototype.run.weaveObserved
    ) {
      observeMocha(exports);
    }
    return exports;
  };

  function observeMocha(Mocha) {
    const run = Mocha.prototype.run;
    Mocha.prototype.run = function weaveObservedRun() {
      markNested();
      const runner = run.apply(this, arguments);
      const dryRun = Boolean(this.options && this.options.dryRun);
      if (runner && typeof runner.once === 'function') {
        runner.once('end', () => {
          const s = runner.stats || {};
          mochaRuns.push({
            passed: dryRun ? 0 : s.passes || 0,
            failed: s.failures || 0,
            skipped: s.pending || 0,
            dryRun,
          });
        });
      }
      return runner;
    };
    Mocha.prototype.run.weaveObserved = true;
  }

  // One results file per process, rewritten whenever there is more to say.
  const resultsFile = path.join(dir, `node-${process.pid}-${Date.now()}.json`);
  let resultsWritten = false;
  function writeResults() {
    const runs = [];
    if (nodeTest) {
      const c = nodeTest.counts;
      runs.push({
        runner: 'node:test',
        passed: Math.max(0, (c.passed || 0) - emptyFilesPassed),
        failed: (c.failed || 0) + (c.cancelled || 0),
        skipped: (c.skipped || 0) + (c.todo || 0),
      });
    }
    for (const m of mochaRuns)
      runs.push({
        runner: 'mocha',
        passed: m.passed,
        failed: m.failed,
        skipped: m.skipped,
        listing: m.dryRun,
      });
    runs.push(...jestAndVitestRuns);
    if (runs.length === 0 && !resultsWritten) return;
    try {
      fs.writeFileSync(resultsFile, JSON.stringify({ runs }));
      resultsWritten = true;
    } catch {
      // The results directory is gone (the run was cancelled): nothing to report to.
    }
  }
  process.once('exit', writeResults);
}
