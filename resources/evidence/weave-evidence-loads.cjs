'use strict';
// What a test process loaded before its first test, for the protected set's observed part
// (src/core/sandbox/observedLoads.ts): the files of the modules it loaded, however their names were computed.
// Only a reference run uses the list (a check of the user's own tree, an agent run's base run), and only there
// does Weave ask for it (WEAVE_EVIDENCE_LOADS=1, evidence/session.ts): contained runs pay nothing for it.
//   CommonJS   require.cache, read when the list is taken;
//   ES modules a synchronous module hook (`module.registerHooks`, Node >= 22.15) that notes every file: URL Node
//              loads, `import` and `await import(computed)` alike (require too), from before the entry module;
//   jest       the test file's module registry (jest loads test code through vm, not Node's loader),
//              read as its first test starts (weave-jest-expect.cjs);
//   vitest     the worker's module graph (vite's EvaluatedModules), read as a test file's first test starts
//              (weave-vitest-expect.cjs).
// jest and vitest workers have no key: their lists travel to the main process in the runner's own results.
// Dependencies (node_modules) and Weave's own hooks are left out here; the reader keeps the workspace's files.
const path = require('node:path');
const { fileURLToPath } = require('node:url');

const LOADS_VARIABLE = 'WEAVE_EVIDENCE_LOADS';
/** Whether this run is one whose loads Weave keeps (a reference run). */
const wanted = Boolean(process.env.WEAVE_EVIDENCE_DIR) && process.env[LOADS_VARIABLE] === '1';

const own = __dirname + path.sep;
const dependencies = `${path.sep}node_modules${path.sep}`;
/** file: URLs the module hook saw loaded, in load order. */
const seenUrls = [];
let hooked = false;

/**
 * Starts noting every module Node's loader loads in this process (ES modules above all, which require.cache
 * does not hold). Call before user code: from the preload. No-op without `registerHooks` (those ES modules
 * stay unseen) or when this run's loads are not kept.
 */
function recordModuleLoads() {
  if (!wanted || hooked) return;
  const registerHooks = require('node:module').registerHooks;
  if (typeof registerHooks !== 'function') return;
  hooked = true;
  registerHooks({
    load(url, context, nextLoad) {
      if (typeof url === 'string' && url.startsWith('file:')) seenUrls[seenUrls.length] = url;
      return nextLoad(url, context);
    },
  });
}

/** `name` (an absolute path or a file: URL, maybe with a query) as a path worth reporting, or undefined. */
function reportable(name) {
  if (typeof name !== 'string') return undefined;
  let file = name;
  if (file.startsWith('file:')) {
    try {
      file = fileURLToPath(file.replace(/[?#].*$/, ''));
    } catch {
      return undefined;
    }
  } else {
    file = file.replace(/[?#].*$/, '');
  }
  if (!path.isAbsolute(file) || file.startsWith(own) || file.includes(dependencies)) return undefined;
  return file;
}

/**
 * The files this process's own loaders have loaded so far (require.cache, and what the module hook saw), plus
 * `extra` (names a runner's registry holds: paths or file: URLs), without dependencies and Weave's hooks.
 */
function loadedFiles(extra) {
  // No Set, spread or Array methods: in a contained run code under test may have replaced them, and this runs
  // on the runner's event path there too (node:test's first test).
  const found = [];
  const taken = Object.create(null);
  const add = (name) => {
    const file = reportable(name);
    if (file === undefined || taken[file] === true) return;
    taken[file] = true;
    found[found.length] = file;
  };
  try {
    const names = Object.keys(require.cache);
    for (let i = 0; i < names.length; i++) add(names[i]);
    for (let i = 0; i < seenUrls.length; i++) add(seenUrls[i]);
    if (extra) for (let i = 0; i < extra.length; i++) add(extra[i]);
  } catch {
    // Only the reference run's list is used: an odd one costs the observation, never the run.
  }
  return found;
}

module.exports = { LOADS_VARIABLE, loadsWanted: () => wanted, recordModuleLoads, loadedFiles };
