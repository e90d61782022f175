// The CommonJS hook Weave puts in a spec's NODE_OPTIONS (`--require`): every Node.js process the command
// starts (npx, vitest/jest workers, mocha, node --test children: they inherit NODE_OPTIONS) and every worker
// thread (Node runs preload modules in workers too, whatever their execArgv) records which functions ran.
//
// Why not NODE_V8_COVERAGE: it switches V8 to precise *block* coverage with call counts from start-up and, at
// exit, writes every script's ranges, Node's internals included (+33% wall on the check bench). This hook asks
// the process's own inspector for *binary function* coverage (`callCount: false, detailed: false`: one flag per
// function, set on its first call) and writes only the workspace's own scripts, in the file format
// NODE_V8_COVERAGE uses, so v8.ts reads both. Line hits are then function-granular: a line counts as its
// innermost function did.
//
// The write happens in a process 'exit' listener (the inspector answers synchronously in-thread), so normal
// ends, process.exit() and uncaught exceptions are recorded; a process killed by a signal writes nothing (as
// with NODE_V8_COVERAGE). A process whose environment sets NODE_V8_COVERAGE (c8, a user's own coverage tool)
// is left alone: V8 has one coverage mode per isolate, and binary mode would spoil the tool's block counts.

/** Environment variable naming the directory the hook writes into (one file per process or worker). */
export const V8_COVERAGE_DIR_VARIABLE = 'WEAVE_V8_COVERAGE_DIR';
/** Environment variable naming the workspace whose scripts are kept (shared with the Python tracer). */
export const COVERAGE_ROOT_VARIABLE = 'WEAVE_COVERAGE_ROOT';

export const NODE_COVERAGE_HOOK_CJS = String.raw`'use strict';
// Written by Weave for per-spec coverage (src/core/coverage/nodeTracer.ts); removed after the run.
(() => {
  const dir = process.env.${V8_COVERAGE_DIR_VARIABLE};
  const root = process.env.${COVERAGE_ROOT_VARIABLE};
  if (!dir || !root || process.env.NODE_V8_COVERAGE) return;
  let session;
  try {
    const inspector = require('node:inspector');
    session = new inspector.Session();
    session.connect();
  } catch {
    return; // a Node.js built without the inspector: no coverage, the test runs as it would
  }
  session.post('Profiler.enable');
  session.post('Profiler.startPreciseCoverage', { callCount: false, detailed: false });
  const { pathToFileURL } = require('node:url');
  const path = require('node:path');
  const fs = require('node:fs');
  const { threadId } = require('node:worker_threads');
  const prefix = pathToFileURL(root).href.replace(/\/?$/, '/');
  const kept = (url) =>
    url.startsWith(prefix) &&
    !url.includes('/node_modules/') &&
    !url.startsWith(prefix + '.weave/');
  process.once('exit', () => {
    session.post('Profiler.takePreciseCoverage', (error, taken) => {
      if (error || !taken) return;
      const result = taken.result.filter((script) => kept(script.url));
      if (result.length === 0) return;
      try {
        fs.writeFileSync(
          path.join(dir, 'coverage-' + process.pid + '-' + threadId + '-' + Date.now() + '.json'),
          JSON.stringify({ result }),
        );
      } catch {
        // The run's coverage directory is gone (the run was cancelled): nothing to record into.
      }
    });
  });
})();
`;
