// The part of the Node coverage hook (nodeTracer.ts, spliced into its function body) that makes worker threads
// write their coverage when they end without their 'exit' listeners. It uses the hook's `session`, `write`,
// `Module` and `watchPortStopRequests`, and defines `threads`, `channel`, `registerWorker` (which the hook's
// start() calls in a worker) and `markWritten` (which its write() calls).

/** How long a thread waits for a covering worker to write before ending it (or the process) anyway. */
export const FLUSH_TIMEOUT_MS = 500;

export const WORKER_THREADS_PART = String.raw`  // Worker threads: terminate() stops a thread without its 'exit' listeners (vitest's --pool=threads ends every
  // test file's thread so), so the thread that calls it first asks the worker, over a BroadcastChannel of this
  // process, to write what it ran, and waits for the answer (FLUSH_TIMEOUT_MS at most: a worker stuck in
  // synchronous code cannot answer, and is then ended without). Only workers that started coverage are asked:
  // each says so when it starts, and every thread keeps the list of the ones it heard from. Loading
  // node:worker_threads and opening a channel cost ~5 ms, so a thread does it only once the program loads
  // node:worker_threads (a worker thread has it loaded before preloads run; nothing can start a worker without).
  //
  // When the main thread exits, Node ends the workers still running without their 'exit' listeners (an unref'd
  // worker, a process.exit() while one runs): the main thread's own 'exit' listener asks them all to write and
  // waits (FLUSH_TIMEOUT_MS at most) on a table in shared memory where each covering worker registers and marks
  // that it wrote; setEnvironmentData hands the table to every worker started after it.
  const channelName = 'weave-coverage-' + process.pid;
  const covering = new Set();
  const SLOTS = 1024;
  const ALIVE = 1;
  const WRITTEN = 2;
  let channel;
  let threads;
  let table; // Int32Array: [slots taken, then each slot's state]
  let slot = -1; // this worker's
  const registerWorker = () => {
    channel.postMessage({ covering: threads.threadId });
    if (!table) return;
    const taken = Atomics.add(table, 0, 1);
    if (taken >= SLOTS) return;
    slot = 1 + taken;
    Atomics.store(table, slot, ALIVE);
  };
  const markWritten = () => {
    if (slot < 0) return;
    Atomics.store(table, slot, WRITTEN);
    Atomics.notify(table, slot);
  };
  const flushWorkersAtExit = () => {
    const alive = [];
    const taken = Math.min(Atomics.load(table, 0), SLOTS);
    for (let i = 1; i <= taken; i++) if (Atomics.load(table, i) === ALIVE) alive.push(i);
    if (alive.length === 0) return;
    channel.postMessage({ flushAll: true });
    const deadline = Date.now() + ${FLUSH_TIMEOUT_MS};
    for (const i of alive) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      Atomics.wait(table, i, ALIVE, left);
    }
  };
  const watchThreads = () => {
    threads = require('node:worker_threads');
    if (!threads.isMainThread && threads.parentPort) watchPortStopRequests(threads.parentPort);
    channel = new BroadcastChannel(channelName);
    channel.unref();
    channel.onmessage = ({ data }) => {
      if (!data) return;
      if (typeof data.covering === 'number') covering.add(data.covering);
      if ((data.flush === threads.threadId || data.flushAll) && session) {
        write(session);
        if (data.flush === threads.threadId) channel.postMessage({ flushed: threads.threadId });
      }
    };
    try {
      table = threads.getEnvironmentData(channelName);
      if (threads.isMainThread && !table) {
        table = new Int32Array(new SharedArrayBuffer(4 * (1 + SLOTS)));
        threads.setEnvironmentData(channelName, table);
        process.on('exit', flushWorkersAtExit);
      }
    } catch {
      table = undefined; // no shared memory here: workers still running at exit then write nothing
    }
    const originalTerminate = threads.Worker.prototype.terminate;
    threads.Worker.prototype.terminate = {
      terminate(...args) {
        const worker = this;
        const id = worker.threadId;
        if (!covering.delete(id)) return originalTerminate.apply(worker, args);
        return new Promise((resolve) => {
          const asked = new BroadcastChannel(channelName);
          const done = () => {
            clearTimeout(timer);
            worker.off('exit', done);
            asked.close();
            resolve();
          };
          const timer = setTimeout(done, ${FLUSH_TIMEOUT_MS});
          asked.onmessage = ({ data }) => {
            if (data && data.flushed === id) done();
          };
          worker.once('exit', done);
          asked.postMessage({ flush: id });
        }).then(() => originalTerminate.apply(worker, args));
      },
    }.terminate;
  };
  const loaded = process.moduleLoadList;
  if (
    typeof Module.registerHooks !== 'function' ||
    !Array.isArray(loaded) ||
    loaded.includes('NativeModule worker_threads')
  ) {
    watchThreads();
  } else {
    const watcher = Module.registerHooks({
      load(url, context, nextLoad) {
        if (url === 'node:worker_threads' && !threads) {
          watcher.deregister();
          watchThreads();
        }
        return nextLoad(url, context);
      },
    });
  }
`;
