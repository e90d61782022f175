// Reads V8 coverage files in NODE_V8_COVERAGE's format, as Weave's hook writes them (nodeTracer.ts: one per Node
// process or worker thread, function ranges with 0/1 counts), and keeps, per workspace file, the functions that
// ran and the ranges with their counts. Scripts outside the workspace, under
// node_modules or Weave's own .weave/ are dropped; so are scripts that are not files (node: internals, eval).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface V8Range {
  startOffset: number;
  endOffset: number;
  count: number;
}

/** One workspace file as the Node processes of one spec ran it (merged over processes). */
export interface V8FileRun {
  /** Start offsets (UTF-16, in the executed source) of the functions that ran, top level excluded. */
  executedStarts: number[];
  /** The block ranges of each process (each process's own innermost range decides a line, see lineHits). */
  processes: V8Range[][];
  /** Length of the executed source (end of the top-level function): differs from the file when transpiled. */
  sourceLength: number;
  /** [start, end) of each function that ran, in the executed source (top level excluded). */
  executedRanges: Array<[number, number]>;
  /**
   * The source map the executed source named, when it was not the file on disk (the hook reports it, with the
   * executed source's line lengths); a file on disk names its own at its end (sourceMaps.ts).
   */
  sourceMap?: { url: string; lineLengths?: number[] };
  /** Processes ran different code under this name (other lengths or maps): offsets cannot be merged. */
  mixed?: true;
  /** The test runner whose process ran it transformed ("vitest 4.1.12"), when the hook could tell. */
  runner?: string;
  /**
   * Why a transformed script has no map, as its process told: its code named none (`none`), or the process
   * ended before it could report it (`ended`).
   */
  mapMissing?: 'none' | 'ended';
}

interface V8Script {
  url: string;
  functions: Array<{ functionName: string; ranges: V8Range[] }>;
}

/** NODE_V8_COVERAGE's `source-map-cache` shape (url → map URL and the executed source's line lengths). */
type SourceMapCache = Record<string, { url?: unknown; lineLengths?: unknown }>;

/** Workspace-relative path → what ran, from every coverage file in `dir`. */
export async function readV8Coverage(dir: string, workspaceDir: string): Promise<Map<string, V8FileRun>> {
  const out = new Map<string, V8FileRun>();
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
  for (const name of names) {
    const file = await readCoverageFile(dir, name, names);
    if (file === undefined) continue;
    for (const script of file.scripts) {
      const rel = workspaceFileOf(script.url, workspaceDir);
      if (rel === undefined || !Array.isArray(script.functions)) continue;
      const run = addScriptRun(out.get(rel), script, sourceMapOf(file.maps[script.url]));
      if (file.runner !== undefined && run.runner === undefined) run.runner = file.runner;
      const missing = file.missing.get(script.url);
      if (missing !== undefined && run.sourceMap === undefined) run.mapMissing = missing;
      out.set(rel, run);
    }
  }
  return out;
}

/** One process's coverage file and its scripts' source maps; undefined when half-written or not coverage. */
async function readCoverageFile(
  dir: string,
  name: string,
  names: readonly string[],
): Promise<
  | { scripts: V8Script[]; maps: SourceMapCache; runner?: string; missing: Map<string, 'none' | 'ended'> }
  | undefined
> {
  try {
    const parsed = JSON.parse(await fs.readFile(path.join(dir, name), 'utf8')) as {
      result?: unknown;
      'source-map-cache'?: unknown;
      runner?: unknown;
      pendingMaps?: unknown;
    };
    if (!Array.isArray(parsed.result)) return undefined;
    // The hook writes the maps of code compiled through vm in the coverage file, and the ones the debugger
    // reported next to it, after it.
    const mapsFile = path.join(dir, name.replace(/\.json$/, '.maps.json'));
    const side = names.includes(path.basename(mapsFile)) ? await readMapsFile(mapsFile) : undefined;
    const maps = { ...asCache(side?.['source-map-cache']), ...asCache(parsed['source-map-cache']) };
    // Scripts the hook went to the debugger for: named in the maps file when their code names no map; when
    // that file is missing, the process ended before the debugger reported.
    const missing = new Map<string, 'none' | 'ended'>();
    const strings = (value: unknown): string[] =>
      Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
    for (const url of strings(parsed.pendingMaps)) if (side === undefined) missing.set(url, 'ended');
    for (const url of strings(side?.noMap)) missing.set(url, 'none');
    const runner = typeof parsed.runner === 'string' && parsed.runner !== '' ? parsed.runner : undefined;
    return {
      scripts: parsed.result as V8Script[],
      maps,
      missing,
      ...(runner !== undefined ? { runner } : {}),
    };
  } catch {
    return undefined; // a process killed while writing leaves half a file: it says nothing reliable
  }
}

function asCache(value: unknown): SourceMapCache {
  return typeof value === 'object' && value !== null ? (value as SourceMapCache) : {};
}

/** The map V8 reported for a script, when its shape is the one Node writes. */
function sourceMapOf(reported: SourceMapCache[string] | undefined): V8FileRun['sourceMap'] {
  if (typeof reported?.url !== 'string') return undefined;
  const { lineLengths } = reported;
  return {
    url: reported.url,
    ...(Array.isArray(lineLengths) && lineLengths.every((n) => typeof n === 'number')
      ? { lineLengths: lineLengths as number[] }
      : {}),
  };
}

/** `known` (what other processes ran of the file) with one more process's run of `script` added. */
function addScriptRun(
  known: V8FileRun | undefined,
  script: V8Script,
  map: V8FileRun['sourceMap'],
): V8FileRun {
  const entry: V8FileRun = known ?? {
    executedStarts: [],
    executedRanges: [],
    processes: [],
    sourceLength: 0,
  };
  const ranges: V8Range[] = [];
  let length = 0;
  for (const fn of script.functions) {
    const first = fn.ranges[0];
    if (first === undefined) continue;
    if (first.startOffset === 0 && fn.functionName === '') {
      length = Math.max(length, first.endOffset);
    } else if (first.count > 0) {
      entry.executedStarts.push(first.startOffset);
      entry.executedRanges.push([first.startOffset, first.endOffset]);
    }
    ranges.push(...fn.ranges);
  }
  // One process's take without the map another reported for code of the same length (its debugger maps were
  // lost) is the same code, not other code.
  if (
    known !== undefined &&
    (known.sourceLength !== length ||
      (known.sourceMap !== undefined && map !== undefined && known.sourceMap.url !== map.url))
  )
    entry.mixed = true;
  entry.sourceLength = Math.max(entry.sourceLength, length);
  if (map !== undefined && entry.sourceMap === undefined) entry.sourceMap = map;
  entry.processes.push(ranges);
  return entry;
}

/** A maps file; undefined when it is half-written (its process was killed). */
async function readMapsFile(
  file: string,
): Promise<{ 'source-map-cache'?: unknown; noMap?: unknown } | undefined> {
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** `file:///ws/src/a.js` → `src/a.js`, or undefined when it is not a workspace source file. */
export function workspaceFileOf(url: string, workspaceDir: string): string | undefined {
  if (!url.startsWith('file://')) return undefined;
  let file: string;
  try {
    file = fileURLToPath(url);
  } catch {
    return undefined;
  }
  return workspaceRelative(file, workspaceDir);
}

/** Workspace-relative '/' path of an absolute file, or undefined outside it, in node_modules or in .weave/. */
export function workspaceRelative(file: string, workspaceDir: string): string | undefined {
  const rel = path.relative(workspaceDir, file);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const slashed = rel.split(path.sep).join('/');
  if (slashed.startsWith('.weave/') || slashed.split('/').includes('node_modules')) return undefined;
  return slashed;
}

/**
 * Line hits from block ranges: in one process a line counts as the innermost range that contains its first
 * non-blank character (as c8 and v8-to-istanbul do); a line is hit when any process hit it. Returns
 * [first, last, hit] runs, 1-based, blank lines skipped.
 */
export function lineHits(
  text: string,
  processes: ReadonlyArray<readonly V8Range[]>,
): Array<[number, number, 0 | 1]> {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const firstNonBlank = lineStarts.map((start, i) => {
    const end = lineStarts[i + 1] ?? text.length;
    for (let j = start; j < end; j++) if (!/\s/.test(text[j]!)) return j;
    return -1;
  });
  const known = new Array<boolean>(lineStarts.length).fill(false);
  const hit = new Array<boolean>(lineStarts.length).fill(false);
  for (const ranges of processes) {
    const counts = new Array<number>(lineStarts.length).fill(-1);
    // Outer ranges first, inner ones overwrite.
    const ordered = [...ranges].sort((a, b) => b.endOffset - b.startOffset - (a.endOffset - a.startOffset));
    for (const r of ordered) {
      for (let line = upperBound(lineStarts, r.startOffset) - 1; line < lineStarts.length; line++) {
        if ((lineStarts[line] ?? Infinity) >= r.endOffset) break;
        const at = firstNonBlank[line] ?? -1;
        if (at >= r.startOffset && at < r.endOffset) counts[line] = r.count;
      }
    }
    counts.forEach((count, i) => {
      if (count < 0) return;
      known[i] = true;
      if (count > 0) hit[i] = true;
    });
  }
  const runs: Array<[number, number, 0 | 1]> = [];
  for (let i = 0; i < lineStarts.length; i++) {
    if (!known[i] || (firstNonBlank[i] ?? -1) < 0) continue;
    const h: 0 | 1 = hit[i] ? 1 : 0;
    const last = runs[runs.length - 1];
    if (last && last[2] === h && last[1] === i) last[1] = i + 1;
    else runs.push([i + 1, i + 1, h]);
  }
  return runs;
}

function upperBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? 0) <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
