// Runs parse jobs on a pool of worker threads (parseWorker.ts), largest files first, in small batches that
// each worker pulls when it is free, so one huge file does not leave the other workers idle at the end.
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { GrammarLocation } from './grammarLocation';
import type { ParseJob, ParseOutcome } from './parseFile';
import type { WorkerBatch, WorkerReply } from './parseWorker';

const batchMaxFiles = 32;
const batchMaxBytes = 256 * 1024;

export interface PoolResult {
  outcomes: ParseOutcome[];
  /** Trees still alive in the workers after their last batch: 0 unless a tree leaked. */
  liveTrees: number;
}

export async function parseInWorkers(
  jobs: ParseJob[],
  options: { workers: number; location: GrammarLocation; signal?: AbortSignal },
): Promise<PoolResult> {
  const batches = makeBatches(jobs);
  const outcomes: ParseOutcome[] = [];
  const liveTreesByWorker = new Map<Worker, number>();
  // parseWorker.js sits next to this module both in dist/ (bundles) and in out/src/core/index/ (transpiled).
  const script = path.join(__dirname, 'parseWorker.js');
  const count = Math.max(1, Math.min(options.workers, batches.length));
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      let next = 0;
      let running = 0;
      const onAbort = () => reject(options.signal?.reason ?? new Error('indexing was cancelled'));
      if (options.signal?.aborted) return onAbort();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const feed = (worker: Worker) => {
        const batch = batches[next++];
        if (batch === undefined) {
          if (--running === 0) {
            options.signal?.removeEventListener('abort', onAbort);
            resolve();
          }
          return;
        }
        const message: WorkerBatch = { jobs: batch };
        worker.postMessage(message);
      };
      for (let i = 0; i < count; i++) {
        const worker = new Worker(script, { workerData: { location: options.location } });
        workers.push(worker);
        running++;
        worker.on('message', (reply: WorkerReply) => {
          outcomes.push(...reply.outcomes);
          liveTreesByWorker.set(worker, reply.liveTrees);
          feed(worker);
        });
        worker.on('error', reject);
        worker.on('exit', (code) => {
          if (code !== 0) reject(new Error(`a parse worker exited with code ${code}`));
        });
        feed(worker);
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  let liveTrees = 0;
  for (const n of liveTreesByWorker.values()) liveTrees += n;
  return { outcomes, liveTrees };
}

function makeBatches(jobs: ParseJob[]): ParseJob[][] {
  const sorted = [...jobs].sort((a, b) => b.sizeBytes - a.sizeBytes);
  const batches: ParseJob[][] = [];
  let current: ParseJob[] = [];
  let bytes = 0;
  for (const job of sorted) {
    if (current.length > 0 && (current.length >= batchMaxFiles || bytes + job.sizeBytes > batchMaxBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(job);
    bytes += job.sizeBytes;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
