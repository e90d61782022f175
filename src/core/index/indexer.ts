// createIndexer: the workspace index (walk → cache check → parse in workers → resolve imports → cache) and
// the editor's incremental document parsing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Tree } from 'web-tree-sitter';
import { extractFile } from './extract';
import { locateGrammars, type GrammarLocation } from './grammarLocation';
import {
  cacheFingerprint,
  emptyIndexCache,
  fileListHash,
  readIndexCache,
  writeIndexCache,
  copyLazyFields,
  type CacheEntry,
} from './indexCache';
import { languageOfPath } from './languages';
import { parseFileJob, contentHash, type ParseJob, type ParseOutcome } from './parseFile';
import { parseInWorkers } from './parsePool';
import { createImportResolver, installedPackageProbe } from './resolveImports';
import { TreeSitterHost, type LoadedLanguage } from './treeSitterHost';
import type { DocumentEdit, FileIndex, IndexStats, LanguageId, SkippedFile } from './types';
import { listWorkspaceFiles } from './workspaceFiles';
import { WorkspaceIndex } from './workspaceIndex';

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
}

export interface IndexWorkspaceOptions {
  signal?: AbortSignal;
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
  }

  async indexWorkspace(options: IndexWorkspaceOptions = {}): Promise<WorkspaceIndex> {
    const started = performance.now();
    const { signal } = options;
    signal?.throwIfAborted();
    const location = this.grammarLocation();
    const listing = await listWorkspaceFiles(this.workspaceDir);
    signal?.throwIfAborted();
    const skipped: SkippedFile[] = [...listing.skipped];
    const fingerprint = this.useCache ? (this.fingerprint ??= cacheFingerprint(location.grammarsDir)) : '';
    const cache = this.useCache ? readIndexCache(this.cacheDir, fingerprint) : emptyIndexCache();
    const nextCache = new Map<string, CacheEntry>();
    // Imports depend on the other files (and on go.mod contents): cached ones hold while those are unchanged.
    const listHash = fileListHash(this.importContext(listing.files));
    const cachedImportsValid = cache.fileListHash === listHash;
    const resolved = new Set<string>();
    const stats = new Map<string, fs.Stats>();
    const files = new Map<string, FileIndex>();
    const jobs: ParseJob[] = [];
    let cacheHits = 0;

    for (const rel of listing.files) {
      const language = languageOfPath(rel);
      if (!language) {
        skipped.push({ path: rel, reason: 'unknown-language' });
        continue;
      }
      const absPath = path.join(this.workspaceDir, rel);
      let stat: fs.Stats;
      try {
        stat = fs.statSync(absPath);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ELOOP') skipped.push({ path: rel, reason: 'symlink-loop' });
        else if (code !== 'ENOENT') skipped.push({ path: rel, reason: 'unreadable', detail: String(code) });
        continue; // ENOENT: deleted since git listed it, or a dangling link
      }
      if (!stat.isFile()) continue; // a submodule, or (in git) a link to a folder, which git does not follow
      if (stat.size > this.maxFileBytes) {
        skipped.push({ path: rel, reason: 'too-large', detail: `${stat.size} bytes > ${this.maxFileBytes}` });
        continue;
      }
      stats.set(rel, stat);
      const cached = cache.entries.get(rel);
      if (
        cached &&
        cached.size === stat.size &&
        cached.mtimeMs === stat.mtimeMs &&
        cached.file.language === language
      ) {
        files.set(rel, fromCache(rel, cached, cachedImportsValid));
        if (cachedImportsValid) resolved.add(rel);
        nextCache.set(rel, cached);
        cacheHits++;
        continue;
      }
      jobs.push({
        path: rel,
        absPath,
        language,
        sizeBytes: stat.size,
        maxFileBytes: this.maxFileBytes,
        ...(cached ? { expectHash: cached.file.hash } : {}),
      });
    }

    const outcomes = await this.runJobs(jobs, location, signal);
    for (const outcome of outcomes) {
      if (outcome.kind === 'skipped') {
        skipped.push(outcome.skipped);
        continue;
      }
      const rel = outcome.kind === 'indexed' ? outcome.file.path : outcome.path;
      let file: FileIndex;
      if (outcome.kind === 'indexed') file = outcome.file;
      else {
        // Touched but unchanged: the cached extraction still holds.
        const cached = cache.entries.get(rel)!;
        file = fromCache(rel, cached, cachedImportsValid);
        if (cachedImportsValid) resolved.add(rel);
        cacheHits++;
      }
      files.set(rel, file);
    }

    if (resolved.size < files.size) {
      const resolver = createImportResolver(
        listing.files,
        (f) => readSmallText(path.join(this.workspaceDir, f)),
        { isInstalled: installedPackageProbe(this.workspaceDir) },
      );
      for (const file of files.values()) {
        if (!resolved.has(file.path))
          file.imports = resolver.resolve(file.path, file.language, file.importSpecifiers);
      }
    }
    for (const file of files.values()) {
      const stat = stats.get(file.path)!;
      const previous = nextCache.get(file.path);
      if (previous) previous.imports = file.imports;
      else {
        const { path: _path, imports, ...stored } = file;
        nextCache.set(file.path, {
          size: stat.size,
          mtimeMs: stat.mtimeMs,
          file: stored,
          symbolCount: file.symbols.length,
          imports,
        });
      }
    }

    const cacheChanged =
      jobs.length > 0 ||
      nextCache.size !== cache.entries.size ||
      !cachedImportsValid ||
      resolved.size < files.size;
    if (this.useCache && cacheChanged) {
      writeIndexCache(this.cacheDir, fingerprint, { fileListHash: listHash, entries: nextCache });
    }
    const sortedFiles = new Map([...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const indexStats: IndexStats = {
      files: sortedFiles.size,
      bytes: 0,
      symbols: 0,
      byLanguage: {},
      cacheHits,
      durationMs: 0,
      skipped: skipped.length,
    };
    for (const f of sortedFiles.values()) {
      indexStats.bytes += f.sizeBytes;
      indexStats.symbols += nextCache.get(f.path)!.symbolCount;
      indexStats.byLanguage[f.language] = (indexStats.byLanguage[f.language] ?? 0) + 1;
    }
    skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    indexStats.durationMs = Math.round(performance.now() - started);
    this.current = new WorkspaceIndex(this.workspaceDir, sortedFiles, skipped, indexStats);
    return this.current;
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
  ): Promise<ParseOutcome[]> {
    const bytes = jobs.reduce((sum, j) => sum + j.sizeBytes, 0);
    if (this.workers > 0 && bytes > inThreadMaxBytes && jobs.length > 1) {
      const result = await parseInWorkers(jobs, {
        workers: this.workers,
        location,
        ...(signal ? { signal } : {}),
      });
      this.workerLiveTrees = result.liveTrees;
      return result.outcomes;
    }
    const host = this.mainHost();
    const outcomes: ParseOutcome[] = [];
    for (const job of jobs) {
      signal?.throwIfAborted();
      outcomes.push(await parseFileJob(host, job));
    }
    return outcomes;
  }

  /**
   * What import resolution depends on besides a file's own specifiers: the file list, and the contents of
   * go.mod and package.json files (module names, main, exports).
   */
  private importContext(files: string[]): string[] {
    const context = [...files];
    for (const f of files) {
      if (f === 'go.mod' || f.endsWith('/go.mod') || f === 'package.json' || f.endsWith('/package.json')) {
        const stat = fs.statSync(path.join(this.workspaceDir, f), { throwIfNoEntry: false });
        context.push(`${f}\0${stat?.size}\0${stat?.mtimeMs}`);
      }
    }
    return context;
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
function readSmallText(file: string): string | undefined {
  try {
    if (fs.statSync(file).size > 1024 * 1024) return undefined;
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
