'use strict';
// vitest's part of Weave's runner hook (weave-node-hook.cjs requires it). vitest's main process is ES modules
// and runs the tests in worker threads or forks; the one place that sees the whole run is the main process's
// `Vitest#start`, which resolves to the documented TestRunResult (`testModules`, `unhandledErrors`). The class
// is not exported by any entry the CLI goes through, so a synchronous module hook (`module.registerHooks`,
// Node >= 22.15) adds one guarded line to the bundle that declares it, handing the class to this file. Only a
// process whose main script is vitest's own CLI gets the module hook. Verified with vitest 4.1.12; another
// shape (no such class, no `start`, other results) leaves vitest untouched, so the printed summary decides.
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { replacedInTests, loadedInTests } = require('./weave-vitest-expect.cjs');

const HANDOFF = Symbol.for('weave.evidence.vitest');

/** `reporting`: as for observeJestCore (weave-jest-hook.cjs). */
function observeVitest(reporting) {
  const distUrl = vitestDistUrl();
  const registerHooks = require('node:module').registerHooks;
  if (!distUrl || typeof registerHooks !== 'function') return;
  globalThis[HANDOFF] = (Vitest) => {
    delete globalThis[HANDOFF];
    reporting.readSafely(() => wrapStart(Vitest, reporting));
  };
  registerHooks({
    load(url, context, nextLoad) {
      const loaded = nextLoad(url, context);
      if (!url.startsWith(distUrl) || loaded.format !== 'module' || loaded.source == null) return loaded;
      const source =
        typeof loaded.source === 'string' ? loaded.source : Buffer.from(loaded.source).toString();
      if (!/^class Vitest \{/m.test(source)) return loaded;
      const handoff = `\n;if (typeof Vitest === "function") globalThis[Symbol.for("weave.evidence.vitest")]?.(Vitest);\n`;
      return { ...loaded, source: source + handoff };
    },
  });
}

/** The file: URL of the running vitest's dist/ folder, when the main script is vitest's CLI. */
function vitestDistUrl() {
  try {
    const main = fs.realpathSync(process.argv[1] || '');
    const root = path.dirname(main);
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    if (pkg.name !== 'vitest') return undefined;
    return pathToFileURL(path.join(root, 'dist')).href + '/';
  } catch {
    return undefined;
  }
}

function wrapStart(Vitest, { beginRun, markNested, readSafely, reportReplaced }) {
  const start = Vitest.prototype && Vitest.prototype.start;
  if (typeof start !== 'function') return;
  Vitest.prototype.start = async function weaveObservedStart() {
    markNested();
    const run = beginRun('vitest');
    let result;
    try {
      result = await start.apply(this, arguments);
    } catch (error) {
      // A rejection (no test file matched: FilesNotFoundError): the run finished having run no test.
      run.finish({ passed: 0, failed: 0, skipped: 0 });
      throw error;
    }
    const replaced = readSafely(() => replacedInRun(result));
    if (replaced) reportReplaced(replaced);
    const results = readSafely(() => vitestRun(result));
    if (results)
      run.finish(
        results,
        readSafely(() => loadedInRun(result)),
      );
    else run.abandon();
    return result;
  };
}

/** What the workers found replaced in the run's tests (weave-vitest-expect.cjs). */
function replacedInRun(result) {
  const tests = [];
  for (const testModule of result.testModules)
    for (const test of testModule.children.allTests()) tests.push(test);
  return replacedInTests(tests);
}

/** What the workers' test files loaded before their first test (weave-vitest-expect.cjs). */
function loadedInRun(result) {
  const tests = [];
  for (const testModule of result.testModules)
    for (const test of testModule.children.allTests()) tests.push(test);
  return loadedInTests(tests);
}

/** The run's counts; undefined (or a throw, which readSafely catches) for results of another shape. */
function vitestRun(result) {
  if (!result || !Array.isArray(result.testModules) || !Array.isArray(result.unhandledErrors))
    return undefined;
  const run = { passed: 0, failed: 0, skipped: 0, collectionErrors: 0 };
  for (const testModule of result.testModules) {
    if (!testModule || !testModule.children || typeof testModule.children.allTests !== 'function')
      return undefined;
    if (typeof testModule.state !== 'function') return undefined;
    let failedHere = 0;
    for (const test of testModule.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') run.passed++;
      else if (state === 'skipped') run.skipped++;
      // Still pending when the run ended: its worker died.
      else if (state === 'failed' || state === 'pending') failedHere++;
      else return undefined;
    }
    run.failed += failedHere;
    // A file that did not load (an import error) or failed outside its tests (a hook, a crashed worker).
    if (failedHere === 0 && testModule.state() === 'failed') run.collectionErrors++;
  }
  return run;
}

module.exports = { observeVitest };
