// Benchmark of the workspace index (`npm run bench -- index`). One run measures, each in its own child process
// (so one measurement's memory does not inflate another's RSS), on the same corpus files:
//   - Weave cold index as the CLI runs it (2 worker threads on the native tree-sitter binding: read, hash, parse,
//     query, resolve imports, write the cache) — MB/s and peak RSS — and the same with web-tree-sitter 0.27;
//   - the yardstick: the native `tree-sitter` 0.25.1 Node binding parsing the same files in one thread, in a
//     plain loop (trees are freed only when V8 collects their wrappers) and in a loop that yields and forces a
//     GC after every ~2 MB parsed (both are reported; ARCHITECTURE.md "Notes");
//   - the ceiling: the same worker threads on the same native host doing nothing but read + parse, and read +
//     parse + the extraction query (indexCeiling.ts), so the cold index's ratio has its upper bound beside it;
//   - Weave warm index (nothing changed: served from the on-disk cache), in a fresh process each time;
//   - incremental re-parse after one-character edits in a 2 MB TypeScript file (tree compared with a fresh parse);
//   - what the first `weave check` and the first `weave affected` index with a small spec set (indexFirstCheck.ts),
//     against the native binding's full parse of the corpus.
// The corpus (≥ 40 MB, ≥ 2,000 files, each ≤ 2 MB so Weave's default size cap keeps them all) is copied from
// installed packages into bench/work/corpus/: TypeScript's lib, the machine's Python standard library, and the
// JavaScript sources of eslint, @typescript-eslint, openai and zod. The native binding is the project's optional
// dependency; without it the native rows say why.
// Seams: indexCorpus.ts (corpus and native binding on disk), indexMeasures.ts (what each child measures),
// indexReport.ts (the tables).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CeilingResult } from './indexCeiling';
import { assembleCorpus, corpusDir, nativeBindingProblem, root } from './indexCorpus';
import type { FirstCheckResult } from './indexFirstCheck';
import {
  runMeasure,
  type ColdResult,
  type IncrementalResult,
  type NativeResult,
  type WarmResult,
} from './indexMeasures';
import { mb, printIndexReport } from './indexReport';

const warmRuns = 5;

function child<T>(measure: string, nodeFlags: string[] = []): T {
  const r = spawnSync(process.execPath, [...nodeFlags, __filename, '--measure', measure], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`${measure} failed (exit ${r.status ?? r.signal}):\n${r.stderr}`);
  const last = r.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as T;
}

async function main(): Promise<number> {
  const corpus = assembleCorpus();
  console.log(
    `corpus: ${corpus.files} files, ${mb(corpus.bytes).toFixed(1)} MB in ${path.relative(root, corpusDir)}`,
  );
  // Read everything once so both sides start with the files in the page cache.
  for (const f of fs.readdirSync(corpusDir, { recursive: true }).map(String)) {
    const p = path.join(corpusDir, f);
    if (fs.statSync(p).isFile()) fs.readFileSync(p);
  }
  const nativeProblem = nativeBindingProblem();
  if (nativeProblem !== undefined) console.log(`native binding unavailable: ${nativeProblem}`);
  const nativeAvailable = nativeProblem === undefined;

  const loadBefore = os.loadavg()[0]!;
  const cold = child<ColdResult>('cold');
  const coldWasm = child<ColdResult>('cold-wasm');
  const warm = Array.from({ length: warmRuns }, () => child<WarmResult>('warm'));
  const plain = nativeAvailable ? child<NativeResult>('native-plain') : undefined;
  const gced = nativeAvailable ? child<NativeResult>('native-gc', ['--expose-gc']) : undefined;
  const ceiling = nativeAvailable ? child<CeilingResult>('ceiling') : undefined;
  const ceilingQuery = nativeAvailable ? child<CeilingResult>('ceiling-query') : undefined;
  const inc = child<IncrementalResult>('incremental');
  const first = child<FirstCheckResult>('first-check');
  const loadAfter = os.loadavg()[0]!;

  printIndexReport({
    cold,
    coldWasm,
    warm,
    plain,
    gced,
    ceiling,
    ceilingQuery,
    inc,
    first,
    loadBefore,
    loadAfter,
  });
  if (cold.liveTrees !== 0) console.log(`LEAK: ${cold.liveTrees} trees alive after the cold index`);
  if (coldWasm.liveTrees !== 0)
    console.log(`LEAK: ${coldWasm.liveTrees} trees alive after the WASM cold index`);
  return inc.equalTrees === inc.edits && cold.liveTrees === 0 && coldWasm.liveTrees === 0 ? 0 : 1;
}

const measureIndex = process.argv.indexOf('--measure');
if (measureIndex !== -1) {
  runMeasure(process.argv[measureIndex + 1] ?? '').then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`);
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
} else {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`index bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
