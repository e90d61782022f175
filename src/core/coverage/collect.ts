// Turns what the tracers wrote for one spec into its SpecCoverage: each covered workspace file keyed by its
// blob id, the functions that ran mapped to the file's tree-sitter definitions (V8 functions by offset, or by
// the original position their source map gives (mappedRuns.ts); Python code objects by qualified name and first
// line), and V8's line hits.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { FileIndex, SymbolDef } from '../index';
import { blobHash } from './blobHash';
import { definitionName, readPythonCoverage, type PythonCode } from './python';
import type { FileCoverage, SpecCoverage, Tracer, UnitRow } from './types';
import { lineHits, readV8Coverage, type V8FileRun, type V8Range } from './v8';
import { mapGeneratedRuns, type MappedRun } from './mappedRuns';
import { lineStartsOf } from './sourceMaps';
import type { SpecCoverageDirs } from './instrument';

/** The definitions a function's execution is attributed to: functions and methods (class bodies run on load). */
export function functionUnits(file: FileIndex | undefined): SymbolDef[] {
  return (file?.symbols ?? []).filter((s) => s.kind === 'function' || s.kind === 'method');
}

export function unitRows(units: readonly SymbolDef[]): UnitRow[] {
  return units.map((u) => [u.qualifiedName, u.range.start.line, u.range.end.line]);
}

export interface CollectContext {
  workspaceDir: string;
  /** The tree-sitter index, as it is after the run, of (at least) the files the tracers saw. */
  files: ReadonlyMap<string, FileIndex>;
  /** Filled with the unit table of every content seen. */
  units: Record<string, UnitRow[]>;
  /** The run's snapshot tree (fullCheck/coverageReuse.ts), stored with every entry it records. */
  snapshot?: string;
  /** Each file as read after the run, shared by the specs of the run: most specs load the same files. */
  sources?: Map<string, Promise<RunSource | undefined>>;
}

/** A workspace file as it is after the run, with what every spec's mapping of it needs. */
interface RunSource {
  hash: string;
  text: string;
  units: SymbolDef[];
}

/** What the tracers of one spec wrote, per workspace file, before it is mapped to definitions. */
export interface RawSpecCoverage {
  /** Files V8 ran as they are (or with no usable map: `unmappedBecause`). */
  v8: Map<string, V8FileRun & { unmappedBecause?: string }>;
  /** Original sources of generated code V8 ran, through its source maps. */
  mapped: Map<string, MappedRun>;
  python: Map<string, PythonCode[]>;
}

export async function readSpecCoverage(
  dirs: SpecCoverageDirs,
  workspaceDir: string,
): Promise<RawSpecCoverage> {
  const [runs, python] = await Promise.all([
    readV8Coverage(dirs.v8, workspaceDir),
    readPythonCoverage(dirs.python, workspaceDir),
  ]);
  const { v8, mapped } = await mapGeneratedRuns(runs, workspaceDir);
  return { v8, mapped, python };
}

/** The files a spec's tracers saw: those the index must hold for its functions to be mapped. */
export function coveredFiles(raw: RawSpecCoverage): string[] {
  return [...raw.v8.keys(), ...raw.mapped.keys(), ...raw.python.keys()];
}

export async function collectSpecCoverage(
  { v8, mapped, python }: RawSpecCoverage,
  context: CollectContext,
  runId: string,
): Promise<SpecCoverage | undefined> {
  const tracers: Tracer[] = [];
  if (v8.size > 0 || mapped.size > 0) tracers.push('v8');
  if (python.size > 0) tracers.push('python');
  if (tracers.length === 0) return undefined;
  const files: Record<string, FileCoverage> = {};
  for (const [rel, run] of v8) {
    const covered = await mapFile(rel, context, (text, units) => fromV8(run, text, units), 'v8');
    if (covered) files[rel] = covered;
  }
  for (const [rel, run] of mapped) {
    const covered = await mapFile(rel, context, (text, units) => fromMapped(rel, run, text, units), 'v8');
    if (covered) files[rel] = covered;
  }
  for (const [rel, codes] of python) {
    const mapped = await mapFile(rel, context, (_text, units) => fromPython(codes, units), 'python');
    if (mapped) files[rel] = mapped;
  }
  return {
    runId,
    recordedAt: new Date().toISOString(),
    ...(context.snapshot !== undefined ? { snapshot: context.snapshot } : {}),
    tracers,
    files,
  };
}

type Mapper = (
  text: string,
  units: SymbolDef[],
) => Pick<
  FileCoverage,
  'functions' | 'lines' | 'wholeFile' | 'wholeFileBecause' | 'mappedFrom' | 'unmappedBecause'
> & {
  /** The content the coverage describes, when it is not the file on disk (a map's embedded source). */
  hash?: string;
};

async function mapFile(
  rel: string,
  context: CollectContext,
  map: Mapper,
  tracer: Tracer,
): Promise<FileCoverage | undefined> {
  const sources = (context.sources ??= new Map());
  let pending = sources.get(rel);
  if (pending === undefined) {
    pending = readSource(rel, context);
    sources.set(rel, pending);
  }
  const source = await pending;
  if (source === undefined) return undefined;
  const mapped = map(source.text, source.units);
  const noGrammar = !context.files.has(rel);
  const wholeFile = noGrammar || mapped.wholeFile === true;
  const because = mapped.wholeFileBecause ?? (noGrammar ? 'Weave has no grammar for it' : undefined);
  return {
    hash: mapped.hash ?? source.hash,
    tracer,
    functions: mapped.functions,
    ...(wholeFile ? { wholeFile: true as const } : {}),
    ...(wholeFile && because !== undefined ? { wholeFileBecause: because } : {}),
    ...(mapped.lines ? { lines: mapped.lines } : {}),
    ...(mapped.mappedFrom ? { mappedFrom: mapped.mappedFrom } : {}),
    ...(mapped.unmappedBecause !== undefined ? { unmappedBecause: mapped.unmappedBecause } : {}),
  };
}

async function readSource(rel: string, context: CollectContext): Promise<RunSource | undefined> {
  let content: Buffer;
  try {
    content = await fs.readFile(path.join(context.workspaceDir, rel));
  } catch {
    return undefined; // the test deleted it: nothing to key the coverage by
  }
  const hash = blobHash(content);
  const units = functionUnits(context.files.get(rel));
  context.units[hash] ??= unitRows(units);
  return { hash, text: content.toString('utf8'), units };
}

function fromV8(
  run: V8FileRun & { unmappedBecause?: string },
  text: string,
  units: SymbolDef[],
): ReturnType<Mapper> {
  const unmapped = run.unmappedBecause !== undefined ? { unmappedBecause: run.unmappedBecause } : {};
  // Node strips a byte-order mark before compiling; anything else of another length was rewritten.
  const shift = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (run.mixed || run.sourceLength !== text.length - shift)
    return {
      functions: [],
      wholeFile: true,
      wholeFileBecause: `the code that ran ${run.unmappedBecause ?? 'was not the file as written'}`,
      ...unmapped,
    };
  const source = text.slice(shift);
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const executed = new Set<number>();
  for (const offset of run.executedStarts) {
    let line = 0;
    while (line + 1 < lineStarts.length && (lineStarts[line + 1] ?? Infinity) <= offset) line++;
    const column = offset - (lineStarts[line] ?? 0);
    // tree-sitter parsed the file with its byte-order mark: on the first line its columns are one further.
    const unit = innermostAt(units, line, line === 0 ? column + shift : column);
    if (unit !== undefined) executed.add(unit);
  }
  return {
    functions: [...executed].sort((a, b) => a - b),
    lines: lineHits(source, run.processes),
    ...unmapped,
  };
}

/** Functions and lines of an original source, from the positions its source map gave (mappedRuns.ts). */
function fromMapped(rel: string, run: MappedRun, text: string, units: SymbolDef[]): ReturnType<Mapper> {
  const shift = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const source = text.slice(shift);
  if (run.embedded !== undefined && run.embedded.replace(/^\uFEFF/, '') !== source) {
    // The build is older than the file: its coverage describes the content it was made from.
    return {
      hash: blobHash(Buffer.from(run.embedded, 'utf8')),
      functions: [],
      wholeFile: true,
      wholeFileBecause: `${run.from.join(', ')} was built from other content of ${rel} (its source map embeds it)`,
      mappedFrom: run.from,
    };
  }
  const executed = new Set<number>();
  for (const candidates of run.functions) {
    for (const [line, column] of candidates) {
      // tree-sitter parsed the file with its byte-order mark: on the first line its columns are one further.
      const unit = innermostAt(units, line, line === 0 ? column + shift : column);
      if (unit === undefined) continue;
      executed.add(unit);
      break;
    }
  }
  const lineStarts = lineStartsOf(source);
  const offset = (line: number, column: number): number =>
    line < 0 ? source.length : Math.min(source.length, (lineStarts[line] ?? source.length) + column);
  const processes: V8Range[][] = run.processes.map((ranges) =>
    ranges.map(([l1, c1, l2, c2, count]) => ({
      startOffset: offset(l1, c1),
      endOffset: offset(l2, c2),
      count,
    })),
  );
  return {
    functions: [...executed].sort((a, b) => a - b),
    lines: lineHits(source, processes),
    mappedFrom: run.from,
  };
}

function fromPython(codes: readonly PythonCode[], units: SymbolDef[]): ReturnType<Mapper> {
  const executed = new Set<number>();
  for (const [qualname, firstLine] of codes) {
    const name = definitionName(qualname);
    if (name === '<module>') continue;
    const line = firstLine - 1;
    // co_firstlineno is the first decorator's line; tree-sitter's definition starts at `def`.
    const byName = units
      .map((u, i) => ({ u, i }))
      .filter(({ u }) => u.qualifiedName === name && u.range.start.line >= line)
      .sort((a, b) => a.u.range.start.line - b.u.range.start.line)[0];
    const unit = byName?.i ?? innermostAt(units, line, Number.MAX_SAFE_INTEGER);
    if (unit !== undefined) executed.add(unit);
  }
  return { functions: [...executed].sort((a, b) => a - b) };
}

/** Index of the smallest definition containing (line, column), or undefined at top level. */
function innermostAt(units: readonly SymbolDef[], line: number, column: number): number | undefined {
  let best: number | undefined;
  let bestSpan = Infinity;
  units.forEach((u, i) => {
    const { start, end } = u.range;
    const after = line > start.line || (line === start.line && column >= start.column);
    const before = line < end.line || (line === end.line && column < end.column);
    if (!after || !before) return;
    const span = (end.line - start.line) * 1e6 + (end.column - start.column);
    if (span < bestSpan) {
      bestSpan = span;
      best = i;
    }
  });
  return best;
}
