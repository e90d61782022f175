'use strict';
// jest's `expect`, held from outside the test file (issue #35). jest runs each test file in a VM context, in a
// worker process or (-i) in the main one, and installs `expect` there; code under test that replaces it
// (`globalThis.expect = …`) or the matchers behind it (`expect.extend({ toBe: … })`, the matcher table jest keeps
// under Symbol.for('$$jest-matchers-object')) turns every failing assertion into a pass. This file wraps
// jest-circus's adapter, the outer-realm function every worker (and the main process in band) calls for each
// test file: when the test file itself is about to load — after the environment, jest's globals and the
// declared setupFilesAfterEnv — it takes `expect`, the expect function's own functions and every matcher; after
// each test (the environment's `test_done` event) and when the file ends it compares them. A replacement is
// named in the file's result (`weaveReplaced`), which reaches jest's main process with the rest of the result
// through jest's own IPC; the main process's hook (weave-jest-hook.cjs) reports it as replaced functions.
// Workers have no key, so nothing here writes evidence: the file's result is the channel, and a test is never
// failed by it (the user's own `weave check` of an honest project that sets `expect` in a test file is unchanged).
// What a declared setup file does (`global.expect = chai.expect`, `expect.extend(jestExtended)`) is the baseline.
// Verified with jest-circus 30.5.2; another shape is left untouched.

const { loadsWanted, loadedFiles } = require('./weave-evidence-loads.cjs');

const MATCHERS = Symbol.for('$$jest-matchers-object');
const RESULT_KEY = 'weaveReplaced';
const LOADED_KEY = 'weaveLoaded';

/** When `exports` is jest-circus's runner module, wraps its adapter in place; returns whether it did. */
function observeJestCircusRunner(exports) {
  if (!exports || typeof exports !== 'object') return false;
  const adapter = exports.default;
  if (typeof adapter !== 'function' || adapter.name !== 'jestAdapter' || adapter.weaveObserved) return false;
  const descriptor = Object.getOwnPropertyDescriptor(exports, 'default');
  if (!descriptor || !descriptor.writable) return false;
  const observed = async function weaveObservedJestAdapter(
    globalConfig,
    config,
    environment,
    runtime,
    testPath,
  ) {
    const watch = watchExpect(environment, runtime, testPath);
    const loads = loadsWanted() ? watchLoads(environment, runtime) : undefined;
    const result = await adapter.apply(this, arguments);
    if (watch) watch.attach(result);
    if (loads) loads.attach(result);
    return result;
  };
  observed.weaveObserved = true;
  exports.default = observed;
  return true;
}

/** Arms the comparison for one test file; undefined when jest's objects are not of the known shape. */
function watchExpect(environment, runtime, testPath) {
  if (!environment || !environment.global || !runtime || typeof runtime.requireModule !== 'function')
    return undefined;
  const global = environment.global;
  const replaced = new Set();
  let baseline;
  const take = () => {
    const expect = global.expect;
    const table = global[MATCHERS];
    baseline = {
      expect,
      own: ownFunctions(expect),
      matchers: table && table.matchers ? ownFunctions(table.matchers) : new Map(),
      table: table && table.matchers,
    };
  };
  const compare = () => {
    if (!baseline) return;
    let expect;
    let table;
    try {
      expect = global.expect;
      table = global[MATCHERS];
    } catch {
      replaced.add('jest.expect');
      return;
    }
    if (expect !== baseline.expect) replaced.add('jest.expect');
    compareFunctions(
      baseline.own,
      expect === baseline.expect ? expect : baseline.expect,
      'jest.expect',
      replaced,
    );
    const matchers = table && table.matchers;
    if (matchers !== baseline.table) replaced.add('jest.expect matchers');
    else compareFunctions(baseline.matchers, matchers, 'jest.expect matcher', replaced);
  };
  // The test file (ES module or CommonJS) loads after every declared setup file: the baseline is taken then.
  for (const method of ['requireModule', 'unstable_importModule']) {
    const original = runtime[method];
    if (typeof original !== 'function') continue;
    runtime[method] = function weaveObservedLoad(from) {
      if (!baseline && from === testPath) take();
      return original.apply(this, arguments);
    };
  }
  const handle = environment.handleTestEvent;
  environment.handleTestEvent = function weaveObservedTestEvent(event) {
    if (event && (event.name === 'test_done' || event.name === 'run_finish')) compare();
    return typeof handle === 'function' ? handle.apply(this, arguments) : undefined;
  };
  return {
    attach(result) {
      compare();
      if (replaced.size > 0 && result && typeof result === 'object')
        result[RESULT_KEY] = [...replaced].sort();
    },
  };
}

/**
 * What the test file had loaded when its first test started (a reference run only): jest loads test code through
 * vm, from its own module registry, so Node's loader never sees a helper the test requires or imports, however
 * its name was computed. The registry is read through the `require.cache` view jest 30 gives a test (every
 * CommonJS module and every ES module evaluated, as paths), or jest 29's registries; plus this process's own
 * loads (weave-evidence-loads.cjs). The list rides in the file's result to the main process.
 */
function watchLoads(environment, runtime) {
  if (!environment || typeof environment !== 'object') return undefined;
  let loaded;
  const handle = environment.handleTestEvent;
  environment.handleTestEvent = function weaveLoadsTestEvent(event) {
    if (loaded === undefined && event && event.name === 'test_start')
      loaded = loadedFiles(registryNames(runtime));
    return typeof handle === 'function' ? handle.apply(this, arguments) : undefined;
  };
  return {
    attach(result) {
      if (loaded && loaded.length > 0 && result && typeof result === 'object') result[LOADED_KEY] = loaded;
    },
  };
}

/** The module names (paths, file: URLs) of a jest runtime's registries; [] for a shape this does not know. */
function registryNames(runtime) {
  const names = [];
  try {
    const registries = runtime.registries;
    if (registries && typeof registries.getRequireCacheProxy === 'function') {
      // jest 30: the registry behind the test's own `require.cache` (CommonJS and live ES modules, as paths).
      for (const key of Reflect.ownKeys(registries.getRequireCacheProxy()))
        if (typeof key === 'string') names.push(key);
    } else {
      // jest 29: the runtime's CommonJS and ES module registries.
      for (const registry of [runtime._moduleRegistry, runtime._esmoduleRegistry])
        if (registry instanceof Map) for (const key of registry.keys()) names.push(key);
    }
  } catch {
    // Another shape: only this process's own loads are reported.
  }
  return names;
}

/** name → function for every function-valued own data property of `holder`. */
function ownFunctions(holder) {
  const taken = new Map();
  if (!holder || (typeof holder !== 'object' && typeof holder !== 'function')) return taken;
  for (const key of Object.getOwnPropertyNames(holder)) {
    const descriptor = Object.getOwnPropertyDescriptor(holder, key);
    if (descriptor && typeof descriptor.value === 'function') taken.set(key, descriptor.value);
  }
  return taken;
}

function compareFunctions(taken, holder, label, replaced) {
  for (const [key, original] of taken) {
    let current;
    try {
      const descriptor = Object.getOwnPropertyDescriptor(holder, key);
      current = descriptor && (descriptor.get ? '(a getter)' : descriptor.value);
    } catch {
      current = undefined;
    }
    if (current !== original) replaced.add(`${label}.${key}`);
  }
}

/** The names a file's result carries (jest's AggregatedResult, in the main process). */
function replacedInResults(results) {
  const names = [];
  for (const file of results.testResults) {
    const found = file && file[RESULT_KEY];
    if (Array.isArray(found)) for (const name of found) if (typeof name === 'string') names.push(name);
  }
  return names;
}

/** The files the test files' results say they loaded before their first test (main process). */
function loadedInResults(results) {
  const files = [];
  const taken = new Set();
  for (const file of results.testResults) {
    const found = file && file[LOADED_KEY];
    if (!Array.isArray(found)) continue;
    for (const name of found)
      if (typeof name === 'string' && !taken.has(name)) {
        taken.add(name);
        files.push(name);
      }
  }
  return files;
}

module.exports = { observeJestCircusRunner, replacedInResults, loadedInResults };
