// The helpers a spec's test loads, wherever they live (node-tap's t/, a root testing_utils.py, e2e/, fixtures/):
// the files reached by imports from the spec test files (and the conftest.py files pytest loads on their way, and
// the files the command preloads), up to the code under test. The line between the two:
//  - code under test is every anchor file, every other file in a folder holding an anchor file (the package being
//    tested; the workspace root excepted, where tests and code sit side by side), and everything those files
//    import, transitively;
//  - a helper is a file reached from a test that is none of those. A test that imports a source file no anchor
//    reaches protects that file too: anchoring the spec there (or on a file importing it) says it is under test.
// The scan is lexical (require/import/export-from strings, Python import statements), not the index's resolver:
// the sandbox sits below the index in the layer order and runs before every contained batch. A string in a comment
// may add a file; a computed import adds nothing, which the runner hooks' module loads would catch (issue #35).
import path from 'node:path';
import { isFile, readText } from './loadedSet';
import { resolveNodeFile } from './runnerConfigs';

const MAX_FILES = 2_000;
const JS_FILE = /\.[cm]?[jt]sx?$/;

export interface ImportRoots {
  /** Folders Python resolves absolute imports from (the policy scope's import roots, PYTHONPATH). */
  python: readonly string[];
  /** NODE_PATH folders (bare specifiers resolve there after node_modules). */
  node: readonly string[];
}

/** The files reached from `starts` by imports, stopping at (and excluding) `stopAt`; `starts` excluded. */
export function importClosure(
  starts: readonly string[],
  roots: ImportRoots,
  stopAt: (file: string) => boolean,
): Set<string> {
  const reached = new Set<string>();
  const queue = [...starts];
  const seen = new Set(starts);
  while (queue.length > 0 && seen.size < MAX_FILES) {
    const file = queue.shift()!;
    for (const imported of importsOf(file, roots)) {
      if (seen.has(imported)) continue;
      seen.add(imported);
      if (stopAt(imported)) continue;
      reached.add(imported);
      queue.push(imported);
    }
  }
  return reached;
}

/** The workspace files one file imports (those that exist). */
export function importsOf(file: string, roots: ImportRoots): string[] {
  const text = readText(file);
  if (text === undefined) return [];
  if (JS_FILE.test(file)) return jsImports(file, text, roots.node);
  if (file.endsWith('.py')) return pythonImports(file, text, roots.python);
  return [];
}

function jsImports(file: string, text: string, nodePaths: readonly string[]): string[] {
  const specifiers = [
    ...text.matchAll(/\brequire\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g),
    ...text.matchAll(/\bimport\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g),
    ...text.matchAll(/\b(?:import|export)\s+(?:[^'"`;]*?\s+from\s+)?['"]([^'"]+)['"]/g),
  ].map((m) => m[1]!);
  const found: string[] = [];
  for (const specifier of specifiers) {
    const bases =
      specifier.startsWith('.') || specifier.startsWith('/')
        ? [path.resolve(path.dirname(file), specifier)]
        : specifier.startsWith('node:')
          ? []
          : nodePaths.map((root) => path.join(root, specifier));
    for (const base of bases) {
      const resolved = resolveNodeFile(base);
      if (isFile(resolved)) {
        found.push(resolved);
        break;
      }
    }
  }
  return found;
}

function pythonImports(file: string, text: string, roots: readonly string[]): string[] {
  const found: string[] = [];
  const add = (candidate: string | undefined): void => {
    if (candidate !== undefined) found.push(candidate);
  };
  for (const line of text.split(/\r?\n/)) {
    const plain = /^\s*import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)/.exec(line);
    if (plain) {
      for (const part of plain[1]!.split(',')) add(pythonModuleFile(part.trim().split(/\s+/)[0]!, roots));
      continue;
    }
    const from = /^\s*from\s+(\.*)([\w.]*)\s+import\s+\(?\s*([\w\s,]+)/.exec(line);
    if (!from) continue;
    const [, dots, module, names] = from as unknown as [string, string, string, string];
    let bases = roots;
    if (dots.length > 0) {
      let dir = path.dirname(file);
      for (let i = 1; i < dots.length; i++) dir = path.dirname(dir);
      bases = [dir];
    }
    if (module !== '') add(pythonModuleFile(module, bases));
    for (const name of names
      .split(',')
      .map((n) => n.trim().split(/\s+/)[0]!)
      .filter(Boolean))
      add(pythonModuleFile(module === '' ? name : `${module}.${name}`, bases));
  }
  return found;
}

/** `a.b` as a/b.py or a/b/__init__.py under the first root that has it (with the packages on the way). */
function pythonModuleFile(module: string, roots: readonly string[]): string | undefined {
  const rel = module.split('.').join(path.sep);
  for (const root of roots) {
    for (const candidate of [`${rel}.py`, path.join(rel, '__init__.py')]) {
      const file = path.join(root, candidate);
      if (isFile(file)) return file;
    }
  }
  return undefined;
}
