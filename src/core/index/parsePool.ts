// Runs parse jobs on a pool of worker threads (parseWorker.ts), in small batches that each worker pulls when it
// is free, largest files first so one big file does not leave the other workers idle at the end. A worker
// prefers batches of languages it has already loaded: loading a language and compiling its queries costs
// 55–90 ms per worker (measured 2026-11-30), paid again for every language a worker touches. Each worker holds
// two batches at a time, so it never waits for the main thread between them.
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { GrammarLocation } from '../grammarLocation';
import type { ParseJob, ParseOutcome } from './parseFile';
import type { ParserPreference, ParsersUsed } from './preferNativeHost';
import type { LanguageId } from './types';
import type { WorkerBatch, WorkerData, WorkerReply } from './parseWorker';

const batchMaxFiles = 32;
const batchMaxBytes = 256 * 1024;

export interface PoolResult {
  outcomes: ParseOutcome[];
  /** Trees still alive in the workers after their last batch: 0 unless a tree leaked. */
  liveTrees: number;
  /** Which parser each language went to, over all workers (WASM wins where they differ). */
  parsers: ParsersUsed;
}

export async function parseInWorkers(
  jobs: ParseJob[],
  options: { workers: number; location: GrammarLocation; parser: ParserPreference; signal?: AbortSignal },
): Promise<PoolResult> {
  const queues = makeBatchQueues(jobs);
  const batchCount = [...queues.values()].reduce((n, q) => n + q.batches.length, 0);
  const outcomes: ParseOutcome[] = [];
  const liveTreesByWorker = new Map<Worker, number>();
  const parsers: ParsersUsed = { byLanguage: {}, fallbacks: {} };
  // parseWorker.js sits next to this module both in dist/ (bundles) and in out/src/core/index/ (transpiled).
  const script = path.join(__dirname, 'parseWorker.js');
  const count = Math.max(1, Math.min(options.workers, batchCount));
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const loadedBy = new Map<Worker, Set<LanguageId>>();
      const loadedAnywhere = new Set<LanguageId>();
      /** Batches sent and not answered yet, over all workers. */
      let outstanding = 0;
      const onAbort = () => reject(options.signal?.reason ?? new Error('indexing was cancelled'));
      if (options.signal?.aborted) return onAbort();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const feed = (worker: Worker) => {
        const loaded = loadedBy.get(worker) ?? new Set<LanguageId>();
        loadedBy.set(worker, loaded);
        const batch = nextBatch(queues, loaded, loadedAnywhere);
        if (batch === undefined) {
          if (outstanding === 0) {
            options.signal?.removeEventListener('abort', onAbort);
            resolve();
          }
          return;
        }
        outstanding++;
        const message: WorkerBatch = { jobs: batch };
        worker.postMessage(message);
      };
      for (let i = 0; i < count; i++) {
        const data: WorkerData = { location: options.location, parser: options.parser };
        const worker = new Worker(script, { workerData: data });
        workers.push(worker);
        worker.on('message', (reply: WorkerReply) => {
          outstanding--;
          outcomes.push(...reply.outcomes);
          liveTreesByWorker.set(worker, reply.liveTrees);
          mergeParsers(parsers, reply.parsers);
          feed(worker);
        });
        worker.on('error', reject);
        worker.on('exit', (code) => {
          if (code !== 0) reject(new Error(`a parse worker exited with code ${code}`));
        });
        // Two batches ahead: the worker starts the second while its answer to the first is on its way back.
        feed(worker);
        feed(worker);
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  let liveTrees = 0;
  for (const n of liveTreesByWorker.values()) liveTrees += n;
  return { outcomes, liveTrees, parsers };
}

function mergeParsers(into: ParsersUsed, from: ParsersUsed): void {
  for (const [language, kind] of Object.entries(from.byLanguage) as Array<[LanguageId, 'native' | 'wasm']>) {
    if (into.byLanguage[language] !== 'wasm') into.byLanguage[language] = kind;
  }
  Object.assign(into.fallbacks, from.fallbacks);
}

interface LanguageQueue {
  batches: ParseJob[][];
  /** Bytes in the batches not handed out yet. */
  remainingBytes: number;
}

/** Per language: batches of up to batchMaxFiles files / batchMaxBytes, largest files first. */
function makeBatchQueues(jobs: ParseJob[]): Map<LanguageId, LanguageQueue> {
  const queues = new Map<LanguageId, LanguageQueue>();
  const sorted = [...jobs].sort((a, b) => b.sizeBytes - a.sizeBytes);
  const open = new Map<LanguageId, { jobs: ParseJob[]; bytes: number }>();
  for (const job of sorted) {
    let queue = queues.get(job.language);
    if (!queue) queues.set(job.language, (queue = { batches: [], remainingBytes: 0 }));
    queue.remainingBytes += job.sizeBytes;
    const current = open.get(job.language);
    if (current && current.jobs.length < batchMaxFiles && current.bytes + job.sizeBytes <= batchMaxBytes) {
      current.jobs.push(job);
      current.bytes += job.sizeBytes;
    } else {
      const fresh = { jobs: [job], bytes: job.sizeBytes };
      open.set(job.language, fresh);
      queue.batches.push(fresh.jobs);
    }
  }
  return queues;
}

/**
 * The next batch for a worker, from the language with most work left among, in this order: the languages it
 * has loaded, those no worker has loaded yet, any.
 */
function nextBatch(
  queues: Map<LanguageId, LanguageQueue>,
  loaded: Set<LanguageId>,
  loadedAnywhere: Set<LanguageId>,
): ParseJob[] | undefined {
  const tiers: Array<(language: LanguageId) => boolean> = [
    (language) => loaded.has(language),
    (language) => !loadedAnywhere.has(language),
    () => true,
  ];
  let best: [LanguageId, LanguageQueue] | undefined;
  for (const eligible of tiers) {
    for (const [language, queue] of queues) {
      if (queue.batches.length === 0 || !eligible(language)) continue;
      if (!best || queue.remainingBytes > best[1].remainingBytes) best = [language, queue];
    }
    if (best) break;
  }
  if (!best) return undefined;
  const [language, queue] = best;
  const batch = queue.batches.shift()!;
  for (const job of batch) queue.remainingBytes -= job.sizeBytes;
  loaded.add(language);
  loadedAnywhere.add(language);
  return batch;
}
