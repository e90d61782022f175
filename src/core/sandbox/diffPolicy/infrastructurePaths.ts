// Which files decide how the tests run by their path alone, whatever they contain: a test runner loads them
// (conftest.py, pytest.toml, jest.config.js, .mocharc.yml), Python's start-up loads them (*.pth,
// sitecustomize.py, a *.dist-info entry point), they stand in for a runner or a standard-library module on the
// test's import path (./pytest.py, src/unittest.py), or they are the spec's own tests and Weave's state. The
// files that are test infrastructure only in some keys (package.json, pyproject.toml, setup.cfg, tox.ini) are
// manifestKeys.ts's; dependency-only files are named here too.
import path from 'node:path';
import { PYTHON_STDLIB_MODULES } from './pythonStdlibModules';
import { looksLikeTestFile, type PolicyScope } from './scope';

/** Why a path is test infrastructure; undefined when its path alone does not make it so. */
export function infrastructureByPath(rel: string, scope: PolicyScope): string | undefined {
  const name = path.posix.basename(rel);
  const segments = rel.split('/');
  if (scope.testFiles.has(rel)) return 'a spec test file';
  const loaded = scope.loaded?.files.get(rel);
  if (loaded !== undefined) return loaded;
  if (segments[0] === '.weave' && segments[1] !== 'runs' && segments[1] !== 'cache') return "Weave's state";
  if (segments.some((s) => s === 'node_modules'))
    return 'under node_modules/: Node resolves packages (and the runners) from there';
  if (segments.some((s) => /\.(dist|egg)-info$/.test(s)))
    return 'installed-package metadata: its entry points (pytest11) load plugins into pytest';
  if (/\.(pth|egg-link)$/.test(name)) return 'Python runs .pth files at start-up';
  const byName = runnerFileReason(name);
  if (byName) return byName;
  const shadow = shadowedModule(rel, scope);
  if (shadow) return shadow;
  // Helpers, fixtures and data the spec tests load; a new test file beside them is not one.
  if (!looksLikeTestFile(rel) && scope.testFolders.some((folder) => rel.startsWith(`${folder}/`)))
    return 'a helper in the spec tests’ folder';
  return undefined;
}

/** Why a file by this name configures or is loaded by a runner wherever it is (conftest.py, jest.config.js). */
export function runnerFileReason(name: string): string | undefined {
  return RUNNER_FILES.find(([pattern]) => pattern.test(name))?.[1];
}

/** Files only a package manager reads: a change to them alone is a dependency change. */
export function isDependencyFile(rel: string): boolean {
  return /^(requirements[^/]*\.(txt|in)|constraints[^/]*\.txt|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|poetry\.lock|uv\.lock|Pipfile(\.lock)?)$/.test(
    path.posix.basename(rel),
  );
}

const CONFIG_EXT = '\\.[cm]?[jt]s(on)?$|\\.ya?ml$|\\.json5?$|\\.toml$';
const RUNNER_FILES: Array<[RegExp, string]> = [
  [/^conftest\.py$/, 'pytest loads every conftest.py on the way to a test'],
  [/^\.?pytest\.(ini|toml)$/, "pytest's configuration file"],
  [/^(sitecustomize|usercustomize)\.py$/, 'Python imports it at start-up'],
  [/^noxfile\.py$/, "nox's session definitions"],
  [/^\.mocharc(\..+)?$/, "mocha's configuration file"],
  [/^\.(taprc|c8rc|nycrc)(\..+)?$/, 'a test or coverage runner’s configuration file'],
  [
    new RegExp(
      `^(jest|vitest|vite|ava|playwright|karma|babel|tap|c8|nyc)\\.config(${CONFIG_EXT})|^vitest\\.(workspace|projects)(${CONFIG_EXT})`,
    ),
    'a test runner’s (or its transformer’s) configuration file',
  ],
  [/^karma\.conf\.[cm]?[jt]s$/, "karma's configuration file"],
  [/^\.babelrc(\..+)?$/, "Babel's configuration file (jest and mocha transform tests through it)"],
  [/^\.npmrc$/, "npm's configuration (node-options= reaches every npm test)"],
  [/^\.yarnrc(\.yml)?$/, "yarn's configuration"],
  [/^\.pnpmfile\.cjs$/, "pnpm's install hooks"],
];

// pytest's own modules and what it imports first: a file by these names on the import path replaces the runner.
const PYTHON_RUNNER_MODULES = new Set(['pytest', '_pytest', 'pluggy', 'py', 'iniconfig']);
// Names a Node test resolves by file: an assertion library or runner shadowed next to the tests.
const NODE_RUNNER_FILE = /^(assert|chai|expect|should|mocha|jest|vitest|ava|tap|uvu)\.[cm]?[jt]sx?$/;

/**
 * A module file directly in a folder on the test's import path named like a runner or a standard-library
 * module (`pytest.py`, `src/unittest.py`, `json/__init__.py`): imported instead of the real one. A folder
 * without `__init__.py` is a namespace portion, which never wins over a real module, so only module files and
 * packages' `__init__.py` count; runner packages count whole (`_pytest/**`).
 */
function shadowedModule(rel: string, scope: PolicyScope): string | undefined {
  for (const root of scope.importRoots) {
    const inside = root === '' ? rel : rel.startsWith(`${root}/`) ? rel.slice(root.length + 1) : undefined;
    if (inside === undefined) continue;
    const parts = inside.split('/');
    const where = root === '' ? 'the workspace root' : `${root}/`;
    if (parts.length === 1) {
      const file = parts[0]!;
      const module = /^([A-Za-z_][A-Za-z0-9_]*)(\.[^.]+)*\.(py|pyc|so|pyd)$/.exec(file)?.[1];
      if (module !== undefined && (PYTHON_RUNNER_MODULES.has(module) || PYTHON_STDLIB_MODULES.has(module)))
        return `shadows the Python module ${module} (on the test's import path: ${where})`;
      if (NODE_RUNNER_FILE.test(file))
        return `shadows the Node package ${file.replace(/\..*$/, '')} next to the tests (${where})`;
      continue;
    }
    const pkg = parts[0]!;
    if (PYTHON_RUNNER_MODULES.has(pkg))
      return `shadows the Python package ${pkg} (on the test's import path: ${where})`;
    if (parts.length === 2 && parts[1] === '__init__.py' && PYTHON_STDLIB_MODULES.has(pkg))
      return `shadows the Python module ${pkg} (on the test's import path: ${where})`;
  }
  return undefined;
}
