'use strict';
// Weave loads this file into every Node.js process of a spec's test command (NODE_OPTIONS=--require …) to
// learn what the test runner itself concluded, whatever the command does with the runner's output and exit
// code (`| cat`, `|| true`, `a; b`, any reporter). It writes signed records into WEAVE_EVIDENCE_DIR
// (weave-evidence-channel.cjs): `started` when a runner starts, `completed` with its counts when it has
// finished, `replaced` when a runner or assertion function was swapped since this file loaded
// (weave-evidence-originals.cjs). A runner that started and never completed (a test that calls process.exit)
// makes the run an error; a file code under test wrote cannot be signed and never counts.
//   node:test  the final `test:summary` event of the runner's event stream (node --test, or a plain
//              `node file.test.js`), observed where the runner emits it; each test file's own process
//              (under node --test) reports that it started and finished, with a key of its own;
//   mocha      the runner's own stats when it ends (and whether it was a --dry-run);
//   jest       the aggregated result of the whole run in jest's main process (weave-jest-hook.cjs);
//   vitest     the whole run's test modules in vitest's main process (weave-vitest-hook.cjs).
// In every process that runs jest or vitest test files (workers too, which have no key) the hook compares
// `expect` and its matchers after each test and puts a replacement into the runner's own result, which the
// main process reports (weave-jest-expect.cjs, weave-vitest-expect.cjs).
const fs = require('node:fs');
const path = require('node:path');
const { openChannel, newInstance } = require('./weave-evidence-channel.cjs');
// What the run uses of this hook. `counts` (the user's own `weave check`, src/core/check/runSpec.ts): the runners'
// counts and the files they loaded; a replaced runner or assertion function is the user's own business there and
// is never read, so the comparisons that find one are not set up: taking them loads node:assert and node:test into
// every process (≈ 6–10 ms of CPU each). Any other value (Weave sets `full` for every contained run) observes
// everything. Read here, before user code: code under test can change it only for its own children, which get no
// key. Loaded now, before user code, where used.
const COUNTS_ONLY = process.env.WEAVE_EVIDENCE_OBSERVE === 'counts';
const comparisons = COUNTS_ONLY ? undefined : require('./weave-evidence-originals.cjs');
const functionsOf = comparisons ? comparisons.functionsOf : () => [];
// What the test processes loaded before their first test (weave-evidence-loads.cjs): node:test and mocha take
// the list here, jest and vitest in their workers (weave-jest-expect.cjs, weave-vitest-expect.cjs).
const { loadsWanted, recordModuleLoads, loadedFiles } = require('./weave-evidence-loads.cjs');

const dir = process.env.WEAVE_EVIDENCE_DIR;
// Taken first, before anything else can run: the key this process was handed (its descriptor is closed now).
const channel = dir ? openChannel(dir) : undefined;
// Only the outermost test runner reports counts. Child processes of `node --test` (NODE_TEST_CONTEXT=child-v8)
// report to their parent, which counts them; a runner started by a test (a test suite that tests a test tool,
// say) finds WEAVE_EVIDENCE_NESTED, which every runner sets for the processes its tests start.
const NESTED = 'WEAVE_EVIDENCE_NESTED';
const testFileProcess = process.env.NODE_TEST_CONTEXT !== undefined;
if (dir && testFileProcess) process.env[NESTED] = '1';
const { Readable } = require('node:stream');
// node:test's events are what this hook reads (test:summary, the stream's shape): they hold from Node 22 on. On an
// older Node (Debian's, an editor whose PATH finds one) the hook observes no node:test run at all, so the printed
// summary decides, as for any runner the hooks do not see, instead of a run that "never finished".
const NODE_TEST_OBSERVABLE = Number(process.versions.node.split('.')[0]) >= 22;

// Every module Node's loader loads from here on, ES modules included, when this run's loads are kept (a reference
// run). Not in launchers (npm, node --test's main process), which load no test code.
if (dir) {
  try {
    if (loadsWanted() && !isPackageRunner() && !isNodeTestMain()) recordModuleLoads();
  } catch {
    // As below: the user's process must run as it would without Weave.
  }
}

// jest's and vitest's `expect` in every process that runs their test files, workers (which have no key)
// included: a replacement travels in the test's or file's result to the main process (weave-jest-expect.cjs,
// weave-vitest-expect.cjs).
if (dir) {
  try {
    observeTestFileExpect();
  } catch {
    // As below: the user's process must run as it would without Weave.
  }
}

if (channel) {
  try {
    observeWithKey();
  } catch {
    // A hook that cannot observe must not break the user's process: this process then reports nothing.
  }
}

function observeWithKey() {
  // The functions as they are now, before user code; the stream method this hook installs is added below.
  const originals = [];
  // No prototype methods on the reporting path (Array#filter, Set#has): code under test may have replaced them.
  const reported = Object.create(null);
  let watched;
  /** Writes a `replaced` record for functions found swapped since the last look. */
  const checkOriginals = () => {
    if (!watched) return;
    const names = watched.replaced();
    const fresh = [];
    for (let i = 0; i < names.length; i++) {
      if (reported[names[i]] === true) continue;
      reported[names[i]] = true;
      fresh[fresh.length] = names[i];
    }
    if (fresh.length > 0) channel.write({ instance: newInstance(), kind: 'replaced', functions: fresh });
  };
  const launcher = handOnKeys();
  const observed = testFileProcess
    ? NODE_TEST_OBSERVABLE
      ? observeTestFile(checkOriginals)
      : undefined
    : observeRunners(checkOriginals, (entries) => watched && watched.add(entries));
  // A launcher runs no user code, so nothing there replaces an assertion; skipping it spares npm and
  // node --test's main process loading node:test and node:assert (≈ 10 ms each).
  if (launcher || COUNTS_ONLY) return;
  if (observed) originals.push(observed);
  watched = comparisons.watchOriginals(originals);
  process.once('exit', checkOriginals);
}

function observeTestFileExpect() {
  // Not observation: lets vite load an honest config while node_modules is read-only (weave-vite-temp.cjs).
  require('./weave-vite-temp.cjs').fallBackFromReadOnlyViteTemp();
  require('./weave-vitest-expect.cjs').observeVitestTestFiles();
  const { observeJestCircusRunner } = require('./weave-jest-expect.cjs');
  const Module = require('node:module');
  const load = Module._load;
  Module._load = function weaveObservedJestLoad() {
    const exports = load.apply(this, arguments);
    try {
      observeJestCircusRunner(exports);
    } catch {
      // Not jest-circus's runner after all: left as it was.
    }
    return exports;
  };
}

/**
 * Whether this process is a launcher, and if so hands keys on. Launchers, processes where no user code runs,
 * hand a key on to the children that load a hook: npm, npx, yarn, pnpm pass the run's own key to the commands
 * they start; `node --test` gives each test file's process
 * a key of its own. Any other process (one that runs tests, user code among them) hands on nothing, so a child
 * a test starts has no key and whatever it writes never counts.
 */
function handOnKeys() {
  const evidencePair = `WEAVE_EVIDENCE_DIR=${dir}`;
  if (isPackageRunner()) {
    channel.handKeysToChildren((envPairs) => envPairs.includes(evidencePair), false);
    return true;
  }
  if (isNodeTestMain()) {
    channel.handKeysToChildren(
      (envPairs) => envPairs.includes(evidencePair) && envPairs.includes('NODE_TEST_CONTEXT=child-v8'),
      true,
    );
    return true;
  }
  return false;
}

function isPackageRunner() {
  try {
    const main = fs.realpathSync(process.argv[1] || '');
    return /[\\/]node_modules[\\/](npm|pnpm|yarn|corepack)[\\/]|[\\/](npm|npx)-cli\.js$/.test(main);
  } catch {
    return false;
  }
}

function isNodeTestMain() {
  const args = process.execArgv;
  return (
    !testFileProcess &&
    args.includes('--test') &&
    !args.some((a) => /^--(experimental-)?test-isolation=none$/.test(a))
  );
}

/** The stream events of node:test in this process, to `onEvent(type, data)`; returns the installed method. */
function observeNodeTestEvents(onEvent) {
  const emit = Readable.prototype.emit;
  Readable.prototype.emit = function weaveObservedEmit(type, data) {
    if (
      typeof type === 'string' &&
      type.startsWith('test:') &&
      this.constructor.name === 'TestsStream' &&
      data
    )
      onEvent(type, data);
    return emit.apply(this, arguments);
  };
  return {
    name: 'stream.Readable.prototype.emit',
    holder: Readable.prototype,
    key: 'emit',
    original: Readable.prototype.emit,
  };
}

/**
 * A test file's own process under `node --test`: its user code runs here. It reports only that it started
 * (at once) and that its tests finished (its own `test:summary`, the end of a file that declared no test, or a
 * non-zero exit): a file that exits with code 0 midway (`process.exit(0)` in a test, or while its modules
 * load) never completes.
 */
function observeTestFile(checkOriginals) {
  const instance = newInstance();
  let sawEvents = false;
  let completed = false;
  // This file's own counts, as its runner emitted them here, before they are serialised to node --test's
  // main process through stdout (where code in this process could rewrite them): signed with this file's key,
  // they can only be compared with the run's counts (src/core/check/evidence/nodeTestFiles.ts), never add up.
  let counts;
  let loaded;
  const complete = () => {
    if (completed) return;
    completed = true;
    checkOriginals();
    const runs = counts ? [counts] : [];
    channel.write({ instance, kind: 'completed', runner: 'node:test', runs, loaded: loaded || [] });
  };
  channel.write({ instance, kind: 'started', runner: 'node:test' });
  process.on('beforeExit', () => {
    if (!sawEvents) complete();
  });
  // A file that crashed (an import that throws) exits non-zero, and node --test's main process counts it as a
  // failure: finished. Only an exit with code 0 before the summary claims a success it did not earn.
  process.once('exit', (code) => {
    if (code !== 0) complete();
  });
  return observeNodeTestEvents((type, data) => {
    sawEvents = true;
    if (type === 'test:dequeue' && loaded === undefined) loaded = loadedFiles();
    if (type === 'test:pass' || type === 'test:fail') checkOriginals();
    else if (type === 'test:summary') {
      const c = data.counts;
      const n = (value) => (typeof value === 'number' && value >= 0 ? value : 0);
      if (c) counts = { runner: 'node:test', passed: n(c.passed), failed: n(c.failed) + n(c.cancelled) };
      complete();
    }
  });
}

/**
 * The outermost runner of a chain: node:test, mocha, jest, vitest, with their counts. `watch(entries)` adds
 * a runner's own functions to those compared (weave-evidence-originals.cjs), taken when the runner loads.
 */
function observeRunners(checkOriginals, watch) {
  if (process.env[NESTED] !== undefined) return undefined;
  const write = (record) => channel.write(record);
  let nodeTest;
  let nodeTestInstance;
  let nodeTestLoaded;
  // With --test, a file whose tests were all filtered out (--test-name-pattern) is itself reported as one
  // passing test named after the file: it ran no test of the user's.
  let emptyFilesPassed = 0;
  // jest's and vitest's runs. `started` is written when one begins, so a runner that dies before it finishes
  // (vitest writing into a closed pipe, a test that SIGKILLs vitest's main thread) never counts as a pass.
  const beginJestOrVitestRun = (runner) => {
    const instance = newInstance();
    write({ instance, kind: 'started', runner });
    return {
      // `loaded`: what the test files' processes loaded before their first test (read from the runner's results).
      finish: (results, loaded) => {
        checkOriginals();
        const record = { instance, kind: 'completed', runner, runs: [{ runner, ...results }] };
        if (loaded && loaded.length > 0) record.loaded = loaded;
        write(record);
      },
      // The runner's results were not what the hook knows: it finished, and the printed summary decides.
      abandon: () => write({ instance, kind: 'completed', runner, runs: [] }),
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
  // Functions a runner's test files found replaced (jest's `expect`, read from the files' results).
  const reportReplaced = (names) => {
    if (names.length > 0) write({ instance: newInstance(), kind: 'replaced', functions: names });
  };
  const reporting = { beginRun: beginJestOrVitestRun, markNested, readSafely, reportReplaced };
  const { observeJestCore } = require('./weave-jest-hook.cjs');
  require('./weave-vitest-hook.cjs').observeVitest(reporting);

  const observedEmit = !NODE_TEST_OBSERVABLE
    ? undefined
    : observeNodeTestEvents((type, data) => {
        if (nodeTestInstance === undefined) {
          nodeTestInstance = newInstance();
          write({ instance: nodeTestInstance, kind: 'started', runner: 'node:test' });
        }
        if (type === 'test:dequeue' && nodeTestLoaded === undefined) nodeTestLoaded = loadedFiles();
        if (type === 'test:summary' && data.counts) {
          // Per-file summaries come first; the last one is the whole run's.
          const c = data.counts;
          const n = (value) => (typeof value === 'number' && value >= 0 ? value : 0);
          nodeTest = {
            passed: n(c.passed),
            failed: n(c.failed) + n(c.cancelled),
            skipped: n(c.skipped) + n(c.todo),
          };
        } else if (type === 'test:pass' && isEmptyFile(data)) {
          emptyFilesPassed++;
        }
        if (type === 'test:pass' || type === 'test:fail') checkOriginals();
      });

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
    // What mocha's verdict rests on, as mocha's own module defined it: its CLI loads it before any --require
    // or spec file. Code under test that replaces Runner.prototype.fail (a failure reported as a pass) or
    // Runnable.prototype.run is named when the run ends.
    for (const name of ['Runner', 'Runnable', 'Test', 'Hook', 'Suite'])
      if (typeof Mocha[name] === 'function')
        watch(functionsOf(`mocha.${name}.prototype`, Mocha[name].prototype));
    const run = Mocha.prototype.run;
    Mocha.prototype.run = function weaveObservedRun() {
      markNested();
      const instance = newInstance();
      write({ instance, kind: 'started', runner: 'mocha' });
      // mocha's CLI has loaded the spec files (and their helpers) before it runs them.
      const loaded = loadedFiles();
      const runner = run.apply(this, arguments);
      const dryRun = Boolean(this.options && this.options.dryRun);
      if (runner && typeof runner.once === 'function') {
        runner.once('end', () => {
          const s = runner.stats || {};
          checkOriginals();
          const counts = {
            passed: dryRun ? 0 : s.passes || 0,
            failed: s.failures || 0,
            skipped: s.pending || 0,
          };
          write({
            instance,
            kind: 'completed',
            runner: 'mocha',
            runs: [{ runner: 'mocha', ...counts, listing: dryRun }],
            loaded,
          });
        });
      }
      return runner;
    };
    Mocha.prototype.run.weaveObserved = true;
    watch(functionsOf('mocha.Mocha.prototype', Mocha.prototype));
  }

  // node:test's whole-run summary is the last one before the process ends: only then is the run complete.
  process.once('exit', () => {
    if (nodeTestInstance === undefined || !nodeTest) return;
    checkOriginals();
    const run = { runner: 'node:test', ...nodeTest, passed: Math.max(0, nodeTest.passed - emptyFilesPassed) };
    write({
      instance: nodeTestInstance,
      kind: 'completed',
      runner: 'node:test',
      runs: [run],
      loaded: nodeTestLoaded || [],
    });
  });
  return observedEmit;
}
