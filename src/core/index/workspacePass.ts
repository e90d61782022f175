// The phases of one workspace index pass (indexer.ts runs them in order): stat the listed files (async: on the
// extension host the thread must not block on thousands of stat calls), reuse what the cache still holds or
// schedule a parse, fold the parse outcomes in, resolve imports, and build the next cache and the stats.
import fs, { type Stats } from 'node:fs';
import path from 'node:path';
import { copyLazyFields, type CacheEntry, type IndexCache } from './indexCache';
import { languageOfPath } from './languages';
import type { ParseJob, ParseOutcome } from './parseFile';
import { installedPackageProbe } from './jsPackages';
import { createImportResolver } from './resolveImports';
import type { FileIndex, IndexStats, LanguageId, SkippedFile } from './types';

/** A listed file with a grammar, as it is on disk now. */
export interface Candidate {
  path: string;
  absPath: string;
  language: LanguageId;
  stat: Stats;
}

/** Stats in flight at once: enough to keep libuv's thread pool busy, few enough not to flood it. */
const statConcurrency = 64;

/**
 * The files worth indexing among `files`: those with a grammar that are regular files within `maxFileBytes`.
 * The others are added to `skipped` (a deleted file or a dangling link is dropped silently: git listed it
 * before it went).
 */
export async function statCandidates(
  workspaceDir: string,
  files: readonly string[],
  maxFileBytes: number,
  skipped: SkippedFile[],
  signal?: AbortSignal,
): Promise<Candidate[]> {
  const withLanguage: Array<{ path: string; language: LanguageId }> = [];
  for (const rel of files) {
    const language = languageOfPath(rel);
    if (language) withLanguage.push({ path: rel, language });
    else skipped.push({ path: rel, reason: 'unknown-language' });
  }
  const stats = await mapConcurrently(withLanguage, statConcurrency, async ({ path: rel }) => {
    signal?.throwIfAborted();
    return fs.promises.stat(path.join(workspaceDir, rel)).then(
      (stat) => ({ stat }),
      (error: NodeJS.ErrnoException) => ({ code: error.code }),
    );
  });
  const out: Candidate[] = [];
  withLanguage.forEach(({ path: rel, language }, i) => {
    const result = stats[i]!;
    if ('code' in result) {
      if (result.code === 'ELOOP') skipped.push({ path: rel, reason: 'symlink-loop' });
      else if (result.code !== 'ENOENT')
        skipped.push({ path: rel, reason: 'unreadable', detail: String(result.code) });
      return;
    }
    const { stat } = result;
    if (!stat.isFile()) return; // a submodule, or (in git) a link to a folder, which git does not follow
    if (stat.size > maxFileBytes) {
      skipped.push({ path: rel, reason: 'too-large', detail: `${stat.size} bytes > ${maxFileBytes}` });
      return;
    }
    out.push({ path: rel, absPath: path.join(workspaceDir, rel), language, stat });
  });
  return out;
}

/** What a pass is building: the files indexed so far, which of them have their imports, and the next cache. */
export interface PassState {
  files: Map<string, FileIndex>;
  /** Files whose imports came valid from the cache. */
  resolved: Set<string>;
  nextCache: Map<string, CacheEntry>;
  cacheHits: number;
}

/** Candidates the cache still holds (same size, mtime and language) join `state`; the others are parse jobs. */
export function reuseOrSchedule(
  candidates: readonly Candidate[],
  cache: IndexCache,
  cachedImportsValid: boolean,
  maxFileBytes: number,
  state: PassState,
): ParseJob[] {
  const jobs: ParseJob[] = [];
  for (const { path: rel, absPath, language, stat } of candidates) {
    const cached = cache.entries.get(rel);
    if (
      cached &&
      cached.size === stat.size &&
      cached.mtimeMs === stat.mtimeMs &&
      cached.file.language === language
    ) {
      reuseCached(rel, cached, cachedImportsValid, state);
      state.nextCache.set(rel, cached);
      continue;
    }
    jobs.push({
      path: rel,
      absPath,
      language,
      sizeBytes: stat.size,
      maxFileBytes,
      ...(cached ? { expectHash: cached.file.hash } : {}),
    });
  }
  return jobs;
}

/** Parse outcomes join `state`: a touched file whose content hashes as before keeps its cached extraction. */
export function foldOutcomes(
  outcomes: readonly ParseOutcome[],
  cache: IndexCache,
  cachedImportsValid: boolean,
  state: PassState,
  skipped: SkippedFile[],
): void {
  for (const outcome of outcomes) {
    if (outcome.kind === 'skipped') skipped.push(outcome.skipped);
    else if (outcome.kind === 'indexed') state.files.set(outcome.file.path, outcome.file);
    else reuseCached(outcome.path, cache.entries.get(outcome.path)!, cachedImportsValid, state);
  }
}

function reuseCached(rel: string, entry: CacheEntry, withImports: boolean, state: PassState): void {
  state.files.set(rel, fromCache(rel, entry, withImports));
  if (withImports) state.resolved.add(rel);
  state.cacheHits++;
}

/** Resolves the imports of the files the cache had none valid for, against the whole listing. */
export function resolveMissingImports(
  workspaceDir: string,
  listed: readonly string[],
  state: PassState,
): void {
  if (state.resolved.size === state.files.size) return;
  const resolver = createImportResolver([...listed], (f) => readSmallText(path.join(workspaceDir, f)), {
    isInstalled: installedPackageProbe(workspaceDir),
  });
  for (const file of state.files.values()) {
    if (!state.resolved.has(file.path))
      file.imports = resolver.resolve(file.path, file.language, file.importSpecifiers);
  }
}

/** Every indexed file's entry in the next cache: a reused entry gets the imports resolved now. */
export function recordInCache(state: PassState, statOf: ReadonlyMap<string, Stats>): void {
  for (const file of state.files.values()) {
    const previous = state.nextCache.get(file.path);
    if (previous) previous.imports = file.imports;
    else {
      const stat = statOf.get(file.path)!;
      const { path: _path, imports, ...stored } = file;
      state.nextCache.set(file.path, {
        size: stat.size,
        mtimeMs: stat.mtimeMs,
        file: stored,
        symbolCount: file.symbols.length,
        imports,
      });
    }
  }
}

export function indexStats(
  files: ReadonlyMap<string, FileIndex>,
  nextCache: ReadonlyMap<string, CacheEntry>,
  cacheHits: number,
  skipped: number,
): IndexStats {
  const stats: IndexStats = {
    files: files.size,
    bytes: 0,
    symbols: 0,
    byLanguage: {},
    cacheHits,
    durationMs: 0,
    skipped,
  };
  for (const f of files.values()) {
    stats.bytes += f.sizeBytes;
    stats.symbols += nextCache.get(f.path)!.symbolCount;
    stats.byLanguage[f.language] = (stats.byLanguage[f.language] ?? 0) + 1;
  }
  return stats;
}

/** A cached extraction as a FileIndex, with the keys in the same order as a fresh one (stable JSON output). */
function fromCache(rel: string, entry: CacheEntry, withImports: boolean): FileIndex {
  const f = entry.file;
  const file: FileIndex = {
    path: rel,
    language: f.language,
    hash: f.hash,
    sizeBytes: f.sizeBytes,
    symbols: [],
    references: [],
    importSpecifiers: f.importSpecifiers,
    imports: withImports ? entry.imports : [],
    hasSyntaxErrors: f.hasSyntaxErrors,
  };
  copyLazyFields(f, file);
  return file;
}

/** go.mod and similar manifests the import resolver reads; anything big or missing reads as undefined. */
export function readSmallText(file: string): string | undefined {
  try {
    if (fs.statSync(file).size > 1024 * 1024) return undefined;
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

async function mapConcurrently<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}
