// Resolves import specifiers to workspace files, per language, against the set of indexed files.
// What is resolved (anything else — packages, the standard library, aliases — is left out of `imports`):
// - JS/TS: see resolveJs.ts (files, folders through package.json main/exports and index.*, the package's own
//   name, workspace packages; built-ins and installed packages are external). No tsconfig `paths`.
// - Python: relative (`from .a import b` → a.py or a/__init__.py, and a/b.py when `b` is a submodule;
//   `from . import x` → x.py, else the package's __init__.py) and absolute modules found under the workspace
//   root, `src/`, the importing file's folder or its top-level package's parent; the parent packages'
//   __init__.py files are imported too (Python runs them). `import pkg` is pkg/__init__.py alone: what that
//   file imports is followed from there, not every module of the package. A module found under none of those
//   roots but somewhere in the workspace (a dotted path suffix) is taken too, to be safe.
// `resolveDetailed` also says which specifiers cannot be traced (a relative import naming no file, a JS import
// that is neither a workspace file nor a known package), for affected-spec selection to be conservative.
// - Go: import paths under a go.mod module in the workspace → every non-test .go file of that folder; the
//   files of one package (one folder) see each other without imports, so each file also depends on its
//   package's other files.
// - Rust: `mod x;` → x.rs / x/mod.rs next to the module; `use crate::a::b`, `super::`, `self::` → the module
//   files along the path that exist.
// - Java: `import a.b.C;` → any file ending in a/b/C.java; `a.b.*` → that package's files; a static import
//   drops the member name. Classes of the same package need no import, so each file also depends on its
//   package's (folder's) other files.
import fs from 'node:fs';
import nodePath from 'node:path';
import path from 'node:path/posix';
import { createJsResolver, type JsResolution } from './resolveJs';
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
}

/** `isInstalled` probing the disk under `workspaceDir` and the folders above it (Node looks there too). */
export function installedPackageProbe(workspaceDir: string): (dir: string, name: string) => boolean {
  const memo = new Map<string, boolean>();
  return (dir, name) => {
    const key = `${dir}\0${name}`;
    let found = memo.get(key);
    if (found === undefined) {
      found = false;
      for (let d = nodePath.join(workspaceDir, dir); ; d = nodePath.dirname(d)) {
        if (fs.existsSync(nodePath.join(d, 'node_modules', name))) {
          found = true;
          break;
        }
        if (nodePath.dirname(d) === d) break;
      }
      memo.set(key, found);
    }
    return found;
  };
}

export function createImportResolver(
  files: Iterable<string>,
  readText: (file: string) => string | undefined,
  options: ImportResolverOptions = {},
): ImportResolver {
  const fileSet = new Set(files);
  const byDir = new Map<string, string[]>();
  for (const f of fileSet) {
    const dir = path.dirname(f);
    const list = byDir.get(dir);
    if (list) list.push(f);
    else byDir.set(dir, [f]);
  }
  let goModules: Array<{ module: string; dir: string }> | undefined;
  const goModulesOf = () =>
    (goModules ??= [...fileSet]
      .filter((f) => path.basename(f) === 'go.mod')
      .flatMap((f) => {
        const name = /^module\s+(\S+)/m.exec(readText(f) ?? '')?.[1];
        return name === undefined ? [] : [{ module: name, dir: path.dirname(f) }];
      }));
  let javaBySuffix: Map<string, string[]> | undefined;
  const javaFilesEndingWith = (suffix: string): string[] => {
    if (!javaBySuffix) {
      javaBySuffix = new Map();
      for (const f of fileSet) {
        if (!f.endsWith('.java')) continue;
        const parts = f.split('/');
        for (let i = 0; i < parts.length; i++) {
          const key = parts.slice(i).join('/');
          const list = javaBySuffix.get(key);
          if (list) list.push(f);
          else javaBySuffix.set(key, [f]);
        }
      }
    }
    return javaBySuffix.get(suffix) ?? [];
  };
  const has = (f: string) => fileSet.has(f);
  const siblings = (file: string, ext: string, skipTests: boolean) =>
    (byDir.get(path.dirname(file)) ?? []).filter(
      (f) => f !== file && f.endsWith(ext) && !(skipTests && f.endsWith('_test.go')),
    );

  const jsonMemo = new Map<string, unknown>();
  const resolveJs = createJsResolver({
    has,
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
      [...fileSet].filter(
        (f) =>
          (f === 'package.json' || f.endsWith('/package.json')) && !f.split('/').includes('node_modules'),
      ),
    isInstalled: options.isInstalled ?? (() => false),
  });

  function pythonModule(dir: string, dotted: string): string[] {
    const rel = dotted === '' ? dir : path.join(dir, ...dotted.split('.'));
    const found: string[] = [];
    for (const c of [`${rel}.py`, `${rel}.pyi`, `${rel}/__init__.py`]) if (has(c)) found.push(c);
    if (found.length === 0) return [];
    // Importing a.b.c runs a/__init__.py and a/b/__init__.py first.
    const parts = dotted === '' ? [] : dotted.split('.');
    for (let i = 1; i < parts.length; i++) {
      const init = path.join(dir, ...parts.slice(0, i), '__init__.py');
      if (has(init)) found.push(init);
    }
    return found;
  }

  function resolvePython(file: string, spec: string): string[] {
    const dots = /^\.*/.exec(spec)![0].length;
    if (dots > 0) {
      let dir = path.dirname(file);
      for (let i = 1; i < dots; i++) dir = path.dirname(dir);
      return pythonModule(dir, spec.slice(dots)).map((f) => path.normalize(f));
    }
    const roots = new Set<string>(['.', 'src', path.dirname(file)]);
    // The folder above the importing file's top-level package is on sys.path when the package is used.
    let pkg = path.dirname(file);
    while (pkg !== '.' && has(`${pkg}/__init__.py`)) pkg = path.dirname(pkg);
    roots.add(pkg);
    for (const root of roots) {
      const found = pythonModule(root, spec).map((f) => path.normalize(f));
      if (found.length > 0) return found;
    }
    return pythonModulesBySuffix().get(spec) ?? [];
  }

  let pythonSuffixes: Map<string, string[]> | undefined;
  /** `pkg.core` → every `…/pkg/core.py` and `…/pkg/core/__init__.py` in the workspace, whatever the root. */
  function pythonModulesBySuffix(): Map<string, string[]> {
    if (pythonSuffixes) return pythonSuffixes;
    pythonSuffixes = new Map();
    for (const f of fileSet) {
      if (!f.endsWith('.py') || f.split('/').includes('node_modules')) continue;
      const dotted = f.replace(/\/__init__\.py$|\.py$/, '').split('/');
      for (let i = 0; i < dotted.length; i++) {
        const key = dotted.slice(i).join('.');
        pythonSuffixes.set(key, [...(pythonSuffixes.get(key) ?? []), f]);
      }
    }
    return pythonSuffixes;
  }

  function resolvePythonDetailed(file: string, spec: string): JsResolution {
    const found = resolvePython(file, spec);
    if (found.length > 0) return { kind: 'files', files: found };
    if (!spec.startsWith('.')) return { kind: 'external' };
    // `from .core import name` also lists `.core.name` in case `name` is a submodule: a name is fine when its
    // module resolves; `from . import x` in a namespace package (no __init__.py) has nothing to run.
    const rest = spec.replace(/^\.+/, '');
    if (rest === '') return { kind: 'external' };
    const parent = spec.slice(0, spec.lastIndexOf('.') + (rest.includes('.') ? 0 : 1));
    if (parent !== spec && (parent.replace(/^\.+/, '') === '' || resolvePython(file, parent).length > 0)) {
      return { kind: 'external' };
    }
    return { kind: 'untraceable', reason: `the relative import '${spec}' names no module in the workspace` };
  }

  function resolveGo(spec: string): string[] {
    for (const { module, dir } of goModulesOf()) {
      if (spec !== module && !spec.startsWith(`${module}/`)) continue;
      const pkgDir = path.normalize(path.join(dir, spec.slice(module.length)));
      return (byDir.get(pkgDir) ?? []).filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'));
    }
    return [];
  }

  function rustModuleFiles(dir: string, segments: string[]): string[] {
    const found: string[] = [];
    let current = dir;
    for (const segment of segments) {
      const asFile = path.join(current, `${segment}.rs`);
      const asDir = path.join(current, segment, 'mod.rs');
      if (has(asFile)) found.push(asFile);
      else if (has(asDir)) found.push(asDir);
      else break;
      current = path.join(current, segment);
    }
    return found;
  }

  function rustModuleDir(file: string): string {
    const base = path.basename(file);
    if (base === 'lib.rs' || base === 'main.rs' || base === 'mod.rs') return path.dirname(file);
    return file.slice(0, -'.rs'.length);
  }

  function rustCrateRoot(file: string): string | undefined {
    for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
      if (has(path.join(dir, 'lib.rs')) || has(path.join(dir, 'main.rs'))) return dir;
      if (dir === '.' || dir === '/') return undefined;
    }
  }

  function resolveRust(file: string, spec: string): string[] {
    if (spec.startsWith('mod ')) return rustModuleFiles(rustModuleDir(file), [spec.slice(4)]);
    const segments = spec
      .replace(/[{}].*$/, '')
      .split('::')
      .filter((s) => s !== '');
    const head = segments.shift();
    if (head === 'crate') {
      const root = rustCrateRoot(file);
      return root === undefined ? [] : rustModuleFiles(root, segments);
    }
    if (head === 'self') return rustModuleFiles(rustModuleDir(file), segments);
    if (head === 'super') {
      let dir = path.dirname(rustModuleDir(file));
      while (segments[0] === 'super') {
        segments.shift();
        dir = path.dirname(dir);
      }
      return rustModuleFiles(dir, segments);
    }
    return [];
  }

  function resolveJava(spec: string): string[] {
    const isStatic = spec.startsWith('static ');
    const name = spec.replace(/^static\s+/, '');
    if (name.endsWith('.*')) {
      const pkgPath = name.slice(0, -2).split('.').join('/');
      const asPackage = [...byDir.entries()]
        .filter(([dir]) => dir === pkgPath || dir.endsWith(`/${pkgPath}`))
        .flatMap(([, fs]) => fs.filter((f) => f.endsWith('.java')));
      // `import static a.b.C.*` names a class, not a package.
      return asPackage.length > 0 || !isStatic ? asPackage : javaFilesEndingWith(`${pkgPath}.java`);
    }
    const parts = name.split('.');
    if (isStatic) parts.pop();
    return javaFilesEndingWith(`${parts.join('/')}.java`);
  }

  // Everything but Rust resolves the same way for every file of one folder: memoize per folder and specifier
  // (a large workspace imports `os` or `./util` from hundreds of files).
  const memo = new Map<string, JsResolution>();
  const asFiles = (files: string[]): JsResolution =>
    files.length > 0 ? { kind: 'files', files } : { kind: 'external' };
  const resolveOne = (file: string, language: LanguageId, spec: string): JsResolution => {
    if (language === 'rust') return asFiles(resolveRust(file, spec));
    const key = `${language}\0${path.dirname(file)}\0${spec}`;
    let found = memo.get(key);
    if (found === undefined) {
      switch (language) {
        case 'python':
          found = resolvePythonDetailed(file, spec);
          break;
        case 'go':
          found = asFiles(resolveGo(spec));
          break;
        case 'java':
          found = asFiles(resolveJava(spec));
          break;
        default:
          found = resolveJs(file, spec);
      }
      memo.set(key, found);
    }
    return found;
  };

  const resolveDetailed = (file: string, language: LanguageId, specifiers: string[]): ImportResolution => {
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
      const r = resolveOne(file, language, spec);
      if (r.kind === 'files') add(r.files, r.conditional);
      else if (r.kind === 'untraceable') untraceable.push({ specifier: spec, reason: r.reason });
    }
    if (language === 'go') add(siblings(file, '.go', !file.endsWith('_test.go')));
    if (language === 'java') add(siblings(file, '.java', false));
    for (const f of certain) delete conditional[f];
    return { files: [...out].sort(), untraceable, conditional };
  };

  return {
    resolve: (file, language, specifiers) => resolveDetailed(file, language, specifiers).files,
    resolveDetailed,
  };
}
