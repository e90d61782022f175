// The index bench's ceiling measures (issue #26): what Weave's cold index could reach on this machine if its
// per-file work cost nothing beyond the parse, measured in the same run as the yardstick. The same number of
// worker threads as the cold index, on the same native host, read and parse every corpus file ('read + parse'),
// or also run the extraction query over each tree ('+ query': the floor of any query-based extraction). Batches
// are pulled as parsePool.ts hands them out: up to 32 files / 256 KB, largest files first.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CeilingWorkerData } from './indexCeilingWorker';

const batchMaxFiles = 32;
const batchMaxBytes = 256 * 1024;

export interface CeilingResult {
  ms: number;
  cpuMs: number;
  bytes: number;
  maxRssMb: number;
}

export async function measureCeiling(
  corpusDir: string,
  files: readonly string[],
  workers: number,
  query: boolean,
): Promise<CeilingResult> {
  const sized = files
    .map((f) => ({ file: path.join(corpusDir, f), size: fs.statSync(path.join(corpusDir, f)).size }))
    .sort((a, b) => b.size - a.size);
  const batches: string[][] = [];
  let open: { files: string[]; bytes: number } | undefined;
  for (const { file, size } of sized) {
    if (!open || open.files.length >= batchMaxFiles || open.bytes + size > batchMaxBytes) {
      open = { files: [], bytes: 0 };
      batches.push(open.files);
    }
    open.files.push(file);
    open.bytes += size;
  }
  const bytes = sized.reduce((n, s) => n + s.size, 0);
  const script = path.join(__dirname, 'indexCeilingWorker.js');
  const started = performance.now();
  const cpu = process.cpuUsage();
  const pool: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      let running = workers;
      const feed = (worker: Worker) => {
        const batch = batches.shift();
        if (batch) worker.postMessage(batch);
        else if (--running === 0) resolve();
      };
      for (let i = 0; i < workers; i++) {
        const data: CeilingWorkerData = { query };
        const worker = new Worker(script, { workerData: data });
        pool.push(worker);
        worker.on('message', () => feed(worker));
        worker.on('error', reject);
        feed(worker);
      }
    });
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
  const used = process.cpuUsage(cpu);
  return {
    ms: performance.now() - started,
    cpuMs: (used.user + used.system) / 1000,
    bytes,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  };
}
