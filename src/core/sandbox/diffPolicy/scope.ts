// What the diff policy needs to know about a project's specs, whoever holds them (a spec file for agent runs,
// a task's specs for eval): the spec test files, the folders their commands start in, and from those the
// folders on the test's import path and the test folders whose existing helpers are protected.
import path from 'node:path';
import { looksLikeTestFile } from '../../../shared/testFileNames';
import type { LoadedSet } from '../commandLoads/loadedSet';

export interface PolicyScope {
  /** Workspace-relative, '/'-separated spec test files. */
  testFiles: ReadonlySet<string>;
  /**
   * Folders ('' = the workspace root) Python puts on sys.path for a spec test: the root, `src/`, each spec's
   * cwd, and each test file's folder with its ancestors (pytest's rootdir-relative insertion, `python -m` from
   * a cwd, a src layout).
   */
  importRoots: ReadonlySet<string>;
  /** The nearest enclosing test/, tests/, __tests__/, spec/, specs/ folder of each spec test file. */
  testFolders: readonly string[];
  /**
   * What the specs' commands and tests load, read from the pristine tree (commandLoads/specLoads.ts); absent
   * where only the spec list is known (the protected set is then the by-name part alone).
   */
  loaded?: LoadedSet;
}

interface SpecLike {
  test: { files: readonly string[]; cwd?: string | undefined };
}

const TEST_FOLDER_NAMES = new Set(['test', 'tests', '__tests__', 'spec', 'specs']);

/** The scope of a spec file's specs (or a task's): `defaultCwd` is the spec file's `defaults.cwd`. */
export function policyScopeOf(specs: readonly SpecLike[], defaultCwd = '.'): PolicyScope {
  const testFiles = new Set(specs.flatMap((s) => s.test.files.map(normalisePath)));
  const importRoots = new Set<string>(['', 'src']);
  for (const spec of specs) importRoots.add(folderOf(spec.test.cwd ?? defaultCwd));
  for (const file of testFiles) {
    for (let dir = path.posix.dirname(file); dir !== '.' && dir !== ''; dir = path.posix.dirname(dir))
      importRoots.add(dir);
  }
  return { testFiles, importRoots, testFolders: testFoldersOf(testFiles) };
}

function testFoldersOf(testFiles: ReadonlySet<string>): string[] {
  const folders = new Set<string>();
  for (const file of testFiles) {
    const parts = file.split('/').slice(0, -1);
    for (let i = parts.length; i > 0; i--) {
      if (TEST_FOLDER_NAMES.has(parts[i - 1] as string)) {
        folders.add(parts.slice(0, i).join('/'));
        break;
      }
    }
  }
  return [...folders];
}

/** Whether a file in a test folder is a test (new ones may be added) rather than a helper the tests load. */
export { looksLikeTestFile };

export function normalisePath(p: string): string {
  return path.posix.normalize(p.replace(/\\/g, '/')).replace(/^(\.\/)+/, '');
}

function folderOf(cwd: string): string {
  const n = normalisePath(cwd).replace(/\/+$/, '');
  return n === '.' ? '' : n;
}
