// Resolves import specifiers to workspace files, per language, against the set of indexed files. Each
// language's rules live in its own module: resolveJs.ts (JS/TS: files, folders through package.json
// main/exports and index.*, the package's own name, workspace packages; built-ins and installed packages are
// external; no tsconfig `paths`), resolvePython.ts, resolveGo.ts, resolveRust.ts and resolveJava.ts. What a
// resolver does not find in the workspace (packages, the standard library, aliases) is left out of `imports`.
// This module dispatches by language, memoizes per folder, adds the files a language loads without an import
// (a Go or Java package's other files) and, through `resolveDetailed`, says which specifiers cannot be traced
// (a relative import naming no file, a JS import that is neither a workspace file nor a known package), for
// affected-spec selection to be conservative.
import path from 'node:path/posix';
import { createJsResolver, type JsResolverContext } from './resolveJs';
import { createGoResolver } from './resolveGo';
import { createJavaResolver } from './resolveJava';
import {
  filesOrExternal,
  workspaceFileSet,
  type ModuleResolution,
  type WorkspaceFileSet,
} from './moduleResolution';
import { createPythonResolver } from './resolvePython';
import { createRustResolver } from './resolveRust';
import type { LanguageId } from './types';

export interface UntraceableImport {
  specifier: string;
  reason: string;
}

export interface ImportResolution {
  files: string[];
  untraceable: UntraceableImport[];
  /** Files only some loaders take (a package.json "import" entry), with that entry. */
  conditional: Record<string, string>;
}

export interface ImportResolver {
  resolve(file: string, language: LanguageId, specifiers: string[]): string[];
  /** The same files, plus the specifiers that cannot be traced and why. */
  resolveDetailed(file: string, language: LanguageId, specifiers: string[]): ImportResolution;
}

export interface ImportResolverOptions {
  /** Whether `node_modules/<name>` exists in the workspace-relative `dir` or above (default: never). */
  isInstalled?: (dir: string, name: string) => boolean;
  /**
   * The workspace's git submodules: a specifier may resolve to one (`require('./vendor/lib')`), but what is
   * inside is another repository's, not traced, so such a specifier is untraceable.
   */
  submodules?: readonly string[];
}

export function createImportResolver(
  files: Iterable<string>,
  readText: (file: string) => string | undefined,
  options: ImportResolverOptions = {},
): ImportResolver {
  const submodules = new Set(options.submodules ?? []);
  const workspace = workspaceFileSet([...files, ...submodules]);
  const resolveOne = languageResolver(workspace, readText, options);
  const siblings = (file: string, ext: string, skipTests: boolean) =>
    workspace
      .inDir(path.dirname(file))
      .filter(
        (f) => f !== file && f.endsWith(ext) && !(skipTests && f.endsWith('_test.go')) && !submodules.has(f),
      );

  const resolveDetailed = (file: string, language: LanguageId, specifiers: string[]): ImportResolution => {
    const found = resolveAll(file, specifiers, (spec) => resolveOne(file, language, spec), submodules);
    if (language === 'go') found.add(siblings(file, '.go', !file.endsWith('_test.go')));
    if (language === 'java') found.add(siblings(file, '.java', false));
    return found.result();
  };

  return {
    resolve: (file, language, specifiers) => resolveDetailed(file, language, specifiers).files,
    resolveDetailed,
  };
}

/** One specifier of one file resolved by its language's rules. */
type ResolveOne = (file: string, language: LanguageId, spec: string) => ModuleResolution;

function languageResolver(
  workspace: WorkspaceFileSet,
  readText: (file: string) => string | undefined,
  options: ImportResolverOptions,
): ResolveOne {
  const resolveJs = createJsResolver(jsContext(workspace, readText, options));
  const resolvePython = createPythonResolver(workspace);
  const resolveGo = createGoResolver(workspace, readText);
  const resolveRust = createRustResolver(workspace);
  const resolveJava = createJavaResolver(workspace);

  // Everything but Rust resolves the same way for every file of one folder: memoize per folder and specifier
  // (a large workspace imports `os` or `./util` from hundreds of files).
  const memo = new Map<string, ModuleResolution>();
  return (file, language, spec) => {
    if (language === 'rust') return filesOrExternal(resolveRust(file, spec));
    const key = `${language}\0${path.dirname(file)}\0${spec}`;
    let found = memo.get(key);
    if (found === undefined) {
      switch (language) {
        case 'python':
          found = resolvePython(file, spec);
          break;
        case 'go':
          found = filesOrExternal(resolveGo(spec));
          break;
        case 'java':
          found = filesOrExternal(resolveJava(spec));
          break;
        default:
          found = resolveJs(file, spec);
      }
      memo.set(key, found);
    }
    return found;
  };
}

/** The JS resolver's view of the workspace: its files, its package.json files parsed once each. */
function jsContext(
  workspace: WorkspaceFileSet,
  readText: (file: string) => string | undefined,
  options: ImportResolverOptions,
): JsResolverContext {
  const jsonMemo = new Map<string, unknown>();
  return {
    has: (f) => workspace.has(f),
    readJson: (f) => {
      if (!jsonMemo.has(f)) {
        let value: unknown;
        try {
          value = JSON.parse(readText(f) ?? 'null');
        } catch {
          value = undefined;
        }
        jsonMemo.set(f, value);
      }
      return jsonMemo.get(f);
    },
    packageJsonFiles: () =>
      [...workspace.files].filter(
        (f) =>
          (f === 'package.json' || f.endsWith('/package.json')) && !f.split('/').includes('node_modules'),
      ),
    isInstalled: options.isInstalled ?? (() => false),
  };
}

/**
 * One file's specifiers gathered: the files (not the file itself), the untraceable ones (a submodule is one),
 * and the files only some loaders take, unless another specifier reaches them for certain.
 */
function resolveAll(
  file: string,
  specifiers: string[],
  resolve: (spec: string) => ModuleResolution,
  submodules: ReadonlySet<string>,
): { add(list: string[]): void; result(): ImportResolution } {
  const out = new Set<string>();
  const untraceable: UntraceableImport[] = [];
  const conditional: Record<string, string> = {};
  const certain = new Set<string>();
  const add = (list: string[], notes?: Record<string, string>) => {
    for (const f of list) {
      if (f === file) continue;
      out.add(f);
      const note = notes?.[f];
      if (note === undefined) certain.add(f);
      else conditional[f] ??= note;
    }
  };
  for (const spec of specifiers) {
    const r = resolve(spec);
    if (r.kind === 'untraceable') untraceable.push({ specifier: spec, reason: r.reason });
    if (r.kind !== 'files') continue;
    for (const submodule of r.files.filter((f) => submodules.has(f))) {
      untraceable.push({
        specifier: spec,
        reason: `${submodule} is a git submodule, which Weave does not trace into`,
      });
    }
    add(
      r.files.filter((f) => !submodules.has(f)),
      r.conditional,
    );
  }
  return {
    add: (list) => add(list),
    result: () => {
      for (const f of certain) delete conditional[f];
      return { files: [...out].sort(), untraceable, conditional };
    },
  };
}
