// The workspace index's public shapes: what the anchors, affected-spec selection, blame, the agent's
// symbol tools and the extension's symbol picker read. Paths are workspace-relative with '/' separators.

export type LanguageId = 'typescript' | 'tsx' | 'javascript' | 'python' | 'go' | 'rust' | 'java';

/** 0-based line and column (tree-sitter rows/columns; columns in UTF-16 code units for the editor). */
export interface Position {
  line: number;
  column: number;
}
export interface Range {
  start: Position;
  end: Position;
}

export interface SymbolDef {
  /** Simple name, e.g. `get`. */
  name: string;
  /** Qualified by enclosing definitions, e.g. `LruCache.get`, `outer.inner`. */
  qualifiedName: string;
  kind:
    | 'class'
    | 'interface'
    | 'function'
    | 'method'
    | 'module'
    | 'type'
    | 'enum'
    | 'constant'
    | 'field'
    | 'other';
  /** The whole definition. */
  range: Range;
  /** Just the name. */
  nameRange: Range;
}

export interface FileIndex {
  path: string;
  language: LanguageId;
  /** sha256 of the content; the on-disk cache key. */
  hash: string;
  sizeBytes: number;
  symbols: SymbolDef[];
  /** Names this file calls / references (tags.scm @reference.*). */
  references: string[];
  /** Import specifiers as written. */
  importSpecifiers: string[];
  /** Imports resolved to workspace files (relative imports, Python packages); unresolved ones are dropped. */
  imports: string[];
  /** True when tree-sitter reported ERROR/MISSING nodes (the file is still indexed). */
  hasSyntaxErrors: boolean;
}

export interface SkippedFile {
  path: string;
  reason: 'binary' | 'too-large' | 'unknown-language' | 'unreadable' | 'symlink-loop' | 'ignored';
  /** Why, when the reason alone does not say (e.g. the read error). */
  detail?: string;
}

/** Which tree-sitter parsed the files a pass parsed (`weave index --json`: stats.parser). */
export interface ParserReport {
  /**
   * 'native': the native `tree-sitter` binding parsed every file parsed in this pass; 'wasm': web-tree-sitter
   * did; 'mixed': some languages each; 'none': nothing was parsed (all from the cache).
   */
  ran: 'native' | 'wasm' | 'mixed' | 'none';
  /** Worker threads, or the calling thread (small jobs, workers: 0), which always parses with web-tree-sitter. */
  where: 'workers' | 'calling-thread' | 'none';
  byLanguage: Partial<Record<LanguageId, 'native' | 'wasm'>>;
  /** Why a language was parsed with web-tree-sitter where the native binding was preferred. */
  fallbacks: Partial<Record<LanguageId, string>>;
}

export interface IndexStats {
  files: number;
  bytes: number;
  symbols: number;
  byLanguage: Record<string, number>;
  cacheHits: number;
  durationMs: number;
  skipped: number;
  /** Set by a workspace pass (createIndexer().indexWorkspace). */
  parser?: ParserReport;
}

/**
 * A document change for incremental re-parsing, in the document's UTF-16 code units (what VS Code's
 * `TextDocumentContentChangeEvent` gives): the replaced range before the edit and its end after it.
 */
export interface DocumentEdit {
  startIndex: number;
  oldEndIndex: number;
  newEndIndex: number;
  startPosition: Position;
  oldEndPosition: Position;
  newEndPosition: Position;
}
