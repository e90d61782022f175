// A parse worker thread (bundled to dist/parseWorker.js; transpiled to out/src/core/index/parseWorker.js).
// It receives batches of files, indexes them one by one with its own tree-sitter, and answers each batch
// with the outcomes and how many trees it still holds (always 0 unless a tree leaked).
import { parentPort, workerData } from 'node:worker_threads';
import type { GrammarLocation } from './grammarLocation';
import { parseFileJob, type ParseJob, type ParseOutcome } from './parseFile';
import { TreeSitterHost } from './treeSitterHost';

export interface WorkerBatch {
  jobs: ParseJob[];
}
export interface WorkerReply {
  outcomes: ParseOutcome[];
  liveTrees: number;
}

const port = parentPort;
if (!port) throw new Error('parseWorker.js runs as a worker thread');
const host = new TreeSitterHost((workerData as { location: GrammarLocation }).location);

port.on('message', (batch: WorkerBatch) => {
  void (async () => {
    const outcomes: ParseOutcome[] = [];
    for (const job of batch.jobs) outcomes.push(await parseFileJob(host, job));
    const reply: WorkerReply = { outcomes, liveTrees: host.liveTreeCount };
    port.postMessage(reply);
  })();
});
