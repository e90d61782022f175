// Benchmark of the workspace index (`npm run bench -- index`). One run measures, each in its own child process
// (so one measurement's memory does not inflate another's RSS), on the same corpus files:
//   - Weave cold index (web-tree-sitter 0.27 in 2 worker threads: read, hash, parse, query, resolve imports,
//     write the cache) — MB/s and peak RSS;
//   - the yardstick: the native `tree-sitter` 0.25.1 Node binding parsing the same files in one thread, in a
//     plain loop (trees are freed only when V8 collects their wrappers) and in a loop that yields and forces a
//     GC after every ~2 MB parsed (both are reported; ARCHITECTURE.md "Notes");
//   - Weave warm index (nothing changed: served from the on-disk cache), in a fresh process each time;
//   - incremental re-parse after one-character edits in a 2 MB TypeScript file (tree compared with a fresh parse);
//   - what the first `weave check` and the first `weave affected` index with a small spec set (indexFirstCheck.ts),
//     against the native binding's full parse of the corpus.
// The corpus (≥ 40 MB, ≥ 2,000 files, each ≤ 2 MB so Weave's default size cap keeps them all) is copied from
// installed packages into bench/work/corpus/: TypeScript's lib, the machine's Python standard library, and the
// JavaScript sources of eslint, @typescript-eslint, openai and zod. The native binding is a bench-only dependency
// (bench/package.json), installed on first use.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createIndexer, documentEditFor } from '../src/core/index';
import { measureFirstCheck, type FirstCheckResult } from './indexFirstCheck';

const root = path.resolve(__dirname, '../..');
const benchDir = path.join(root, 'bench');
const workDir = path.join(benchDir, 'work');
const corpusDir = path.join(workDir, 'corpus');
const fileListPath = path.join(workDir, 'indexed-files.json');
const maxCorpusFileBytes = 2 * 1024 * 1024;
const workers = 2;
const warmRuns = 5;
const incrementalEdits = 21;
const gcEveryBytes = 2 * 1024 * 1024;

interface CorpusSource {
  name: string;
  dir: string;
  extensions: string[];
  exclude?: RegExp;
}

function corpusSources(): CorpusSource[] {
  const stdlib = execFileSync('python3', ['-c', 'import sysconfig;print(sysconfig.get_paths()["stdlib"])'], {
    encoding: 'utf8',
  }).trim();
  return [
    {
      name: 'typescript-lib',
      dir: path.join(root, 'node_modules/typescript/lib'),
      extensions: ['.ts', '.js'],
    },
    { name: 'python-stdlib', dir: stdlib, extensions: ['.py'], exclude: /(^|\/)site-packages\// },
    { name: 'eslint', dir: path.join(root, 'node_modules/eslint/lib'), extensions: ['.js'] },
    {
      name: 'typescript-eslint',
      dir: path.join(root, 'node_modules/@typescript-eslint'),
      extensions: ['.js'],
    },
    { name: 'openai', dir: path.join(root, 'node_modules/openai'), extensions: ['.js'] },
    { name: 'zod', dir: path.join(root, 'node_modules/zod'), extensions: ['.js'] },
  ];
}

function assembleCorpus(): { files: number; bytes: number } {
  const marker = path.join(corpusDir, '.corpus.json');
  if (fs.existsSync(marker))
    return JSON.parse(fs.readFileSync(marker, 'utf8')) as { files: number; bytes: number };
  fs.rmSync(corpusDir, { recursive: true, force: true });
  let files = 0;
  let bytes = 0;
  for (const source of corpusSources()) {
    for (const rel of fs.readdirSync(source.dir, { recursive: true }).map(String)) {
      if (!source.extensions.some((e) => rel.endsWith(e)) || source.exclude?.test(rel)) continue;
      if (rel.split(path.sep).includes('node_modules')) continue;
      const from = path.join(source.dir, rel);
      const stat = fs.lstatSync(from);
      if (!stat.isFile() || stat.size > maxCorpusFileBytes) continue;
      const to = path.join(corpusDir, source.name, rel);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(from, to);
      files++;
      bytes += stat.size;
    }
  }
  fs.writeFileSync(marker, JSON.stringify({ files, bytes }));
  return { files, bytes };
}

/** The bench-only native binding, installed into bench/node_modules on first use (compiles in ~40 s). */
function ensureNativeBinding(): boolean {
  if (fs.existsSync(path.join(benchDir, 'node_modules/tree-sitter/package.json'))) return true;
  console.log('installing the native tree-sitter binding into bench/node_modules (node-gyp, ~1-2 min)…');
  const r = spawnSync('npm', ['install', '--legacy-peer-deps', '--no-audit', '--no-fund'], {
    cwd: benchDir,
    stdio: 'inherit',
  });
  return r.status === 0;
}

// ---- child measurements -------------------------------------------------------------------------------

/** Wall time and the process's CPU time (all threads): under load, CPU time is the steadier figure. */
interface Timed {
  ms: number;
  cpuMs: number;
}

interface ColdResult extends Timed {
  files: number;
  bytes: number;
  symbols: number;
  skipped: number;
  maxRssMb: number;
  liveTrees: number;
}

async function measureCold(): Promise<ColdResult> {
  const cacheDir = path.join(workDir, 'cache');
  fs.rmSync(cacheDir, { recursive: true, force: true });
  const indexer = createIndexer({ workspaceDir: corpusDir, cacheDir, workers });
  const clock = startClock();
  const index = await indexer.indexWorkspace();
  const time = clock();
  fs.writeFileSync(fileListPath, JSON.stringify([...index.files.keys()]));
  const result: ColdResult = {
    ...time,
    files: index.stats.files,
    bytes: index.stats.bytes,
    symbols: index.stats.symbols,
    skipped: index.skipped.filter((s) => s.reason !== 'unknown-language').length,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    liveTrees: indexer.liveTreeCount(),
  };
  indexer.dispose();
  return result;
}

interface WarmResult extends Timed {
  cacheHits: number;
  files: number;
  /** Then decoding every file's symbols (they are decoded lazily) with a workspace-wide findSymbol. */
  materializeMs: number;
}

async function measureWarm(): Promise<WarmResult> {
  const indexer = createIndexer({ workspaceDir: corpusDir, cacheDir: path.join(workDir, 'cache'), workers });
  const clock = startClock();
  const index = await indexer.indexWorkspace();
  const time = clock();
  const t0 = performance.now();
  index.findSymbol('no-such-symbol');
  const materializeMs = performance.now() - t0;
  indexer.dispose();
  return { ...time, cacheHits: index.stats.cacheHits, files: index.stats.files, materializeMs };
}

function startClock(): () => Timed {
  const started = performance.now();
  const cpu = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(cpu);
    return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
  };
}

interface NativeParser {
  setLanguage(language: unknown): void;
  parse(text: string): unknown;
}

interface NativeResult extends Timed {
  bytes: number;
  maxRssMb: number;
}

async function measureNative(mode: 'plain' | 'gc'): Promise<NativeResult> {
  const requireBench = createRequire(path.join(benchDir, 'package.json'));
  const Parser = requireBench('tree-sitter') as new () => NativeParser;
  const languages: Record<string, unknown> = {
    '.js': requireBench('tree-sitter-javascript'),
    '.ts': (requireBench('tree-sitter-typescript') as { typescript: unknown }).typescript,
    '.py': requireBench('tree-sitter-python'),
  };
  const files = JSON.parse(fs.readFileSync(fileListPath, 'utf8')) as string[];
  const gc = (globalThis as { gc?: () => void }).gc;
  if (mode === 'gc' && !gc) throw new Error('native-gc needs node --expose-gc');
  const parser = new Parser();
  let bytes = 0;
  let collectedAt = 0;
  const clock = startClock();
  for (const file of files) {
    const language = languages[path.extname(file)];
    if (language === undefined) throw new Error(`no native grammar for ${file}`);
    const content = fs.readFileSync(path.join(corpusDir, file));
    bytes += content.length;
    parser.setLanguage(language);
    parser.parse(content.toString('utf8'));
    // Yield and collect after every ~2 MB parsed: the binding frees a tree only when V8 collects its wrapper.
    if (mode === 'gc' && bytes - collectedAt >= gcEveryBytes) {
      collectedAt = bytes;
      await new Promise((resolve) => setImmediate(resolve));
      gc!();
    }
  }
  return { ...clock(), bytes, maxRssMb: process.resourceUsage().maxRSS / 1024 };
}

interface IncrementalResult {
  fileBytes: number;
  coldParseMs: number;
  editMs: number[];
  editCpuMs: number[];
  indexMs: number[];
  equalTrees: number;
  edits: number;
}

async function measureIncremental(): Promise<IncrementalResult> {
  const lib = path.join(root, 'node_modules/typescript/lib');
  // lib.dom.d.ts + lib.es5.d.ts: 2.0 MiB of valid TypeScript.
  let text = ['lib.dom.d.ts', 'lib.es5.d.ts']
    .map((f) => fs.readFileSync(path.join(lib, f), 'utf8'))
    .join('\n');
  const file = 'incremental/big.d.ts';
  const indexer = createIndexer({ workspaceDir: corpusDir, useCache: false, workers: 0 });
  const fresh = createIndexer({ workspaceDir: corpusDir, useCache: false, workers: 0 });
  const first = await indexer.parseDocument(file, text);
  if (!first) throw new Error('no grammar for the incremental file');
  const result: IncrementalResult = {
    fileBytes: Buffer.byteLength(text),
    coldParseMs: first.parseMs,
    editMs: [],
    editCpuMs: [],
    indexMs: [],
    equalTrees: 0,
    edits: incrementalEdits,
  };
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let i = 0; i < incrementalEdits; i++) {
    // One character inserted right after an identifier character somewhere in the file.
    let at = Math.floor(random() * text.length);
    while (at < text.length && !/[A-Za-z]/.test(text[at]!)) at++;
    const offset = at + 1;
    const edit = documentEditFor(text, offset, 0, 'x');
    text = text.slice(0, offset) + 'x' + text.slice(offset);
    const cpu = process.cpuUsage();
    const doc = await indexer.parseDocument(file, text, edit);
    const used = process.cpuUsage(cpu);
    result.editCpuMs.push((used.user + used.system) / 1000);
    const scratch = await fresh.parseDocument(file, text);
    if (!doc || !scratch) throw new Error('parse failed');
    result.editMs.push(doc.parseMs);
    const t0 = performance.now();
    doc.index();
    result.indexMs.push(performance.now() - t0);
    if (doc.syntaxTree() === scratch.syntaxTree()) result.equalTrees++;
  }
  indexer.dispose();
  fresh.dispose();
  return result;
}

// ---- parent: orchestrate and print -------------------------------------------------------------------------

function child<T>(measure: string, nodeFlags: string[] = []): T {
  const r = spawnSync(process.execPath, [...nodeFlags, __filename, '--measure', measure], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`${measure} failed (exit ${r.status ?? r.signal}):\n${r.stderr}`);
  const last = r.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as T;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0
    ? NaN
    : s.length % 2 === 1
      ? s[(s.length - 1) / 2]!
      : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const mb = (bytes: number) => bytes / 1024 / 1024;

function printTable(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(rows[0]!));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows.slice(1)) console.log(line(r));
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
  const nativeAvailable = ensureNativeBinding();

  const loadBefore = os.loadavg()[0]!;
  const cold = child<ColdResult>('cold');
  const warm = Array.from({ length: warmRuns }, () => child<WarmResult>('warm'));
  const plain = nativeAvailable ? child<NativeResult>('native-plain') : undefined;
  const gced = nativeAvailable ? child<NativeResult>('native-gc', ['--expose-gc']) : undefined;
  const inc = child<IncrementalResult>('incremental');
  const first = child<FirstCheckResult>('first-check');
  const loadAfter = os.loadavg()[0]!;

  const rate = (bytes: number, ms: number) => mb(bytes) / (ms / 1000);
  const coldMbps = rate(cold.bytes, cold.ms);
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
  printTable([
    ['measure', 'Weave (web-tree-sitter 0.27)', 'native plain loop', 'native yield + GC', 'goal', 'result'],
    [
      `cold index, ${workers} workers vs native 1 thread (MB/s)`,
      throughput(cold),
      plain ? throughput(plain) : 'unavailable',
      gced ? throughput(gced) : 'unavailable',
      '≥ 2× native',
      `${(coldMbps / plainMbps).toFixed(2)}× plain, ${(coldMbps / gcMbps).toFixed(2)}× GC: ${verdict(coldMbps >= 2 * plainMbps)} vs plain, ${verdict(coldMbps >= 2 * gcMbps)} vs GC`,
    ],
    [
      'peak RSS (MB)',
      cold.maxRssMb.toFixed(0),
      plain ? plain.maxRssMb.toFixed(0) : '?',
      gced ? gced.maxRssMb.toFixed(0) : '?',
      '< 600',
      verdict(cold.maxRssMb < 600),
    ],
    [
      `warm index, nothing changed (ms, median of ${warmRuns} processes)`,
      `${warmMedian.toFixed(0)} (runs: ${warm.map((w) => w.ms.toFixed(0)).join(', ')}; CPU ${median(warm.map((w) => w.cpuMs)).toFixed(0)} ms; ` +
        `${warm[0]!.cacheHits}/${warm[0]!.files} from cache; +${median(warm.map((w) => w.materializeMs)).toFixed(0)} ms to decode all symbols)`,
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
    ],
  ]);
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
  return inc.equalTrees === inc.edits && cold.liveTrees === 0 ? 0 : 1;
}

async function runMeasure(measure: string): Promise<unknown> {
  switch (measure) {
    case 'cold':
      return measureCold();
    case 'warm':
      return measureWarm();
    case 'native-plain':
      return measureNative('plain');
    case 'native-gc':
      return measureNative('gc');
    case 'incremental':
      return measureIncremental();
    case 'first-check':
      return measureFirstCheck(corpusDir, path.join(workDir, 'first-check-cache'));
    default:
      throw new Error(`unknown measure ${measure}`);
  }
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
