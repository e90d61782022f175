// Source maps for coverage of code that is not the file it came from: what V8 ran was transformed in memory
// (vitest/vite, ts-node, tsx, babel-jest, esbuild-register: an inline `data:` map the hook reports, see
// nodeTracer.ts) or compiled to a file next to a map (`tsc --sourceMap`: build/index.js + build/index.js.map,
// git-ignored or not). Each executed function is carried back to a position in its original source, where
// collect.ts finds the tree-sitter definition around it. Maps are parsed once per content (cached by hash): a
// run's specs mostly load the same few files.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { decodedMappings, FlattenMap, type TraceMap } from '@jridgewell/trace-mapping';

/** A parsed source map and the workspace-independent facts about it. */
export interface LoadedSourceMap {
  map: TraceMap;
  /** Absolute file path of each source (null: not a file: URL or path). */
  sourceFiles: Array<string | null>;
  /** The source text embedded in the map (sourcesContent), per source. */
  contents: Array<string | null>;
}

/** The `//# sourceMappingURL=` comment that ends a script (the last one: a bundled file may quote others). */
export function sourceMappingComment(text: string): string | undefined {
  const re = /(?:\/\/[#@]|\/\*[#@])\s*sourceMappingURL=([^\s'"*]+)\s*(?:\*\/)?\s*$/;
  // Only the file's tail can hold it: a comment followed by code is not the map of the file.
  const tail = text.slice(Math.max(0, text.lastIndexOf('sourceMappingURL=') - 4));
  return re.exec(tail)?.[1];
}

const CACHE_LIMIT = 64;
const parsed = new Map<string, LoadedSourceMap>();

/**
 * Reads the map `mapUrl` names for the script at `scriptFile` (absolute): a data: URL, or a path/URL relative to
 * the script. Returns why not when it cannot be read or parsed.
 */
export async function loadSourceMap(
  scriptFile: string,
  mapUrl: string,
): Promise<{ loaded: LoadedSourceMap } | { problem: string }> {
  let json: string;
  let mapFile: string;
  if (mapUrl.startsWith('data:')) {
    const comma = mapUrl.indexOf(',');
    if (comma < 0) return { problem: 'its inline source map is not a valid data: URL' };
    const meta = mapUrl.slice(5, comma);
    const body = mapUrl.slice(comma + 1);
    try {
      json = meta.endsWith(';base64')
        ? Buffer.from(body, 'base64').toString('utf8')
        : decodeURIComponent(body);
    } catch {
      return { problem: 'its inline source map cannot be decoded' };
    }
    mapFile = scriptFile;
  } else {
    try {
      mapFile = mapUrl.startsWith('file:')
        ? fileURLToPath(mapUrl)
        : path.resolve(path.dirname(scriptFile), decodeURIComponent(mapUrl));
    } catch {
      return { problem: `its source map ${mapUrl} is not a file` };
    }
    try {
      json = await fs.readFile(mapFile, 'utf8');
    } catch (error) {
      return {
        problem: `its source map ${mapUrl} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      };
    }
  }
  // The same map text always parses to the same thing; its location decides how sources resolve.
  const key = createHash('sha1').update(mapFile).update('\0').update(json).digest('hex');
  const cached = parsed.get(key);
  if (cached) return { loaded: cached };
  let map: TraceMap;
  try {
    map = new FlattenMap(JSON.parse(json) as never, pathToFileURL(mapFile).href);
  } catch (error) {
    return {
      problem: `its source map ${mapUrl.startsWith('data:') ? '(inline)' : mapUrl} is not valid (${firstLine(error)})`,
    };
  }
  const loaded: LoadedSourceMap = {
    map,
    sourceFiles: map.resolvedSources.map((s) => sourceFile(s)),
    contents: map.sources.map((_s, i) => map.sourcesContent?.[i] ?? null),
  };
  if (parsed.size >= CACHE_LIMIT) parsed.delete(parsed.keys().next().value!);
  parsed.set(key, loaded);
  return { loaded };
}

function sourceFile(resolved: string | null): string | null {
  if (resolved === null) return null;
  if (resolved.startsWith('file:')) {
    try {
      return fileURLToPath(resolved);
    } catch {
      return null;
    }
  }
  return path.isAbsolute(resolved) ? resolved : null;
}

/** A position in an original source: index into the map's sources, 0-based line and column. */
export type OriginalPosition = [source: number, line: number, column: number];

/** Line starts (UTF-16 offsets) of the executed source, from its text or from its lines' lengths. */
export function lineStartsOf(textOrLengths: string | readonly number[]): number[] {
  const starts = [0];
  if (typeof textOrLengths === 'string') {
    for (let i = 0; i < textOrLengths.length; i++) if (textOrLengths.charCodeAt(i) === 10) starts.push(i + 1);
  } else {
    for (const length of textOrLengths.slice(0, -1)) starts.push(starts[starts.length - 1]! + length + 1);
  }
  return starts;
}

/** 0-based (line, column) of a UTF-16 offset. */
export function positionAt(lineStarts: readonly number[], offset: number): [number, number] {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return [lo, offset - lineStarts[lo]!];
}

/**
 * Where a function the generated code ran at [start, end) came from: the original positions of its own first
 * mapped segments, in order (at most `limit`), skipping those inside `nested` (the ranges of functions defined in
 * it). The first need not be inside the original definition (a compiler may map `function` of `export function f`
 * to `export`), so the caller takes the first that lands in one.
 */
export function originalCandidates(
  loaded: LoadedSourceMap,
  lineStarts: readonly number[],
  start: number,
  end: number,
  nested: ReadonlyArray<readonly [number, number]> = [],
  limit = 4,
): OriginalPosition[] {
  const lines = decodedMappings(loaded.map);
  const [startLine] = positionAt(lineStarts, start);
  const out: OriginalPosition[] = [];
  for (let line = startLine; line < lines.length && out.length < limit; line++) {
    const lineStart = lineStarts[line];
    if (lineStart === undefined || lineStart >= end) break;
    for (const seg of lines[line] ?? []) {
      const at = lineStart + seg[0];
      if (at < start) continue;
      if (at >= end) break;
      const pos = originalOf(seg);
      if (pos === undefined || nested.some(([s, e]) => at >= s && at < e)) continue;
      out.push(pos);
      if (out.length >= limit) break;
    }
  }
  return out;
}

/**
 * The original span of a generated range [start, end): the positions of the first and last mapped segments
 * inside it, when both are in the same source; undefined otherwise.
 */
export function originalSpan(
  loaded: LoadedSourceMap,
  lineStarts: readonly number[],
  start: number,
  end: number,
): { source: number; from: [number, number]; to: [number, number] } | undefined {
  const lines = decodedMappings(loaded.map);
  const [startLine, startColumn] = positionAt(lineStarts, start);
  const [endLine, endColumn] = positionAt(lineStarts, end);
  let from: OriginalPosition | undefined;
  let to: OriginalPosition | undefined;
  for (let line = startLine; line <= endLine && line < lines.length; line++) {
    for (const seg of lines[line] ?? []) {
      if (line === startLine && seg[0] < startColumn) continue;
      if (line === endLine && seg[0] >= endColumn) break;
      const pos = originalOf(seg);
      if (pos === undefined) continue;
      if (from === undefined) from = pos;
      if (pos[0] === from[0] && (pos[1] > (to?.[1] ?? -1) || (pos[1] === to?.[1] && pos[2] > to[2])))
        to = pos;
    }
  }
  if (from === undefined || to === undefined) return undefined;
  return { source: from[0], from: [from[1], from[2]], to: [to[1], to[2]] };
}

/** A segment's original position, when it has one (a one-field segment maps generated code to nothing). */
function originalOf(seg: readonly number[]): OriginalPosition | undefined {
  return seg.length >= 4 ? [seg[1]!, seg[2]!, seg[3]!] : undefined;
}

/** The one-line change that makes a compiler or runner write source maps, by what the file looks like. */
export function sourceMapHint(file: string): string {
  if (/\.(c|m)?js$/.test(file))
    return 'compile with source maps: tsc `"sourceMap": true` in the compilerOptions of the tsconfig it builds with, esbuild `--sourcemap`, babel `--source-maps`';
  return 'let the transformer emit inline source maps (vitest/vite, ts-node, tsx and babel-jest do by default; check that nothing sets `sourcemap: false`)';
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
