// Repositories in the shapes of the open-source ones `weave export` once failed on (issue #23), as temp git
// repositories: their dependencies come from the real npm registry (through this machine's TLS-intercepting
// proxy, as users' do) or, for Python, from what the system has (Debian's pytest; PyPI is not reachable here).
// Each has a committed base where one spec fails and the fix uncommitted in the work tree. Nothing is cached in
// the project: every export installs afresh into its own scratch folders.
//   npm-mocha        mocha as a registry devDependency, no lockfile (the usual library)
//   vitest-ts        vitest over TypeScript sources and tests, with a package-lock.json
//   ts-pretest       tests that require a git-ignored build/ that `npm test`'s pretest makes with tsc
//   python-tox-src   a src layout whose tox.ini has setenv (PYTHONPATH) and deps (pytest)
//   unittest         a plain unittest suite, no dependencies
//   broken-setup     mocha plus a dependency that does not exist: the set-up must fail fast, and say so
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeSetupHome, setupVariables } from '../../src/core/sandbox/setupEnvironment';
import { gitIn, writeFiles } from './gitRepo';

export interface RegistryRepo {
  root: string;
  cleanup: () => Promise<void>;
}

export const REGISTRY_SHAPES = [
  'npm-mocha',
  'vitest-ts',
  'ts-pretest',
  'python-tox-src',
  'unittest',
  'broken-setup',
] as const;
export type RegistryShape = (typeof REGISTRY_SHAPES)[number];

/** The dependency `broken-setup` names: a scope nobody has published. */
export const MISSING_PACKAGE = '@weave-nonexistent/pkg';

// Exact versions: the same install every run (vitest 3 runs on Node 20 and 24).
const MOCHA = '10.8.2';
const VITEST = '3.2.4';
const TYPESCRIPT = '5.6.3';

interface Shape {
  base: Record<string, string>;
  fix: Record<string, string>;
  /** Runs in the repository before the base commit (a lockfile made against the registry). */
  prepare?: (root: string) => Promise<void>;
}

export async function makeRegistryRepo(shape: RegistryShape): Promise<RegistryRepo> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), `weave-${shape}-`)));
  const { base, fix, prepare } = SHAPES[shape]();
  gitIn(root, 'init', '-q', '-b', 'main');
  await writeFiles(root, base);
  await prepare?.(root);
  gitIn(root, 'add', '-A');
  gitIn(root, 'commit', '-q', '-m', 'base');
  await writeFiles(root, fix);
  return { root, cleanup: () => fs.rm(root, { recursive: true, force: true }) };
}

const SHAPES: Record<RegistryShape, () => Shape> = {
  'npm-mocha': () => ({
    base: {
      '.gitignore': 'node_modules/\n',
      'package.json': packageJson('padkit', { test: 'mocha' }, { mocha: MOCHA }),
      'index.js': PAD_BASE,
      'test/pad.test.js': mochaTest('pads short strings', "assert.equal(padStart('7', 3, '0'), '007');"),
      'test/long.test.js': mochaTest(
        'leaves long strings alone',
        "assert.equal(padStart('1234', 3, '0'), '1234');",
      ),
      '.weave/specs.json': specFile('padStart pads with the fill character.', [
        spec('pads-short', 'functional', 'npx mocha test/pad.test.js', 'test/pad.test.js'),
        spec('keeps-long', 'compatibility', 'npx mocha test/long.test.js', 'test/long.test.js'),
      ]),
    },
    fix: { 'index.js': PAD_FIX },
  }),
  'broken-setup': () => {
    const shape = SHAPES['npm-mocha']();
    shape.base['package.json'] = packageJson(
      'padkit',
      { test: 'mocha' },
      { mocha: MOCHA, [MISSING_PACKAGE]: '1.0.0' },
    );
    return shape;
  },
  'vitest-ts': () => ({
    base: {
      '.gitignore': 'node_modules/\n',
      'package.json': packageJson('rangekit', { test: 'vitest run' }, { vitest: VITEST }, 'module'),
      'tsconfig.json': `${JSON.stringify({ compilerOptions: { strict: true, module: 'esnext', target: 'es2022', moduleResolution: 'bundler' } }, null, 2)}\n`,
      'src/range.ts':
        'export function range(start: number, end: number): number[] {\n  const out: number[] = [];\n  for (let i = start; i < end - 1; i++) out.push(i);\n  return out;\n}\n',
      'test/range.test.ts':
        "import { expect, test } from 'vitest';\nimport { range } from '../src/range';\n\ntest('range is end-exclusive', () => {\n  expect(range(1, 4)).toEqual([1, 2, 3]);\n});\n",
      'test/empty.test.ts':
        "import { expect, test } from 'vitest';\nimport { range } from '../src/range';\n\ntest('an empty range', () => {\n  expect(range(3, 3)).toEqual([]);\n});\n",
      '.weave/specs.json': specFile('range(start, end) yields start..end-1.', [
        spec('end-exclusive', 'functional', 'npx vitest run test/range.test.ts', 'test/range.test.ts'),
        spec('empty-range', 'reliability', 'npx vitest run test/empty.test.ts', 'test/empty.test.ts'),
      ]),
    },
    fix: {
      'src/range.ts':
        'export function range(start: number, end: number): number[] {\n  const out: number[] = [];\n  for (let i = start; i < end; i++) out.push(i);\n  return out;\n}\n',
    },
    prepare: lockDependencies,
  }),
  'ts-pretest': () => ({
    base: {
      '.gitignore': 'node_modules/\nbuild/\n',
      'package.json': packageJson(
        'clampkit',
        { pretest: 'tsc -p .', test: 'node --test' },
        { typescript: TYPESCRIPT },
      ),
      'tsconfig.json': `${JSON.stringify({ compilerOptions: { strict: true, module: 'commonjs', target: 'es2022', outDir: 'build', rootDir: 'src' }, include: ['src'] }, null, 2)}\n`,
      'src/clamp.ts':
        'export function clamp(value: number, low: number, high: number): number {\n  return Math.max(low, value);\n}\n',
      'test/clamp.test.js':
        "const test = require('node:test');\nconst assert = require('node:assert/strict');\nconst { clamp } = require('../build/clamp.js');\n\ntest('clamps to the upper bound', () => {\n  assert.equal(clamp(12, 0, 10), 10);\n});\n",
      'test/low.test.js':
        "const test = require('node:test');\nconst assert = require('node:assert/strict');\nconst { clamp } = require('../build/clamp.js');\n\ntest('clamps to the lower bound', () => {\n  assert.equal(clamp(-3, 0, 10), 0);\n});\n",
      '.weave/specs.json': specFile('clamp keeps a value within [low, high].', [
        spec('upper-bound', 'functional', 'npm test -- test/clamp.test.js', 'test/clamp.test.js'),
        spec('lower-bound', 'functional', 'npm test -- test/low.test.js', 'test/low.test.js'),
      ]),
    },
    fix: {
      'src/clamp.ts':
        'export function clamp(value: number, low: number, high: number): number {\n  return Math.min(high, Math.max(low, value));\n}\n',
    },
  }),
  'python-tox-src': () => ({
    base: {
      '.gitignore': '__pycache__/\n.tox/\n',
      'pyproject.toml': '[project]\nname = "wordkit"\nversion = "1.2.0"\nrequires-python = ">=3.9"\n',
      'tox.ini':
        '[tox]\nenvlist = py3\n\n[testenv]\nsetenv =\n    PYTHONPATH = {toxinidir}/src\ndeps =\n    pytest\ncommands = pytest {posargs}\n',
      'src/wordkit/__init__.py': 'from .count import word_count\n\n__all__ = ["word_count"]\n',
      'src/wordkit/count.py': 'def word_count(text):\n    return len(text.split(" "))\n',
      'tests/test_count.py':
        'from wordkit import word_count\n\n\ndef test_runs_of_spaces():\n    assert word_count("a  b   c") == 3\n',
      'tests/test_single.py':
        'from wordkit import word_count\n\n\ndef test_one_word():\n    assert word_count("word") == 1\n',
      // The spec's env is tox's setenv: how the project's own test runs find the src layout.
      '.weave/specs.json': specFile('word_count counts words, however they are spaced.', [
        spec('runs-of-spaces', 'functional', pytest('tests/test_count.py'), 'tests/test_count.py', {
          PYTHONPATH: 'src',
        }),
        spec('single-word', 'functional', pytest('tests/test_single.py'), 'tests/test_single.py', {
          PYTHONPATH: 'src',
        }),
      ]),
    },
    fix: { 'src/wordkit/count.py': 'def word_count(text):\n    return len(text.split())\n' },
  }),
  unittest: () => ({
    base: {
      '.gitignore': '__pycache__/\n',
      'temperature.py': 'def to_fahrenheit(celsius):\n    return celsius * 9 / 5\n',
      'tests/__init__.py': '',
      'tests/test_boiling.py':
        'import unittest\n\nfrom temperature import to_fahrenheit\n\n\nclass Boiling(unittest.TestCase):\n    def test_boiling(self):\n        self.assertEqual(to_fahrenheit(100), 212)\n',
      'tests/test_zero.py':
        'import unittest\n\nfrom temperature import to_fahrenheit\n\n\nclass Zero(unittest.TestCase):\n    def test_zero(self):\n        self.assertEqual(to_fahrenheit(0), 32)\n',
      '.weave/specs.json': specFile('to_fahrenheit converts Celsius to Fahrenheit.', [
        spec('boiling', 'functional', 'python3 -m unittest -v tests.test_boiling', 'tests/test_boiling.py'),
        spec('freezing', 'functional', 'python3 -m unittest -v tests.test_zero', 'tests/test_zero.py'),
      ]),
    },
    fix: { 'temperature.py': 'def to_fahrenheit(celsius):\n    return celsius * 9 / 5 + 32\n' },
  }),
};

/** A package-lock.json resolved against the registry, made the way a user makes one (no install). */
async function lockDependencies(root: string): Promise<void> {
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-lock-'));
  try {
    const home = await makeSetupHome(scratch);
    execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...setupVariables(home) },
      stdio: 'pipe',
      timeout: 180_000,
    });
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

const PAD_BASE =
  'function padStart(text, width, fill) {\n  return text.length >= width ? text : fill + text;\n}\n\nmodule.exports = { padStart };\n';
const PAD_FIX =
  'function padStart(text, width, fill) {\n  let out = text;\n  while (out.length < width) out = fill + out;\n  return out;\n}\n\nmodule.exports = { padStart };\n';

function mochaTest(title: string, body: string): string {
  return `const assert = require('node:assert/strict');\nconst { padStart } = require('..');\n\ndescribe('padStart', () => {\n  it('${title}', () => {\n    ${body}\n  });\n});\n`;
}

function packageJson(
  name: string,
  scripts: Record<string, string>,
  devDependencies: Record<string, string>,
  type?: string,
): string {
  const pkg = {
    name,
    version: '1.0.0',
    private: true,
    ...(type ? { type } : {}),
    main: 'index.js',
    scripts,
    devDependencies,
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

function pytest(file: string): string {
  return `python3 -m pytest -q -p no:cacheprovider ${file}`;
}

function spec(
  id: string,
  kind: string,
  command: string,
  file: string,
  env: Record<string, string> = {},
): Record<string, unknown> {
  return {
    id,
    title: `${id} holds`,
    kind,
    statement: `The library shall satisfy ${id}.`,
    test: { command, files: [file], env },
    anchors: [],
    dependsOn: [],
    interactsWith: [],
  };
}

function specFile(goal: string, specs: Array<Record<string, unknown>>): string {
  return `${JSON.stringify({ version: 1, goal, defaults: { cwd: '.', timeoutSeconds: 120 }, specs }, null, 2)}\n`;
}
