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
// Why coverage starts late: binary coverage is not free once on. Starting it costs ~8 ms (V8 deoptimises
// everything and collects source positions for every compiled function), and until a function's first call
// has been reported V8 will not inline it, which slows hot code by 10-20%. Most Node processes a spec starts
// run none of the workspace's code (npm, npx, the `node --test` parent, a runner before it loads the tests),
// so the hook starts coverage just before the first workspace script is loaded — seen through
// `module.registerHooks` (every require and import, Node >= 22.15) and the `vm` compile functions (jest and
// vitest load test code through vm) — and a process that never runs workspace code pays only for the hook's
// own loading. Starting late loses nothing: a function cannot run before its script is compiled. The hook
// comes first in NODE_OPTIONS (instrument.ts), so it sees a spec's own `--require ./setup.js` load. A process
// whose entry script is the workspace's (`node test/x.test.js`, a node --test child) starts at once, as does one
// where a workspace script is already loaded (a command that puts its own preload first) and a Node.js without
// `registerHooks`, which would not show ES modules.
//
// The write happens in a process 'exit' listener (the inspector answers synchronously in-thread), so normal
// ends, process.exit() and uncaught exceptions are recorded; on SIGTERM, which is how pools end their worker
// processes; and, in a worker thread, just before another thread's terminate() or its process's exit ends it
// (nodeWorkerThreads.ts). A process killed with SIGKILL, or a worker stuck in synchronous code when it is ended,
// writes nothing. A process whose environment sets NODE_V8_COVERAGE (c8, a user's own coverage tool) is left alone:
// V8 has one coverage mode per isolate, and binary mode would spoil the tool's block counts.

import { WORKER_THREADS_PART } from './nodeWorkerThreads';

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
  const path = require('node:path');
  const { pathToFileURL } = require('node:url');
  const Module = require('node:module');
  const vm = require('node:vm');
  const rootUrl = pathToFileURL(root).href.replace(/\/?$/, '/');
  const keptUrl = (url) =>
    typeof url === 'string' &&
    url.startsWith(rootUrl) &&
    !url.includes('/node_modules/') &&
    !url.startsWith(rootUrl + '.weave/');
  // A file name or a file: URL (ESM loads, vm identifiers) of the workspace's own code.
  const inWorkspace = (name) => {
    if (typeof name !== 'string') return false;
    if (name.startsWith('file:')) return keptUrl(name);
    return path.isAbsolute(name) && keptUrl(pathToFileURL(name).href);
  };

  const undo = [];
  const compiledCode = new Map(); // file: URL → the last code vm compiled under it, when it names a source map
  let started = false;
  let session;
  const start = () => {
    if (started) return;
    started = true;
    for (const restore of undo.splice(0)) restore();
    try {
      session = new (require('node:inspector').Session)();
      session.connect();
    } catch {
      session = undefined;
      return; // a Node.js built without the inspector: no coverage, the test runs as it would
    }
    session.post('Profiler.enable');
    session.post('Profiler.startPreciseCoverage', { callCount: false, detailed: false });
    if (threads && !threads.isMainThread) registerWorker();
    process.once('exit', () => write(session));
    // Pools end their workers with SIGTERM (vitest's forks), which skips 'exit' listeners. Written first; then,
    // when no listener of the program's own is there to decide, the signal does what it would have done.
    process.once('SIGTERM', () => {
      write(session);
      if (process.listenerCount('SIGTERM') === 0) process.kill(process.pid, 'SIGTERM');
    });
  };

  // Binary coverage reports a function once: a later take (a flushed worker that then exits) has only what ran
  // since, so it is written only when something did.
  let takes = 0;
  const write = (session) => {
    session.post('Profiler.takePreciseCoverage', (error, taken) => {
      if (error || !taken) return;
      const result = taken.result.filter((script) => keptUrl(script.url));
      if (result.length === 0) return;
      takes += 1;
      if (takes > 1 && !result.some((s) => s.functions.some((f) => f.ranges[0] && f.ranges[0].count > 0))) return;
      const fs = require('node:fs');
      const { threadId } = require('node:worker_threads');
      const file = path.join(dir, 'coverage-' + process.pid + '-' + threadId + '-' + Date.now() + '.json');
      // The maps of code compiled through vm (jest, vitest) are known without the debugger: written in the same
      // file as the coverage, so a pool that kills this process soon after (vitest's forks: SIGKILL 500 ms after
      // SIGTERM) leaves both or neither, never coverage whose transformed code has lost its map.
      const { maps, wanted } = sourceMapsOfCompiled(result);
      try {
        fs.writeFileSync(
          file,
          JSON.stringify({
            result,
            ...(maps ? { 'source-map-cache': maps } : {}),
            ...(maps || wanted.size > 0 ? { runner: runnerName() } : {}),
            ...(wanted.size > 0 ? { pendingMaps: [...wanted.values()] } : {}),
          }),
        );
        // Other loaders' maps (ts-node, tsx, esbuild-register) need the debugger, which is slower: after the
        // coverage, in a file of their own (a process ended meanwhile loses only these maps).
        if (wanted.size > 0) {
          const more = sourceMapsFromDebugger(session, wanted) || {};
          const noMap = [...wanted.values()].filter((url) => !more[url]);
          fs.writeFileSync(
            file.replace(/\.json$/, '.maps.json'),
            JSON.stringify({ 'source-map-cache': more, ...(noMap.length > 0 ? { noMap } : {}) }),
          );
        }
      } catch {
        // The run's coverage directory is gone (the run was cancelled): nothing to record into.
      }
    });
    markWritten(); // a worker's, for the main thread waiting at its exit (nodeWorkerThreads.ts)
  };

  // A pool that asks its worker process to stop over IPC and then kills it (vitest 4's forks: a 'stop' request,
  // then SIGTERM and SIGKILL 500 ms later; under load the SIGTERM write may not finish in time) gets the
  // coverage written when the request arrives, before the worker answers it. Seen by wrapping process.emit:
  // a 'message' listener of our own would keep the IPC channel, and so the process, alive.
  const isStopRequest = (message) =>
    message !== null &&
    typeof message === 'object' &&
    message.type === 'stop' &&
    message.__vitest_worker_request__ === true;
  // tinypool (vitest 3's forks) sends no stop request: it SIGTERMs a fork after its task and SIGKILLs it a second
  // later. Its fork answers each task over IPC; the coverage is written just before that answer goes. Wrapped at
  // load, before the pool's entry script keeps its own reference to process.send.
  const isTaskAnswer = (message) =>
    message !== null &&
    typeof message === 'object' &&
    message.__tinypool_worker_message__ === true &&
    message.source === 'port' &&
    'taskId' in message;
  // jest-worker (jest's pool) ends a child process with [CHILD_MESSAGE_END = 2, forced]; the child then runs
  // process.exit(), while the pool waits 500 ms, SIGTERMs it and SIGKILLs it 500 ms later: under load the 'exit'
  // write need not finish (every spec of a jest suite lost its coverage that way). Written when the message
  // arrives, as for vitest. Known by the child's entry, jest-worker's own, so no other program's [2, false] counts.
  const jestChild = /[\\/]jest-worker[\\/]build[\\/]processChild\.js$/.test(process.argv[1] || '');
  const isJestEnd = (message) =>
    jestChild && Array.isArray(message) && message[0] === 2 && typeof message[1] === 'boolean';
  const watchStopRequests = () => {
    const emit = process.emit;
    process.emit = function (name, message) {
      if (name === 'message' && (isStopRequest(message) || isJestEnd(message)) && session) write(session);
      return emit.apply(this, arguments);
    };
    const send = process.send;
    process.send = function (message) {
      if (isTaskAnswer(message) && session) write(session);
      return send.apply(this, arguments);
    };
  };
  if (typeof process.send === 'function') watchStopRequests();

  // The same in a worker thread (vitest 4's threads: a 'stop' request over the parent port, then terminate(),
  // whose flush nodeWorkerThreads.ts waits for at most 500 ms): the program's own 'message' listeners on the port
  // are wrapped (a listener of our own would keep the port, and so the thread, alive).
  const watchPortStopRequests = (port) => {
    const wrapped = new WeakMap();
    const wrapOf = (listener) => {
      let wrapper = wrapped.get(listener);
      if (!wrapper) {
        wrapper = function (message) {
          if (isStopRequest(message) && session) write(session);
          return listener.apply(this, arguments);
        };
        wrapped.set(listener, wrapper);
      }
      return wrapper;
    };
    const adding = ['on', 'addListener', 'once', 'prependListener', 'prependOnceListener'];
    for (const name of [...adding, 'off', 'removeListener']) {
      const original = port[name];
      if (typeof original !== 'function') continue;
      port[name] = function (event, listener) {
        if (event !== 'message' || typeof listener !== 'function') return original.apply(this, arguments);
        const given = adding.includes(name) ? wrapOf(listener) : wrapped.get(listener) || listener;
        return original.call(this, event, given);
      };
    }
  };

  // The test runner this process belongs to ("vitest 4.1.12"), for the reason a file stays unmapped: the
  // package.json nearest above the entry script (a pool's worker entry lives in its runner's package).
  let runner;
  const runnerName = () => {
    if (runner !== undefined) return runner;
    runner = '';
    // A process whose entry is the workspace's own script (node --test's child for a test file) runs under
    // Node.js itself, and the loaders it was given decide the transform ("node v24.1.0 --import tsx").
    if (inWorkspace(process.argv[1] ? path.resolve(process.argv[1]) : '')) {
      const given = [...process.execArgv, ...(process.env.NODE_OPTIONS || '').split(/\s+/)];
      const loaders = [];
      given.forEach((arg, i) => {
        const flag = /^--(import|require|loader|experimental-loader)(?:=(.+))?$/.exec(arg) || (arg === '-r' ? [arg, 'require'] : null);
        const value = flag && (flag[2] || given[i + 1]);
        if (value && !value.includes('weave-coverage-hook')) loaders.push('--' + flag[1] + ' ' + value.replace(/^"|"$/g, ''));
      });
      runner = ['node', process.version, ...loaders].join(' ');
      return runner;
    }
    let at = process.argv[1] ? path.dirname(path.resolve(process.argv[1])) : '';
    for (let i = 0; at && i < 8 && path.dirname(at) !== at; i++, at = path.dirname(at)) {
      try {
        const manifest = JSON.parse(require('node:fs').readFileSync(path.join(at, 'package.json'), 'utf8'));
        if (typeof manifest.name === 'string' && typeof manifest.version === 'string') {
          runner = manifest.name + ' ' + manifest.version;
          break;
        }
      } catch {
        // no manifest here: one folder up
      }
    }
    // jest's pool children start from jest-worker's entry: the runner the project names is jest.
    if (runner.startsWith('jest-worker ')) {
      try {
        const jest = require(require.resolve('jest/package.json', { paths: [process.cwd()] }));
        runner = 'jest ' + jest.version;
      } catch {
        // jest-worker used by something else: its own name stays
      }
    }
    return runner;
  };

  // A script that is not the file on disk (vitest/vite, ts-node, tsx, babel-jest, esbuild-register transform it
  // in memory) names its source map in a comment only the executed source has. Code compiled through vm (jest,
  // vitest) was seen with that comment (compiledCode); for the rest V8 parsed it, and the debugger, enabled just
  // for this at the end, reports it (Debugger.scriptParsed's sourceMapURL; inline maps as data: URLs). Written
  // under 'source-map-cache' as NODE_V8_COVERAGE does (the debugger's in <coverage file>.maps.json); the reader
  // (v8.ts, mappedRuns.ts) loads the maps. Only processes that ran such a script pay for the debugger.
  const sourceMapsOfCompiled = (result) => {
    const fs = require('node:fs');
    const { fileURLToPath } = require('node:url');
    const wanted = new Map(); // scriptId → url of transformed scripts whose map vm did not show
    let maps;
    const mapComment = /(?:\/\/[#@])\s*sourceMappingURL=([^\s'"]+)\s*$/;
    for (const script of result) {
      const code = compiledCode.get(script.url);
      const comment = code && mapComment.exec(code.slice(code.lastIndexOf('sourceMappingURL=') - 4));
      if (comment) {
        maps = maps || {};
        maps[script.url] = { url: comment[1], lineLengths: code.split('\n').map((line) => line.length) };
        continue;
      }
      const top = script.functions.find((f) => f.functionName === '' && f.ranges[0] && f.ranges[0].startOffset === 0);
      if (!top) continue;
      let text;
      try {
        text = fs.readFileSync(fileURLToPath(script.url), 'utf8');
      } catch {
        continue;
      }
      const length = text.length - (text.charCodeAt(0) === 0xfeff ? 1 : 0);
      const end = top.ranges[0].endOffset;
      if (length === end) continue;
      // Node's own type stripping (.ts, .mts, .cts: node --test, a plain node) blanks the types, so every offset
      // of the file holds, and appends '\n\n//# sourceURL=<its URL>': the file as written plus a comment, which
      // the ranges drop (the reader compares lengths to tell a file as written from transformed code).
      if (/\.[cm]?ts$/.test(script.url) && end === length + ('\n\n//# sourceURL=' + script.url).length) {
        for (const f of script.functions) for (const r of f.ranges) r.endOffset = Math.min(r.endOffset, length);
        continue;
      }
      wanted.set(String(script.scriptId), script.url);
    }
    return { maps, wanted };
  };
  const sourceMapsFromDebugger = (session, wanted) => {
    const maps = {};
    const onParsed = (message) => {
      const url = wanted.get(String(message.params.scriptId));
      if (url !== undefined && message.params.sourceMapURL)
        maps[url] = { url: message.params.sourceMapURL, scriptId: message.params.scriptId };
    };
    try {
      session.on('Debugger.scriptParsed', onParsed);
      session.post('Debugger.enable');
      // Offsets are all coverage gives; a map speaks in lines and columns of the executed source.
      for (const entry of Object.values(maps)) {
        session.post('Debugger.getScriptSource', { scriptId: entry.scriptId }, (error, answer) => {
          if (!error && answer) entry.lineLengths = answer.scriptSource.split('\n').map((line) => line.length);
        });
        delete entry.scriptId;
      }
      session.post('Debugger.disable');
    } catch {
      // No debugger in this build: the reader keeps such files per file and says why.
    } finally {
      session.removeListener('Debugger.scriptParsed', onParsed);
    }
    return Object.keys(maps).length > 0 ? maps : undefined;
  };

${WORKER_THREADS_PART}
  // Start now when workspace code is sure to run or has run: the entry script is the workspace's (not the
  // node --test parent, which only starts a child per file), or a spec's own --require loaded some; also when
  // ES modules could not be seen. Starting before the entry loads is cheaper than during it: V8 then has fewer
  // compiled functions to deoptimise and collect source positions for.
  const entry = process.argv[1] && !process.execArgv.includes('--test') ? path.resolve(process.argv[1]) : '';
  if (
    inWorkspace(entry) ||
    Object.keys(require.cache).some(inWorkspace) ||
    typeof Module.registerHooks !== 'function'
  ) {
    start();
    return;
  }

  // Replaces holder[name] until coverage starts (then the original comes back, unless someone wrapped it since);
  // with \`keep\`, for the life of the process.
  const wrap = (holder, name, make, keep) => {
    const original = holder[name];
    if (typeof original !== 'function') return;
    const wrapper = make(original);
    holder[name] = wrapper;
    if (keep) return;
    undo.push(() => {
      if (holder[name] === wrapper) holder[name] = original;
    });
  };
  // Every require and import, whatever the module format.
  const hooks = Module.registerHooks({
    load(url, context, nextLoad) {
      if (inWorkspace(url)) start();
      return nextLoad(url, context);
    },
  });
  undo.push(() => hooks.deregister());
  // vm: the file a script is compiled as is its options' filename (or the options string itself).
  const named = (options) => (typeof options === 'string' ? options : options && options.filename);
  // The vm wrappers stay after coverage starts: jest and vitest compile the workspace's code through vm after a
  // transform, and the code they compile names its source map (sourceMapsOfCompiled reads it from here, which
  // costs a string search per workspace script instead of the debugger at exit).
  const onCompile = (name, code) => {
    if (!inWorkspace(name)) return;
    start();
    if (typeof code === 'string' && code.includes('sourceMappingURL=')) {
      compiledCode.set(name.startsWith('file:') ? name : pathToFileURL(name).href, code);
    }
  };
  wrap(vm, 'Script', (Script) =>
    new Proxy(Script, {
      construct(target, args, newTarget) {
        onCompile(named(args[1]), args[0]);
        return Reflect.construct(target, args, newTarget);
      },
    }),
    true,
  );
  if (typeof vm.SourceTextModule === 'function') {
    wrap(vm, 'SourceTextModule', (SourceTextModule) =>
      new Proxy(SourceTextModule, {
        construct(target, args, newTarget) {
          onCompile(args[1] && args[1].identifier, args[0]);
          return Reflect.construct(target, args, newTarget);
        },
      }),
      true,
    );
  }
  for (const [name, optionsAt] of [
    ['compileFunction', 2],
    ['runInThisContext', 1],
    ['runInContext', 2],
    ['runInNewContext', 2],
  ]) {
    wrap(
      vm,
      name,
      (original) =>
        function (...args) {
          onCompile(named(args[optionsAt]), args[0]);
          return original.apply(this, args);
        },
      true,
    );
  }
  Module.syncBuiltinESMExports();
  undo.push(() => Module.syncBuiltinESMExports());
})();
`;
