// The result of indexing a workspace, with the queries the anchors, affected-spec selection, blame and the
// agent's tools need.
import type { FileIndex, IndexStats, SkippedFile, SymbolDef } from './types';

export type LocatedSymbol = SymbolDef & { file: string };

export class WorkspaceIndex {
  private importersByFile: Map<string, Set<string>> | undefined;

  constructor(
    readonly workspaceDir: string,
    /** Indexed files by workspace-relative path ('/' separators). */
    readonly files: Map<string, FileIndex>,
    readonly skipped: SkippedFile[],
    readonly stats: IndexStats,
    /** The workspace's git submodules: listed apart, never indexed (a change in one cannot be traced). */
    readonly submodules: readonly string[] = [],
  ) {}

  /**
   * Definitions named `name`, in `file` only when given. `name` is a qualified name (`LruCache.get`) or a
   * simple one (`get`). Exact qualified-name matches win; when there are none, definitions whose qualified
   * name ends with `.name` (e.g. `Outer.LruCache.get` for `LruCache.get`, `A.get` and `B.get` for `get`)
   * are returned. More than one result means the name is ambiguous: the caller says which ones.
   */
  findSymbol(name: string, file?: string): LocatedSymbol[] {
    const exact: LocatedSymbol[] = [];
    const bySuffix: LocatedSymbol[] = [];
    const suffix = `.${name}`;
    const scan = (f: FileIndex) => {
      for (const s of f.symbols) {
        if (s.qualifiedName === name) exact.push({ ...s, file: f.path });
        else if (s.qualifiedName.endsWith(suffix)) bySuffix.push({ ...s, file: f.path });
      }
    };
    if (file !== undefined) {
      const f = this.files.get(file);
      if (f) scan(f);
    } else {
      for (const f of this.files.values()) scan(f);
    }
    return exact.length > 0 ? exact : bySuffix;
  }

  /** The innermost definition in `file` whose range contains the 0-based `line`. */
  enclosingSymbol(file: string, line: number): SymbolDef | undefined {
    let best: SymbolDef | undefined;
    for (const s of this.files.get(file)?.symbols ?? []) {
      if (s.range.start.line > line || s.range.end.line < line) continue;
      if (!best || spanOf(s) <= spanOf(best)) best = s;
    }
    return best;
  }

  /** Files that import `file` directly. */
  importersOf(file: string): string[] {
    if (!this.importersByFile) {
      this.importersByFile = new Map();
      for (const f of this.files.values()) {
        for (const imported of f.imports) {
          let set = this.importersByFile.get(imported);
          if (!set) this.importersByFile.set(imported, (set = new Set()));
          set.add(f.path);
        }
      }
    }
    return [...(this.importersByFile.get(file) ?? [])].sort();
  }

  /** `files` and every workspace file they import, transitively. */
  importConeOf(files: Iterable<string>): Set<string> {
    const cone = new Set<string>();
    const pending = [...files];
    for (let f = pending.pop(); f !== undefined; f = pending.pop()) {
      if (cone.has(f)) continue;
      cone.add(f);
      for (const imported of this.files.get(f)?.imports ?? [])
        if (!cone.has(imported)) pending.push(imported);
    }
    return cone;
  }

  /** Replaces one file's entry (the editor's incremental re-index); import lookups are rebuilt lazily. */
  updateFile(file: FileIndex): void {
    this.files.set(file.path, file);
    this.importersByFile = undefined;
  }
}

function spanOf(s: SymbolDef): number {
  return (s.range.end.line - s.range.start.line) * 1e6 + (s.range.end.column - s.range.start.column);
}
