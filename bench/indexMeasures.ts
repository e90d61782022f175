// The index bench's measurements (index.bench.ts runs each in its own child process, so one measurement's memory
// does not inflate another's RSS, and prints what they return): Weave's cold index as the CLI runs it (parse
// workers on the native binding) and with web-tree-sitter, the warm index, the native binding's single-thread
// parse of the same files (the yardstick), the ceiling (indexCeiling.ts), incremental re-parse after one-character edits, and the first check.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createIndexer, documentEditFor, type ParserPreference } from '../src/core/index';
import { measureCeiling } from './indexCeiling';
import { corpusDir, root, workDir } from './indexCorpus';
import { measureFirstCheck } from './indexFirstCheck';

const fileListPath = path.join(workDir, 'indexed-files.json');
export const workers = 2;
const incrementalEdits = 21;
const gcEveryBytes = 2 * 1024 * 1024;

/** Wall time and the process's CPU time (all threads): under load, CPU time is the steadier figure. */
export interface Timed {
  ms: number;
  cpuMs: number;
}

export interface ColdResult extends Timed {
  files: number;
  bytes: number;
  symbols: number;
  skipped: number;
  maxRssMb: number;
  liveTrees: number;
  /** Which parser the workers used (stats.parser.ran), and any fallback reasons. */
  parser: string;
}

async function measureCold(parser: ParserPreference): Promise<ColdResult> {
  const cacheDir = path.join(workDir, parser === 'native' ? 'cache' : 'cache-wasm');
  fs.rmSync(cacheDir, { recursive: true, force: true });
  const indexer = createIndexer({ workspaceDir: corpusDir, cacheDir, workers, parser });
  const clock = startClock();
  const index = await indexer.indexWorkspace();
  const time = clock();
  if (parser === 'native') fs.writeFileSync(fileListPath, JSON.stringify([...index.files.keys()]));
  const report = index.stats.parser;
  const fallbacks = Object.values(report?.fallbacks ?? {});
  const result: ColdResult = {
    ...time,
    files: index.stats.files,
    bytes: index.stats.bytes,
    symbols: index.stats.symbols,
    skipped: index.skipped.filter((s) => s.reason !== 'unknown-language').length,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    liveTrees: indexer.liveTreeCount(),
    parser: `${report?.ran ?? '?'}${fallbacks.length > 0 ? ` (fallback: ${[...new Set(fallbacks)].join('; ')})` : ''}`,
  };
  indexer.dispose();
  return result;
}

export interface WarmResult extends Timed {
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

export interface NativeResult extends Timed {
  bytes: number;
  maxRssMb: number;
}

async function measureNative(mode: 'plain' | 'gc'): Promise<NativeResult> {
  const requireBench = createRequire(path.join(root, 'package.json'));
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

export interface IncrementalResult {
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

export async function runMeasure(measure: string): Promise<unknown> {
  switch (measure) {
    case 'cold':
      return measureCold('native');
    case 'cold-wasm':
      return measureCold('wasm');
    case 'warm':
      return measureWarm();
    case 'native-plain':
      return measureNative('plain');
    case 'native-gc':
      return measureNative('gc');
    case 'ceiling':
    case 'ceiling-query':
      return measureCeiling(
        corpusDir,
        JSON.parse(fs.readFileSync(fileListPath, 'utf8')) as string[],
        workers,
        measure === 'ceiling-query',
      );
    case 'incremental':
      return measureIncremental();
    case 'first-check':
      return measureFirstCheck(corpusDir, path.join(workDir, 'first-check-cache'));
    default:
      throw new Error(`unknown measure ${measure}`);
  }
}
