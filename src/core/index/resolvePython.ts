// Python import resolution against the workspace's file list:
// - relative (`from .a import b` → a.py or a/__init__.py, and a/b.py when `b` is a submodule; `from . import x`
//   → x.py, else the package's __init__.py);
// - absolute modules found under the workspace root, `src/`, the importing file's folder or its top-level
//   package's parent; the parent packages' __init__.py files are imported too (Python runs them). `import pkg`
//   is pkg/__init__.py alone: what that file imports is followed from there, not every module of the package.
//   A module found under none of those roots but somewhere in the workspace (a dotted path suffix) is taken
//   too, to be safe;
// - anything else absolute is external (the standard library, installed packages); a relative import naming
//   no module cannot be traced.
import path from 'node:path/posix';
import type { ModuleResolution, WorkspaceFileSet } from './moduleResolution';

export function createPythonResolver(
  workspace: WorkspaceFileSet,
): (file: string, spec: string) => ModuleResolution {
  const has = (f: string): boolean => workspace.has(f);

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
    for (const f of workspace.files) {
      if (!f.endsWith('.py') || f.split('/').includes('node_modules')) continue;
      const dotted = f.replace(/\/__init__\.py$|\.py$/, '').split('/');
      for (let i = 0; i < dotted.length; i++) {
        const key = dotted.slice(i).join('.');
        pythonSuffixes.set(key, [...(pythonSuffixes.get(key) ?? []), f]);
      }
    }
    return pythonSuffixes;
  }

  return (file, spec) => {
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
  };
}
