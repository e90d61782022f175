'use strict';
// vitest's `expect`, held from outside the test file (issue #35). vitest runs test files in worker threads or
// forks, each with an `expect` (`import { expect } from 'vitest'`, `globalThis.expect` with globals) made on
// chai's `Assertion`, whose prototype holds every matcher (`toBe`, `toEqual` …, `expect.extend` adds there too).
// Code under test that replaces one turns every failing assertion into a pass. A synchronous module hook
// (`module.registerHooks`, Node >= 22.15) adds one guarded line to the vitest bundle that declares the workers'
// TestRunner class, handing it and chai to this file. When a test file is about to be collected — after the
// declared setupFiles — the runner's `importFile` takes the file's expect, `globalThis.expect`, expect's own
// functions and chai's Assertion prototype; after each test it compares them and names a replacement in the test's
// `meta`, which vitest sends to the main process with the test's result. There the main hook
// (weave-vitest-hook.cjs) reports it as replaced functions. Workers have no key: the result is the channel, and
// no test is failed by it. Verified with vitest 4.1.12; another shape is left untouched.
const { pathToFileURL } = require('node:url');
const path = require('node:path');
const { loadsWanted, loadedFiles } = require('./weave-evidence-loads.cjs');

const HANDOFF = Symbol.for('weave.evidence.vitestRunner');
const GLOBAL_EXPECT = Symbol.for('expect-global');
const META_KEY = 'weaveReplaced';
const LOADED_KEY = 'weaveLoaded';

/** Installs the module hook when vitest resolves from the working folder; `registerHooks` is Node's. */
function observeVitestTestFiles() {
  const registerHooks = require('node:module').registerHooks;
  if (typeof registerHooks !== 'function') return;
  let distUrl;
  try {
    const pkg = require.resolve('vitest/package.json', { paths: [process.cwd()] });
    distUrl = pathToFileURL(path.join(path.dirname(pkg), 'dist')).href + '/';
  } catch {
    return;
  }
  globalThis[HANDOFF] = (TestRunner, chai) => {
    delete globalThis[HANDOFF];
    try {
      wrapTestRunner(TestRunner, chai);
    } catch {
      // Not the shape this file knows: vitest runs as it would without Weave.
    }
  };
  registerHooks({
    load(url, context, nextLoad) {
      const loaded = nextLoad(url, context);
      if (!url.startsWith(distUrl) || loaded.format !== 'module' || loaded.source == null) return loaded;
      const source =
        typeof loaded.source === 'string' ? loaded.source : Buffer.from(loaded.source).toString();
      if (!/^class TestRunner \{/m.test(source)) return loaded;
      const handoff =
        '\n;if (typeof TestRunner === "function") globalThis[Symbol.for("weave.evidence.vitestRunner")]?.(TestRunner, typeof chai === "undefined" ? undefined : chai);\n';
      return { ...loaded, source: source + handoff };
    },
  });
}

function wrapTestRunner(TestRunner, chai) {
  const proto = TestRunner.prototype;
  const importFile = proto.importFile;
  const onAfterRunTask = proto.onAfterRunTask;
  if (typeof importFile !== 'function' || typeof onAfterRunTask !== 'function') return;
  const assertion = chai && typeof chai.Assertion === 'function' ? chai.Assertion.prototype : undefined;
  let baseline;
  proto.importFile = function weaveObservedImportFile(filepath, source) {
    if (source === 'collect') {
      const expect = globalThis[GLOBAL_EXPECT];
      baseline = {
        expect,
        globalExpect: globalThis.expect,
        own: functionsOf(expect),
        assertion: functionsOf(assertion),
      };
    }
    return importFile.apply(this, arguments);
  };
  if (loadsWanted()) watchLoads(proto);
  proto.onAfterRunTask = function weaveObservedAfterRunTask(test) {
    const names = baseline ? compare(baseline, assertion) : [];
    if (names.length > 0 && test && test.meta && typeof test.meta === 'object') test.meta[META_KEY] = names;
    return onAfterRunTask.apply(this, arguments);
  };
}

/**
 * What a test file had loaded when its first test started (a reference run only): vite's module runner evaluates
 * the test file and what it imports (`await import(computed)` too) itself, so Node's loader never sees them; the
 * worker's module graph (`evaluatedModules`, vite's EvaluatedModules: file → modules) does. Plus this process's
 * own loads (a `createRequire` of a computed name; weave-evidence-loads.cjs). The list rides in the first test's
 * `meta` to the main process.
 */
function watchLoads(proto) {
  const onBeforeTryTask = proto.onBeforeTryTask;
  if (typeof onBeforeTryTask !== 'function') return;
  const files = new WeakSet();
  proto.onBeforeTryTask = function weaveLoadsBeforeTryTask(test) {
    try {
      const file = test && test.file;
      if (
        file &&
        typeof file === 'object' &&
        !files.has(file) &&
        test.meta &&
        typeof test.meta === 'object'
      ) {
        files.add(file);
        const graph = this.workerState && this.workerState.evaluatedModules;
        const map = graph && graph.fileToModulesMap;
        const loaded = loadedFiles(map instanceof Map ? [...map.keys()] : []);
        if (loaded.length > 0) test.meta[LOADED_KEY] = loaded;
      }
    } catch {
      // Another shape: this file's loads are not reported.
    }
    return onBeforeTryTask.apply(this, arguments);
  };
}

function compare(baseline, assertion) {
  const replaced = [];
  let expect;
  let globalExpect;
  try {
    expect = globalThis[GLOBAL_EXPECT];
    globalExpect = globalThis.expect;
  } catch {
    return ['vitest.expect'];
  }
  if (expect !== baseline.expect || globalExpect !== baseline.globalExpect) replaced.push('vitest.expect');
  changed(baseline.own, baseline.expect, 'vitest.expect', replaced);
  changed(baseline.assertion, assertion, 'chai.Assertion.prototype', replaced);
  return replaced;
}

/** key → the value or getter of every own property of `holder` that is a function or an accessor. */
function functionsOf(holder) {
  const taken = new Map();
  if (!holder || (typeof holder !== 'object' && typeof holder !== 'function')) return taken;
  for (const key of Object.getOwnPropertyNames(holder)) {
    const current = current_(holder, key);
    if (typeof current === 'function') taken.set(key, current);
  }
  return taken;
}

function current_(holder, key) {
  try {
    const descriptor = Object.getOwnPropertyDescriptor(holder, key);
    return descriptor && (descriptor.get || descriptor.value);
  } catch {
    return undefined;
  }
}

function changed(taken, holder, label, replaced) {
  for (const [key, original] of taken)
    if (current_(holder, key) !== original) replaced.push(`${label}.${key}`);
}

/** The names the tests of a run carry (vitest's TestRunResult, in the main process). */
function replacedInTests(tests) {
  const names = new Set();
  for (const test of tests) {
    const meta = typeof test.meta === 'function' ? test.meta() : undefined;
    const found = meta && meta[META_KEY];
    if (Array.isArray(found)) for (const name of found) if (typeof name === 'string') names.add(name);
  }
  return [...names].sort();
}

/** The files the tests of a run say their files loaded before their first test (main process). */
function loadedInTests(tests) {
  const files = new Set();
  for (const test of tests) {
    const meta = typeof test.meta === 'function' ? test.meta() : undefined;
    const found = meta && meta[LOADED_KEY];
    if (Array.isArray(found)) for (const name of found) if (typeof name === 'string') files.add(name);
  }
  return [...files];
}

module.exports = { observeVitestTestFiles, replacedInTests, loadedInTests };
