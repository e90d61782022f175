// The shapes of per-spec coverage: what one spec's test executed in the newest run that recorded it, per file
// content. Stored in .weave/cache/coverage/ (see store.ts); read by affected-spec selection, coupling, blame
// and the VS Code coverage profile.

/** Which tracer saw a file: V8's (every Node process) or Weave's Python profiler (sitecustomize). */
export type Tracer = 'v8' | 'python';

/** A function or method definition of one file content, from the tree-sitter index: [qualified name, first line, last line] (0-based). */
export type UnitRow = [name: string, startLine: number, endLine: number];

export interface FileCoverage {
  /** Git blob id of the content the spec ran (`git hash-object`), compared with the base of a change. */
  hash: string;
  tracer: Tracer;
  /** Indices into the file content's unit table of the definitions the spec executed. */
  functions: number[];
  /**
   * The executed source was not the file on disk (a transpiler or bundler rewrote it) or the file has no
   * grammar: functions cannot be mapped, so any change in the file counts as touching what the spec ran.
   */
  wholeFile?: true;
  /** Why functions could not be mapped (with wholeFile): said when selection falls back to the whole file. */
  wholeFileBecause?: string;
  /** The generated files (build output, code transformed in memory) whose source maps led to this file. */
  mappedFrom?: string[];
  /**
   * V8 only, for a file that ran as it is and names no usable source map ("has no source map"): when the file
   * is build output git does not track, selection says why the coverage could not reach the source.
   */
  unmappedBecause?: string;
  /** V8 only: [first line, last line, hit 0|1] runs (1-based) from block coverage, blank lines skipped. */
  lines?: Array<[number, number, 0 | 1]>;
}

export interface SpecCoverage {
  runId: string;
  recordedAt: string;
  /**
   * The workspace's files before the run, as a git tree (untracked ones included): the state this coverage
   * describes. A later full check reuses the entry while no change since this tree reaches what the spec ran.
   */
  snapshot?: string;
  /** Tracers that produced data for this spec (a spec with no V8 data ran no instrumented Node process). */
  tracers: Tracer[];
  /** Workspace-relative path → what the spec executed there. */
  files: Record<string, FileCoverage>;
}

export interface CoverageStore {
  version: 1;
  specs: Record<string, SpecCoverage>;
  /** Blob id → the function/method definitions of that content (shared by every spec that ran it). */
  units: Record<string, UnitRow[]>;
}

/** A function a spec executed, for people: `src/cache.js#LruCache.get`, or `src/cache.js (top level)`. */
export function unitLabel(file: string, units: readonly UnitRow[] | undefined, index: number): string {
  const row = units?.[index];
  return row === undefined ? `${file} (top level)` : `${file}#${row[0]}`;
}

/** What a full check records again and what it keeps (planned by fullCheck/coverageReuse.ts). */
export interface CoveragePlan {
  /** The workspace's files before this run as a git tree, stored with what the run records (none: not git). */
  snapshot?: string;
  /** Specs whose recorded coverage still holds: they run uninstrumented and keep their entries. */
  reuse: ReadonlySet<string>;
  /**
   * Of those, the specs whose every executed file is today's content exactly: their entries move to this run's
   * snapshot (it describes them as exactly as the old one), so that entries do not spread over many snapshots.
   */
  current: ReadonlySet<string>;
  /** Why the specs with recorded coverage record again anyway (a change of unknown impact, no snapshot). */
  recordAgainBecause?: string;
}
