// The index bench's report (index.bench.ts): Weave's figures beside the native binding's from the same run, each
// against its goal, as two tables (the index measures; the first check and first affected).
import os from 'node:os';
import type { CeilingResult } from './indexCeiling';
import type { FirstCheckResult } from './indexFirstCheck';
import {
  workers,
  type ColdResult,
  type IncrementalResult,
  type NativeResult,
  type Timed,
  type WarmResult,
} from './indexMeasures';

export interface IndexMeasurements {
  /** The CLI's cold index: parse workers on the native binding (web-tree-sitter where it does not load). */
  cold: ColdResult;
  /** The same with web-tree-sitter in the workers (the extension's parser). */
  coldWasm: ColdResult;
  /** One per warm run, each in a fresh process. */
  warm: WarmResult[];
  /** The native binding's plain loop and its yield + GC loop; undefined when the binding is not installed. */
  plain: NativeResult | undefined;
  gced: NativeResult | undefined;
  /** The same workers doing only read + parse, and read + parse + query; undefined without the binding. */
  ceiling: CeilingResult | undefined;
  ceilingQuery: CeilingResult | undefined;
  inc: IncrementalResult;
  first: FirstCheckResult;
  /** The 1-minute load average before and after the measurements. */
  loadBefore: number;
  loadAfter: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0
    ? NaN
    : s.length % 2 === 1
      ? s[(s.length - 1) / 2]!
      : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
export const mb = (bytes: number) => bytes / 1024 / 1024;

function printTable(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(rows[0]!));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows.slice(1)) console.log(line(r));
}

export function printIndexReport(measurements: IndexMeasurements): void {
  const { cold, coldWasm, warm, plain, gced, inc, first, loadBefore, loadAfter } = measurements;
  const rate = (bytes: number, ms: number) => mb(bytes) / (ms / 1000);
  const coldMbps = rate(cold.bytes, cold.ms);
  const wasmMbps = rate(coldWasm.bytes, coldWasm.ms);
  const plainMbps = plain ? rate(plain.bytes, plain.ms) : NaN;
  const gcMbps = gced ? rate(gced.bytes, gced.ms) : NaN;
  const warmMedian = median(warm.map((w) => w.ms));
  const editMedian = median(inc.editMs);
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const throughput = (r: Timed & { bytes: number }) =>
    `${rate(r.bytes, r.ms).toFixed(1)} (${(r.ms / 1000).toFixed(1)} s; ${rate(r.bytes, r.cpuMs).toFixed(1)} MB per CPU-s)`;
  console.log(
    `machine: ${os.availableParallelism()} cores, load average ${loadBefore.toFixed(1)} before / ${loadAfter.toFixed(1)} after` +
      (loadBefore > os.availableParallelism()
        ? ' — LOADED: wall-clock figures are inflated; compare CPU-s'
        : ''),
  );
  console.log(
    `indexed ${cold.files} files, ${mb(cold.bytes).toFixed(1)} MB, ${cold.symbols} symbols; ` +
      `native parsed ${plain ? `${plain.bytes === cold.bytes ? 'the same' : 'DIFFERENT'} bytes` : '(unavailable)'}`,
  );
  // The goal is against the faster of the native binding's two loops; the WASM column is the extension's parser.
  const nativeBest = Math.max(plainMbps, gcMbps);
  const against = (mbps: number) =>
    `${(mbps / plainMbps).toFixed(2)}× plain, ${(mbps / gcMbps).toFixed(2)}× GC`;
  printTable([
    [
      'measure',
      `Weave CLI (parser: ${cold.parser})`,
      'Weave, web-tree-sitter 0.27',
      'native plain loop',
      'native yield + GC',
      'goal',
      'result',
    ],
    [
      `cold index, ${workers} workers vs native 1 thread (MB/s)`,
      throughput(cold),
      throughput(coldWasm),
      plain ? throughput(plain) : 'unavailable',
      gced ? throughput(gced) : 'unavailable',
      '≥ 1.6× native',
      `CLI ${against(coldMbps)}: ${verdict(coldMbps >= 1.6 * nativeBest)}; WASM ${against(wasmMbps)}`,
    ],
    [
      'peak RSS (MB)',
      cold.maxRssMb.toFixed(0),
      coldWasm.maxRssMb.toFixed(0),
      plain ? plain.maxRssMb.toFixed(0) : '?',
      gced ? gced.maxRssMb.toFixed(0) : '?',
      '< 600',
      verdict(cold.maxRssMb < 600),
    ],
    [
      `warm index, nothing changed (ms, median of ${warm.length} processes)`,
      `${warmMedian.toFixed(0)} (runs: ${warm.map((w) => w.ms.toFixed(0)).join(', ')}; CPU ${median(warm.map((w) => w.cpuMs)).toFixed(0)} ms; ` +
        `${warm[0]!.cacheHits}/${warm[0]!.files} from cache; +${median(warm.map((w) => w.materializeMs)).toFixed(0)} ms to decode all symbols)`,
      '',
      '',
      '',
      '≤ 300',
      verdict(warmMedian <= 300),
    ],
    [
      `incremental re-parse, 1-char edit, ${mb(inc.fileBytes).toFixed(1)} MB file (ms, median of ${inc.edits})`,
      `${editMedian.toFixed(1)} (CPU ${median(inc.editCpuMs).toFixed(1)}; fresh parse ${inc.coldParseMs.toFixed(0)}; trees equal ${inc.equalTrees}/${inc.edits})`,
      '',
      '',
      '',
      '≤ 25, equal trees',
      verdict(editMedian <= 25 && inc.equalTrees === inc.edits),
    ],
    [
      're-extraction of that file after an edit (ms, median; not part of the re-parse)',
      median(inc.indexMs).toFixed(0),
      '',
      '',
      '',
      '',
      '',
    ],
  ]);
  printCeiling(measurements, (mbps) => `${against(mbps)}`, throughput);
  const nativeMs = plain?.ms ?? NaN;
  const nativeCpuMs = plain?.cpuMs ?? NaN;
  const share = (ms: number, cpuMs: number) =>
    `${(ms / 1000).toFixed(2)} s (CPU ${(cpuMs / 1000).toFixed(2)} s) = ${((ms / nativeMs) * 100).toFixed(1)} % of native's wall, ${((cpuMs / nativeCpuMs) * 100).toFixed(1)} % of its CPU`;
  console.log(
    `\nfirst check / first affected with ${first.specs} specs (lazy: only what anchors, coverage and cones need), ` +
      `against the native binding's full parse of all ${cold.files} files (${plain ? `${(plain.ms / 1000).toFixed(1)} s, CPU ${(plain.cpuMs / 1000).toFixed(1)} s` : 'unavailable'}) and Weave's full cold index (${(cold.ms / 1000).toFixed(1)} s):`,
  );
  const firstRow = (what: string, files: number, bytes: number, ms: number, cpuMs: number) => [
    what,
    String(files),
    mb(bytes).toFixed(1),
    share(ms, cpuMs),
    '< native full parse',
    verdict(ms < nativeMs),
  ];
  printTable([
    ['first run', 'files parsed', 'MB', 'time', 'goal', 'result'],
    firstRow(
      'weave check: anchors + covered files (cones as the upper bound)',
      first.checkFiles,
      first.checkBytes,
      first.checkMs,
      first.checkCpuMs,
    ),
    firstRow(
      'weave affected --files (no coverage: every cone)',
      first.affectedFiles,
      first.affectedBytes,
      first.affectedMs,
      first.affectedCpuMs,
    ),
  ]);
  if (cold.liveTrees !== 0) console.log(`LEAK: ${cold.liveTrees} trees alive after the cold index`);
}

/**
 * The cold index beside its ceiling: the same workers doing nothing but read + parse (what any extraction must
 * add to), and read + parse + the extraction query (the floor of query-based extraction).
 */
function printCeiling(
  { cold, ceiling, ceilingQuery }: IndexMeasurements,
  against: (mbps: number) => string,
  throughput: (r: Timed & { bytes: number }) => string,
): void {
  if (!ceiling || !ceilingQuery) return;
  const rate = (r: Timed & { bytes: number }) => mb(r.bytes) / (r.ms / 1000);
  console.log(
    `\nceiling: ${workers} workers on Weave's native host, same run, against the native binding's 1 thread:`,
  );
  printTable([
    ['workers doing', 'MB/s', 'against native 1 thread', 'peak RSS (MB)'],
    ['read + parse only', throughput(ceiling), against(rate(ceiling)), ceiling.maxRssMb.toFixed(0)],
    [
      'read + parse + extraction query (no extraction)',
      throughput(ceilingQuery),
      against(rate(ceilingQuery)),
      ceilingQuery.maxRssMb.toFixed(0),
    ],
    ['Weave cold index (above)', throughput(cold), against(rate(cold)), cold.maxRssMb.toFixed(0)],
  ]);
}
