// How an import cone follows one file: its imports, resolved by the index's resolver (the same rules as
// `weave index`), the specifiers it cannot trace (they make the cone uncertain), and the files a language loads
// without an import (Python's package `__init__.py` files, pytest's `conftest.py`). cones.ts walks a spec's cone
// with it; lazyCones.ts uses it to know which files to parse next.
import fs from 'node:fs';
import path from 'node:path';
import type { IndexView } from '../anchors/resolve';
import {
  createImportResolver,
  installedPackageProbe,
  type FileIndex,
  type ImportResolver as IndexImportResolver,
  type UntraceableImport,
} from '../index';

export interface ConeImportOptions {
  /** Where manifests (package.json, go.mod) and installed packages are read; none are without it. */
  workspaceDir?: string | undefined;
  /** The workspace's files for a partial index (default: the index's files and skipped files). */
  listed?: readonly string[] | undefined;
  /** Whether a file loaded implicitly (`__init__.py`) is there to follow (default: the index holds it). */
  indexable?: (file: string) => boolean;
  /** The workspace's git submodules: an import may name one, but Weave does not trace into it. */
  submodules?: readonly string[] | undefined;
}

interface Dependencies {
  files: string[];
  unresolved: UntraceableImport[];
  conditional: Record<string, string>;
}

/**
 * Follows a file's imports with the index's resolver (the same rules as `weave index`), keeping what it cannot
 * trace: such an import makes the cone uncertain. Languages that load files implicitly get those files too:
 * Python's package `__init__.py` files and pytest's `conftest.py` (the other files of a Go or Java package come
 * from the resolver).
 */
export class ConeImportResolver {
  private readonly cache = new Map<string, Dependencies>();
  private readonly resolver: IndexImportResolver;
  private readonly indexable: (file: string) => boolean;

  constructor(
    private readonly index: IndexView,
    options: ConeImportOptions = {},
  ) {
    const { workspaceDir } = options;
    this.indexable = options.indexable ?? ((f) => index.files.has(f));
    this.resolver = createImportResolver(
      [...(options.listed ?? [...index.files.keys(), ...index.skipped.map((s) => s.path)])],
      (f) => (workspaceDir === undefined ? undefined : readSmallText(path.join(workspaceDir, f))),
      {
        ...(workspaceDir === undefined ? {} : { isInstalled: installedPackageProbe(workspaceDir) }),
        submodules: options.submodules ?? [],
      },
    );
  }

  dependenciesOf(file: string): Dependencies {
    const hit = this.cache.get(file);
    if (hit) return hit;
    const info = this.index.files.get(file);
    const result = info ? this.compute(info) : { files: [], unresolved: [], conditional: {} };
    this.cache.set(file, result);
    return result;
  }

  private compute(info: FileIndex): Dependencies {
    const resolved = this.resolver.resolveDetailed(info.path, info.language, info.importSpecifiers);
    const files = new Set(resolved.files);
    const dir = path.posix.dirname(info.path);
    for (const f of this.implicitFiles(info, dir === '.' ? '' : dir)) files.add(f);
    files.delete(info.path);
    return { files: [...files].sort(), unresolved: resolved.untraceable, conditional: resolved.conditional };
  }

  private implicitFiles(info: FileIndex, fromDir: string): string[] {
    const out: string[] = [];
    if (info.language === 'python') {
      // Importing a.b.c runs a/__init__.py and a/b/__init__.py; pytest loads every conftest.py above a test.
      for (let d = fromDir; ; d = path.posix.dirname(d) === '.' ? '' : path.posix.dirname(d)) {
        const prefix = d === '' ? '' : `${d}/`;
        for (const name of ['__init__.py', 'conftest.py']) {
          if (this.indexable(`${prefix}${name}`)) out.push(`${prefix}${name}`);
        }
        if (d === '') break;
      }
    }
    return out;
  }
}

/** package.json and similar manifests the resolver reads; anything big or missing reads as undefined. */
function readSmallText(file: string): string | undefined {
  try {
    if (fs.statSync(file).size > 1024 * 1024) return undefined;
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
