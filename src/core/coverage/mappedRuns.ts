// Carries what V8 ran in generated code back to the original sources, before the index is asked for their
// definitions: a script with a source map (reported by the hook for code transformed in memory, or named at the
// end of a compiled file on disk) becomes one run per workspace source of its map, in original lines and
// columns; the generated file itself is then not recorded (it is derived: a change reaches it through its
// source). A script with no usable map stays as it ran, with why (selection says so when it falls back).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  lineStartsOf,
  loadSourceMap,
  originalCandidates,
  originalSpan,
  sourceMappingComment,
  type LoadedSourceMap,
} from './sourceMaps';
import { workspaceRelative, type V8FileRun } from './v8';

/** One original source as the generated code that maps to it ran (merged over generated files and processes). */
export interface MappedRun {
  /** The generated files whose maps point here. */
  from: string[];
  /** Per function that ran: the original [line, column] (0-based) of its first mapped segments, in order. */
  functions: Array<Array<[number, number]>>;
  /**
   * Per process: original ranges [start line, start column, end line, end column, count]; a top-level range
   * (the module's load) covers the whole source (end line -1).
   */
  processes: Array<Array<[number, number, number, number, number]>>;
  /** The source text the map embeds (sourcesContent), when it does: what the generated code was made from. */
  embedded?: string;
}

export interface SourceMapping {
  /** The V8 runs that stay as they ran (no map, or a map naming no workspace file), `unmappedBecause` set. */
  v8: Map<string, V8FileRun & { unmappedBecause?: string }>;
  /** Workspace source → what the generated code mapped to it ran. */
  mapped: Map<string, MappedRun>;
}

export async function mapGeneratedRuns(
  runs: ReadonlyMap<string, V8FileRun>,
  workspaceDir: string,
): Promise<SourceMapping> {
  const v8 = new Map<string, V8FileRun & { unmappedBecause?: string }>();
  const mapped = new Map<string, MappedRun>();
  for (const [rel, run] of runs) {
    const found = await mapOf(rel, run, workspaceDir);
    if ('problem' in found) {
      v8.set(rel, found.problem === undefined ? run : { ...run, unmappedBecause: found.problem });
      continue;
    }
    const { loaded, lineStarts } = found;
    const sources = loaded.sourceFiles.map((f) =>
      f === null ? undefined : workspaceRelative(f, workspaceDir),
    );
    if (!sources.some((s) => s !== undefined)) {
      v8.set(rel, { ...run, unmappedBecause: 'has a source map that names no workspace file' });
      continue;
    }
    const entries = sources.map((source, i) => {
      if (source === undefined) return undefined;
      const entry = mapped.get(source) ?? { from: [], functions: [], processes: [] };
      if (!entry.from.includes(rel)) entry.from.push(rel);
      const content = loaded.contents[i];
      if (content !== null && content !== undefined && entry.embedded === undefined) entry.embedded = content;
      mapped.set(source, entry);
      return entry;
    });
    const allRanges = run.processes.flat();
    for (const [start, end] of run.executedRanges) {
      const nested = allRanges
        .filter((r) => r.startOffset > start && r.endOffset <= end)
        .map((r) => [r.startOffset, r.endOffset] as const);
      const candidates = originalCandidates(loaded, lineStarts, start, end, nested);
      const source = candidates[0]?.[0];
      const entry = source === undefined ? undefined : entries[source];
      if (entry === undefined) continue;
      entry.functions.push(candidates.filter((c) => c[0] === source).map((c) => [c[1], c[2]]));
    }
    for (const ranges of run.processes) {
      const perSource = entries.map(() => [] as Array<[number, number, number, number, number]>);
      for (const r of ranges) {
        if (r.startOffset === 0 && r.endOffset >= run.sourceLength) {
          for (const list of perSource) list.push([0, 0, -1, 0, r.count]);
          continue;
        }
        const span = originalSpan(loaded, lineStarts, r.startOffset, r.endOffset);
        if (span === undefined) continue;
        perSource[span.source]?.push([span.from[0], span.from[1], span.to[0], span.to[1] + 1, r.count]);
      }
      perSource.forEach((list, i) => entries[i]?.processes.push(list));
    }
  }
  return { v8, mapped };
}

type Found =
  | { loaded: LoadedSourceMap; lineStarts: number[] }
  /** problem undefined: an ordinary file that ran as written and names no map (nothing to say). */
  | { problem: string | undefined };

async function mapOf(rel: string, run: V8FileRun, workspaceDir: string): Promise<Found> {
  const file = path.join(workspaceDir, rel);
  if (run.mixed) return { problem: 'ran as different code in different processes' };
  if (run.sourceMap !== undefined) {
    if (run.sourceMap.lineLengths === undefined)
      return { problem: 'was transformed in memory, and its executed source could not be read' };
    const result = await loadSourceMap(file, run.sourceMap.url);
    if ('problem' in result) return { problem: result.problem };
    return { loaded: result.loaded, lineStarts: lineStartsOf(run.sourceMap.lineLengths) };
  }
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return { problem: undefined };
  }
  const shift = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (run.sourceLength !== text.length - shift) return { problem: noMapReported(run) };
  const comment = sourceMappingComment(text);
  if (comment === undefined) return { problem: 'has no source map' };
  const result = await loadSourceMap(file, comment);
  if ('problem' in result) return { problem: result.problem };
  return { loaded: result.loaded, lineStarts: lineStartsOf(text.slice(shift)) };
}

/** Why a file transformed in memory has no map, with the runner that ran it (so the reader knows where to look). */
function noMapReported(run: V8FileRun): string {
  const under = run.runner !== undefined ? ` by ${run.runner}` : '';
  const cause =
    run.mapMissing === 'none'
      ? 'the code it ran names none'
      : run.mapMissing === 'ended'
        ? 'its process ended before the debugger reported it'
        : 'none, or its process ended first';
  return `was transformed in memory${under}, and no source map was reported for it (${cause})`;
}
