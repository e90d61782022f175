// A parse worker thread (bundled to dist/parseWorker.js; transpiled to out/src/core/index/parseWorker.js).
// It receives batches of files, indexes them one by one with its own tree-sitter (native where preferred and it
// loads, see preferNativeHost.ts), and answers each batch with the outcomes, how many trees it still holds
// (always 0 unless a tree leaked) and which parser each language it loaded went to. The pool sends the next batch
// before this one is answered (so the worker does not wait for a round trip); batches run one after another.
import { parentPort, workerData } from 'node:worker_threads';
import type { GrammarLocation } from '../grammarLocation';
import { parseFileJob, type ParseJob, type ParseOutcome } from './parseFile';
import { PreferNativeHost, type ParserPreference, type ParsersUsed } from './preferNativeHost';

export interface WorkerData {
  location: GrammarLocation;
  parser: ParserPreference;
}
export interface WorkerBatch {
  jobs: ParseJob[];
}
export interface WorkerReply {
  outcomes: ParseOutcome[];
  liveTrees: number;
  parsers: ParsersUsed;
}

const port = parentPort;
if (!port) throw new Error('parseWorker.js runs as a worker thread');
const data = workerData as WorkerData;
const host = new PreferNativeHost(data.location, data.parser);

let previous: Promise<void> = Promise.resolve();
port.on('message', (batch: WorkerBatch) => {
  previous = previous.then(async () => {
    const outcomes: ParseOutcome[] = [];
    for (const job of batch.jobs) outcomes.push(await parseFileJob(host, job, 'sync'));
    host.idle();
    // Back to the event loop before the next batch: the binding frees a collected tree's memory in a finalizer
    // that Node runs from the loop, not inside gc().
    await new Promise((resolve) => setImmediate(resolve));
    const reply: WorkerReply = { outcomes, liveTrees: host.liveTreeCount, parsers: host.parsersUsed() };
    port.postMessage(reply);
  });
});
