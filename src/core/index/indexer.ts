// createIndexer: the workspace index (walk → cache check → parse in workers → resolve imports → cache) and
// the editor's incremental document parsing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Tree } from 'web-tree-sitter';
import { extractFile } from './extract';
import { locateGrammars, type GrammarLocation } from '../grammarLocation';
import {
  cacheFingerprint,
  emptyIndexCache,
  fileListHash,
  readIndexCache,
  writeIndexCache,
  type CacheEntry,
} from './indexCache';
import { languageOfPath } from './languages';
import { parseFileJob, contentHash, type ParseJob, type ParseOutcome } from './parseFile';
import { parseInWorkers } from './parsePool';
import { defaultParserPreference, type ParserPreference } from './preferNativeHost';
import { installedPackageProbe } from './jsPackages';
import { createImportResolver } from './resolveImports';
import { TreeSitterHost, type LoadedLanguage } from './treeSitterHost';
import type { DocumentEdit, FileIndex, LanguageId, ParserReport, SkippedFile } from './types';
import { listWorkspaceFiles } from './workspaceFiles';
import { WorkspaceIndex } from './workspaceIndex';
import {
  foldOutcomes,
  indexStats,
  readSmallText,
  recordInCache,
  resolveMissingImports,
  reuseOrSchedule,
  statCandidates,
  type PassState,
} from './workspacePass';

export interface IndexerOptions {
  workspaceDir: string;
  /** Default `<workspaceDir>/.weave/cache/index`. */
  cacheDir?: string;
  /** false: neither read nor write the cache (`weave index --no-cache`). Default true. */
  useCache?: boolean;
  /**
   * Parse worker threads. Default: the machine's parallelism, at most 4. 0 parses in the calling thread.
   * Small jobs (under ~1 MB to parse) always run in the calling thread: starting workers would cost more.
   */
  workers?: number;
  /** Files larger than this are skipped as 'too-large' without being read. Default 2 MB. */
  maxFileBytes?: number;
  /**
   * Which tree-sitter the parse workers use: 'native' (where the binding and grammar packages load, WASM for the
   * rest) or 'wasm'. Default: 'wasm', or 'native' in a process that called preferNativeParser() (the CLI).
   */
  parser?: ParserPreference;
}

export interface IndexWorkspaceOptions {
  signal?: AbortSignal;
  /**
   * Index only these listed files (workspace-relative): what a caller needs (the files a run covered), not the
   * workspace. Imports are still resolved against the whole listing; the cache keeps its other entries, and
   * `current` (the last complete index) is left as it was.
   */
  only?: readonly string[];
}

/** An open document's latest parse (parseDocument). */
export interface ParsedDocument {
  path: string;
  language: LanguageId;
  /** Time of the (re-)parse alone. */
  parseMs: number;
  hasSyntaxErrors: boolean;
  /** The tree as an S-expression (rootNode.toString()). */
  syntaxTree(): string;
  /**
   * Extracts symbols, references and imports from this parse and updates the current workspace index's entry.
   * Separate from the parse because it walks the whole tree (debounce it while the user types). Throws if
   * the document was parsed again since.
   */
  index(): FileIndex;
}

export interface Indexer {
  indexWorkspace(options?: IndexWorkspaceOptions): Promise<WorkspaceIndex>;
  /** The last complete index, if any. */
  readonly current: WorkspaceIndex | undefined;
  /**
   * Parses an open document's text. With `edit` (the change from the previous text given for this file),
   * the previous tree is edited and re-used: an incremental re-parse. `file` is workspace-relative or
   * absolute. Returns undefined for a file without a grammar.
   */
  parseDocument(file: string, text: string, edit?: DocumentEdit): Promise<ParsedDocument | undefined>;
  /** Forgets an open document and deletes its tree. */
  closeDocument(file: string): void;
  /** Trees alive now: one per open document, plus any a worker leaked in the last run (should be 0). */
  liveTreeCount(): number;
  dispose(): void;
}

const defaultMaxFileBytes = 2 * 1024 * 1024;

function parserReport(
  where: 'workers' | 'calling-thread',
  used: Pick<ParserReport, 'byLanguage' | 'fallbacks'>,
): ParserReport {
  const kinds = new Set(Object.values(used.byLanguage));
  const ran = kinds.size === 0 ? 'none' : kinds.size > 1 ? 'mixed' : [...kinds][0]!;
  return {
    ran,
    where: ran === 'none' ? 'none' : where,
    byLanguage: used.byLanguage,
    fallbacks: used.fallbacks,
  };
}
const inThreadMaxBytes = 1024 * 1024;

export function createIndexer(options: IndexerOptions): Indexer {
  return new WorkspaceIndexer(options);
}

interface OpenDocument {
  lang: LoadedLanguage;
  tree: Tree;
  text: string;
  version: number;
}

class WorkspaceIndexer implements Indexer {
  current: WorkspaceIndex | undefined;
  private readonly workspaceDir: string;
  private readonly cacheDir: string;
  private readonly useCache: boolean;
  private readonly workers: number;
  private readonly maxFileBytes: number;
  private readonly parser: ParserPreference;
  private location: GrammarLocation | undefined;
  private host: TreeSitterHost | undefined;
  private readonly documents = new Map<string, OpenDocument>();
  private workerLiveTrees = 0;
  private fingerprint: string | undefined;

  constructor(options: IndexerOptions) {
    this.workspaceDir = path.resolve(options.workspaceDir);
    this.cacheDir = options.cacheDir ?? path.join(this.workspaceDir, '.weave', 'cache', 'index');
    this.useCache = options.useCache ?? true;
    this.workers = options.workers ?? Math.min(4, os.availableParallelism());
    this.maxFileBytes = options.maxFileBytes ?? defaultMaxFileBytes;
    this.parser = options.parser ?? defaultParserPreference();
  }

  async indexWorkspace(options: IndexWorkspaceOptions = {}): Promise<WorkspaceIndex> {
    const started = performance.now();
    const { signal } = options;
    signal?.throwIfAborted();
    const location = this.grammarLocation();
    const listing = await listWorkspaceFiles(this.workspaceDir);
    signal?.throwIfAborted();
    const skipped: SkippedFile[] = [...listing.skipped];
    const only = options.only === undefined ? undefined : new Set(options.only);
    const wanted = only === undefined ? listing.files : listing.files.filter((f) => only.has(f));
    const candidates = await statCandidates(this.workspaceDir, wanted, this.maxFileBytes, skipped, signal);

    const fingerprint = this.useCache ? (this.fingerprint ??= cacheFingerprint(location.grammarsDir)) : '';
    const cache = this.useCache ? readIndexCache(this.cacheDir, fingerprint) : emptyIndexCache();
    // Imports depend on the other files (and on go.mod contents): cached ones hold while those are unchanged.
    const listHash = fileListHash(await this.importContext(listing.files));
    const cachedImportsValid = cache.fileListHash === listHash;
    // A pass over some files keeps the cache's other entries; it writes the cache only while the cached imports
    // still hold (they would otherwise be stored as valid for the new file list), or when there is no cache yet:
    // then its own entries, resolved against this listing, are all it holds (coverage maps the same few files
    // after every check, and would otherwise parse them anew each time until a full pass writes a cache).
    const nextCache = new Map<string, CacheEntry>(
      only === undefined ? [] : [...cache.entries].filter(([f]) => !only.has(f)),
    );
    const mayWriteCache =
      this.useCache && (only === undefined || cachedImportsValid || cache.entries.size === 0);
    const state: PassState = { files: new Map(), resolved: new Set(), nextCache, cacheHits: 0 };
    const jobs = reuseOrSchedule(candidates, cache, cachedImportsValid, this.maxFileBytes, state);
    const run = await this.runJobs(jobs, location, signal);
    foldOutcomes(run.outcomes, cache, cachedImportsValid, state, skipped);
    const unresolved = state.files.size - state.resolved.size;
    resolveMissingImports(this.workspaceDir, listing.files, state);
    recordInCache(state, new Map(candidates.map((c) => [c.path, c.stat])));

    const cacheChanged =
      jobs.length > 0 || nextCache.size !== cache.entries.size || !cachedImportsValid || unresolved > 0;
    if (mayWriteCache && cacheChanged) {
      writeIndexCache(this.cacheDir, fingerprint, { fileListHash: listHash, entries: nextCache });
    }
    const sortedFiles = new Map([...state.files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const stats = indexStats(sortedFiles, nextCache, state.cacheHits, skipped.length);
    stats.durationMs = Math.round(performance.now() - started);
    stats.parser = run.parser;
    const index = new WorkspaceIndex(this.workspaceDir, sortedFiles, skipped, stats, listing.submodules);
    if (only === undefined) this.current = index;
    return index;
  }

  async parseDocument(file: string, text: string, edit?: DocumentEdit): Promise<ParsedDocument | undefined> {
    const rel = this.relative(file);
    const language = languageOfPath(rel);
    if (!language) return undefined;
    const host = this.mainHost();
    const lang = await host.language(language);
    const previous = this.documents.get(rel);
    const started = performance.now();
    let tree: Tree;
    if (previous && edit && previous.lang === lang) {
      tree = host.reparse(lang, previous.tree, edit, text);
    } else {
      tree = host.parse(lang, text);
      if (previous) host.release(previous.tree);
    }
    const parseMs = performance.now() - started;
    const doc: OpenDocument = { lang, tree, text, version: (previous?.version ?? 0) + 1 };
    this.documents.set(rel, doc);
    const current = () => {
      if (this.documents.get(rel) !== doc) throw new Error(`${rel} was parsed again since this parse`);
      return doc;
    };
    return {
      path: rel,
      language,
      parseMs,
      hasSyntaxErrors: tree.rootNode.hasError,
      syntaxTree: () => current().tree.rootNode.toString(),
      index: () => {
        const { tree: t, text: source } = current();
        const extracted = extractFile(t, lang);
        const indexed: FileIndex = {
          path: rel,
          language,
          hash: contentHash(source),
          sizeBytes: Buffer.byteLength(source),
          ...extracted,
          imports: [],
        };
        if (this.current) {
          const resolver = createImportResolver(
            [...this.current.files.keys(), ...this.current.skipped.map((s) => s.path), rel],
            (f) => readSmallText(path.join(this.workspaceDir, f)),
            { isInstalled: installedPackageProbe(this.workspaceDir) },
          );
          indexed.imports = resolver.resolve(rel, language, indexed.importSpecifiers);
          this.current.updateFile(indexed);
        }
        return indexed;
      },
    };
  }

  closeDocument(file: string): void {
    const rel = this.relative(file);
    const doc = this.documents.get(rel);
    if (!doc) return;
    this.documents.delete(rel);
    this.host?.release(doc.tree);
  }

  liveTreeCount(): number {
    return (this.host?.liveTreeCount ?? 0) + this.workerLiveTrees;
  }

  dispose(): void {
    for (const file of [...this.documents.keys()]) this.closeDocument(file);
    this.host?.dispose();
    this.host = undefined;
  }

  private async runJobs(
    jobs: ParseJob[],
    location: GrammarLocation,
    signal?: AbortSignal,
  ): Promise<{ outcomes: ParseOutcome[]; parser: ParserReport }> {
    const bytes = jobs.reduce((sum, j) => sum + j.sizeBytes, 0);
    if (this.workers > 0 && bytes > inThreadMaxBytes && jobs.length > 1) {
      const result = await parseInWorkers(jobs, {
        workers: this.workers,
        location,
        parser: this.parser,
        ...(signal ? { signal } : {}),
      });
      this.workerLiveTrees = result.liveTrees;
      return { outcomes: result.outcomes, parser: parserReport('workers', result.parsers) };
    }
    const host = this.mainHost();
    const outcomes: ParseOutcome[] = [];
    const byLanguage: ParserReport['byLanguage'] = {};
    for (const job of jobs) {
      signal?.throwIfAborted();
      const outcome = await parseFileJob(host, job);
      if (outcome.kind === 'indexed') byLanguage[job.language] = 'wasm';
      outcomes.push(outcome);
    }
    return { outcomes, parser: parserReport('calling-thread', { byLanguage, fallbacks: {} }) };
  }

  /**
   * What import resolution depends on besides a file's own specifiers: the file list, and the contents of
   * go.mod and package.json files (module names, main, exports).
   */
  private async importContext(files: string[]): Promise<string[]> {
    const manifests = files.filter(
      (f) => f === 'go.mod' || f.endsWith('/go.mod') || f === 'package.json' || f.endsWith('/package.json'),
    );
    const stats = await Promise.all(
      manifests.map((f) => fs.promises.stat(path.join(this.workspaceDir, f)).catch(() => undefined)),
    );
    return [...files, ...manifests.map((f, i) => `${f}\0${stats[i]?.size}\0${stats[i]?.mtimeMs}`)];
  }

  private grammarLocation(): GrammarLocation {
    return (this.location ??= locateGrammars());
  }

  private mainHost(): TreeSitterHost {
    return (this.host ??= new TreeSitterHost(this.grammarLocation()));
  }

  private relative(file: string): string {
    const rel = path.isAbsolute(file) ? path.relative(this.workspaceDir, file) : file;
    return rel.split(path.sep).join('/');
  }
}
