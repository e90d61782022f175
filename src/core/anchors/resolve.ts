// Resolves each spec's anchors ("src/cache.js", "src/cache.js#LruCache.get") to file ranges with the
// tree-sitter index, and reports wrong anchors as problems located at the anchor string in .weave/specs.json.
import fs from 'node:fs';
import path from 'node:path';
import type { SpecFile } from '../../shared/specSchema';
import type { FileIndex, LocatedSymbol, Range, SkippedFile, WorkspaceIndex } from '../index';
import { parseAnchor, rankedMatches, type SpecLocations, type SpecProblem } from '../spec';
import { normalizeWorkspacePath } from '../workspacePath';

/** What anchor resolution, affected-spec selection, coupling and blame read from the workspace index. */
export type IndexView = Pick<
  WorkspaceIndex,
  'files' | 'skipped' | 'submodules' | 'findSymbol' | 'enclosingSymbol'
>;

export interface ResolvedAnchor {
  /** The anchor as written in specs.json. */
  anchor: string;
  /** Workspace-relative file, '/'-separated. */
  file: string;
  /** Qualified name of the symbol, when the anchor names one and it resolved. */
  symbol?: string;
  /** The symbol's definition, or the whole file for a file anchor (0-based lines). */
  range: Range;
}

/** The part of the spec loader's SpecLocations that anchors need. */
export type AnchorLocator = Pick<SpecLocations, 'locate'>;

export interface ResolveAnchorsOptions {
  /** Used to tell a file with no grammar (exists on disk) from a missing one, and to size file ranges. */
  workspaceDir?: string;
  locations?: AnchorLocator;
  /** The spec file the problems are reported against (default `.weave/specs.json`). */
  specFilePath?: string;
  /**
   * Workspace files a missing anchor file is compared with for "did you mean" (default: the index's files and
   * skipped files; a partial index passes the whole listing).
   */
  knownFiles?: readonly string[];
}

export interface AnchorResolution {
  resolved: Map<string, ResolvedAnchor[]>;
  problems: SpecProblem[];
}

export function resolveAnchors(
  specFile: SpecFile,
  index: IndexView,
  options: ResolveAnchorsOptions = {},
): AnchorResolution {
  const resolved = new Map<string, ResolvedAnchor[]>();
  const problems: SpecProblem[] = [];
  const skipped = new Map(index.skipped.map((s) => [s.path, s]));
  const knownFiles = (): readonly string[] =>
    options.knownFiles ?? [...index.files.keys(), ...index.skipped.map((s) => s.path)];
  specFile.specs.forEach((spec, specIndex) => {
    const out: ResolvedAnchor[] = [];
    spec.anchors.forEach((anchor, anchorIndex) => {
      const report = (message: string, severity: 'error' | 'warning' = 'error'): void => {
        const jsonPath = ['specs', specIndex, 'anchors', anchorIndex];
        const at = options.locations?.locate(jsonPath);
        problems.push({
          file: options.specFilePath ?? '.weave/specs.json',
          line: at?.line ?? 1,
          column: at?.column ?? 1,
          path: `specs[${specIndex}].anchors[${anchorIndex}]`,
          message,
          severity,
        });
      };
      const result = resolveOne(anchor, index, skipped, options.workspaceDir, knownFiles);
      if ('problem' in result) {
        report(result.problem, result.severity);
        out.push(...result.fallback);
      } else {
        out.push(...result.anchors);
      }
    });
    resolved.set(spec.id, out);
  });
  return { resolved, problems };
}

type OneResult =
  | { anchors: ResolvedAnchor[] }
  | { problem: string; severity: 'error' | 'warning'; fallback: ResolvedAnchor[] };

function resolveOne(
  anchor: string,
  index: IndexView,
  skipped: Map<string, SkippedFile>,
  workspaceDir: string | undefined,
  knownFiles: () => readonly string[],
): OneResult {
  const parsed = parseAnchor(anchor);
  const file = normalizeWorkspacePath(parsed.file);
  const indexed = index.files.get(file);
  if (indexed === undefined) {
    return resolveUnindexed(
      { anchor, file, symbol: parsed.symbol },
      skipped.get(file),
      workspaceDir,
      knownFiles,
    );
  }
  if (parsed.symbol === undefined) {
    return { anchors: [{ anchor, file, range: wholeFileRange(workspaceDir, file, indexed) }] };
  }
  return resolveSymbol({ anchor, file, symbol: parsed.symbol }, index, indexed);
}

interface AnchorParts {
  anchor: string;
  file: string;
  symbol: string | undefined;
}

/** An anchor into a file the index does not hold: missing (an error), or not parsed (the whole file). */
function resolveUnindexed(
  { anchor, file, symbol }: AnchorParts,
  skip: SkippedFile | undefined,
  workspaceDir: string | undefined,
  knownFiles: () => readonly string[],
): OneResult {
  if (skip === undefined && !existsFile(workspaceDir, file)) {
    const near = rankedMatches(file, knownFiles(), '/');
    const hint = near.length > 0 ? ` (did you mean ${near.join(', ')}?)` : '';
    return {
      problem: `anchor file ${file} does not exist in the workspace${hint}`,
      severity: 'error',
      fallback: [],
    };
  }
  const whole = { anchor, file, range: wholeFileRange(workspaceDir, file, undefined) };
  if (symbol === undefined) return { anchors: [whole] };
  const why = skip ? skippedReason(skip) : 'no tree-sitter grammar for this kind of file';
  return {
    problem: `cannot resolve symbol ${symbol} in ${file}: ${why}; the anchor covers the whole file`,
    severity: 'warning',
    fallback: [whole],
  };
}

/** An anchor to a symbol of an indexed file: its definitions, or why there are none or several names. */
function resolveSymbol(
  { anchor, file, symbol }: AnchorParts & { symbol: string },
  index: IndexView,
  indexed: FileIndex,
): OneResult {
  const matches = index.findSymbol(symbol, file);
  if (matches.length === 0) {
    const near = rankedMatches(
      symbol,
      indexed.symbols.map((s) => s.qualifiedName),
      '.',
    );
    const hint =
      near.length > 0
        ? ` (did you mean ${near.join(', ')}?)`
        : indexed.symbols.length > 0
          ? ` (symbols there include ${indexed.symbols
              .slice(0, 5)
              .map((s) => s.qualifiedName)
              .join(', ')})`
          : ' (no symbol is defined there)';
    return { problem: `symbol ${symbol} is not defined in ${file}${hint}`, severity: 'error', fallback: [] };
  }
  const byName = groupByQualifiedName(matches);
  if (byName.length > 1) {
    const list = byName.map(([, defs]) => `${defs[0]!.qualifiedName} (${describeAt(defs[0]!)})`);
    const alternatives = byName.map(([, defs]) => `${defs[0]!.file}#${defs[0]!.qualifiedName}`);
    // Ambiguous, not wrong: the anchor covers every match (selection stays safe) until the author picks one.
    return {
      problem: `\`${symbol}\` matches ${joinAnd(list)}: the anchor covers all of them; write one (${alternatives.join(' or ')})`,
      severity: 'warning',
      fallback: byName.flatMap(([, defs]) => spanned(anchor, defs)),
    };
  }
  // One name, possibly several definitions (TypeScript overloads, a getter/setter pair): the anchor spans them.
  return { anchors: spanned(anchor, byName[0]![1]) };
}

/** Definitions of one qualified name as one anchor per file, spanning all of them. */
function spanned(anchor: string, defs: LocatedSymbol[]): ResolvedAnchor[] {
  const perFile = new Map<string, Range>();
  for (const def of defs) {
    const prior = perFile.get(def.file);
    perFile.set(def.file, prior ? unionRange(prior, def.range) : def.range);
  }
  return [...perFile].map(([file, range]) => ({ anchor, file, symbol: defs[0]!.qualifiedName, range }));
}

function groupByQualifiedName(matches: LocatedSymbol[]): Array<[string, LocatedSymbol[]]> {
  const groups = new Map<string, LocatedSymbol[]>();
  for (const m of matches) {
    const key = `${m.file}#${m.qualifiedName}`;
    const list = groups.get(key) ?? [];
    list.push(m);
    groups.set(key, list);
  }
  return [...groups];
}

function describeAt(s: LocatedSymbol): string {
  return `${s.file}:${s.range.start.line + 1}`;
}

function joinAnd(items: string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]!}`;
}

function unionRange(a: Range, b: Range): Range {
  const before = (x: Range['start'], y: Range['start']): boolean =>
    x.line < y.line || (x.line === y.line && x.column < y.column);
  return { start: before(a.start, b.start) ? a.start : b.start, end: before(a.end, b.end) ? b.end : a.end };
}

function existsFile(workspaceDir: string | undefined, rel: string): boolean {
  if (workspaceDir === undefined || rel === '') return false;
  try {
    return fs.statSync(path.join(workspaceDir, rel)).isFile();
  } catch {
    return false;
  }
}

/** The whole file, from its text when we can read it, else up to the furthest symbol the index knows. */
function wholeFileRange(
  workspaceDir: string | undefined,
  rel: string,
  fileIndex: FileIndex | undefined,
): Range {
  if (workspaceDir !== undefined) {
    try {
      const text = fs.readFileSync(path.join(workspaceDir, rel), 'utf8');
      const lines = text.split('\n');
      return {
        start: { line: 0, column: 0 },
        end: { line: lines.length - 1, column: lines[lines.length - 1]!.length },
      };
    } catch {
      // Unreadable: fall through to what the index knows.
    }
  }
  const end = (fileIndex?.symbols ?? []).reduce(
    (max, s) => (s.range.end.line > max.line ? s.range.end : max),
    {
      line: 0,
      column: 0,
    },
  );
  return { start: { line: 0, column: 0 }, end };
}

function skippedReason(skip: SkippedFile): string {
  switch (skip.reason) {
    case 'unknown-language':
      return 'no tree-sitter grammar for this kind of file';
    case 'too-large':
      return 'the file is too large to index';
    case 'binary':
      return 'the file is binary';
    case 'ignored':
      return 'the file is ignored (.gitignore)';
    case 'unreadable':
      return 'the file could not be read';
    case 'symlink-loop':
      return 'the path is a symlink loop';
  }
}
