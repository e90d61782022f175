// The diff policy on each shape an attacker used and on the legitimate changes next to them: every test-side
// shape must come out test infrastructure naming its file (and key), and the same files changed elsewhere —
// dependency keys, a version, `main` — must not.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  classifyChange,
  describeInfrastructureChange,
  type FileChange,
} from '../../../src/core/sandbox/diffPolicy/classifyChanges';
import { readIniSections } from '../../../src/core/sandbox/diffPolicy/iniSections';
import { policyScopeOf } from '../../../src/core/sandbox/diffPolicy/scope';

const scope = policyScopeOf(
  [
    { test: { files: ['tests/test_basic.py'] } },
    { test: { files: ['test/cache-hit.test.js'], cwd: 'packages/app' } },
  ],
  '.',
);

function added(path: string, after = ''): FileChange {
  return { path, existedBefore: false, existsAfter: true, after };
}
function modified(path: string, before: string, after: string): FileChange {
  return { path, existedBefore: true, existsAfter: true, before, after };
}
function classOf(change: FileChange): string {
  return classifyChange(change, scope).class;
}
function keysOf(change: FileChange): string[] {
  return classifyChange(change, scope).findings.map((f) => f.key ?? f.path);
}

const PKG = JSON.stringify(
  {
    name: 'demo',
    version: '1.0.0',
    main: 'index.js',
    scripts: { test: 'node --test test/', build: 'tsc' },
    dependencies: { a: '1.0.0' },
    mocha: { spec: 'test/**' },
  },
  null,
  2,
);
type Manifest = Record<string, Record<string, unknown> | string>;
const editPkg = (edit: (p: Manifest & { scripts: Record<string, string> }) => void): string => {
  const p = JSON.parse(PKG) as Manifest & { scripts: Record<string, string> };
  edit(p);
  return JSON.stringify(p, null, 2);
};

describe('diff policy: package.json', () => {
  test('dependency keys only: dependency', () => {
    const change = modified(
      'package.json',
      PKG,
      editPkg((p) => {
        p.dependencies = { a: '1.0.0', b: '2.0.0' };
        p.devDependencies = { c: '3.0.0' };
      }),
    );
    assert.equal(classOf(change), 'dependency');
  });
  test('scripts.test, scripts.pretest, mocha.require, jest.setupFilesAfterEnv, vitest, ava: test infrastructure', () => {
    const change = modified(
      'package.json',
      PKG,
      editPkg((p) => {
        p.scripts.test = 'node --test test/ || true';
        p.scripts.pretest = 'node flip.js';
        p.mocha = { spec: 'test/**', require: ['./flip.js'] };
        p.jest = { setupFilesAfterEnv: ['./flip.js'] };
        p.vitest = { setupFiles: 'x' };
        p.ava = { require: 'x' };
      }),
    );
    assert.equal(classOf(change), 'test-infrastructure');
    assert.deepEqual(keysOf(change).sort(), [
      'ava.require',
      'jest.setupFilesAfterEnv',
      'mocha.require',
      'scripts.pretest',
      'scripts.test',
      'vitest.setupFiles',
    ]);
  });
  test('an install hook (run at set-up) is test infrastructure', () => {
    const change = modified(
      'package.json',
      PKG,
      editPkg((p) => (p.scripts.postinstall = 'node x.js')),
    );
    assert.deepEqual(keysOf(change), ['scripts.postinstall']);
  });
  test('main, exports, another script: source', () => {
    const change = modified(
      'package.json',
      PKG,
      editPkg((p) => {
        p.main = 'lib/index.js';
        p.exports = { '.': './lib/index.js' };
        p.scripts.build = 'esbuild';
        p.dependencies = { a: '1.0.0', b: '1.0.0' };
      }),
    );
    assert.equal(classOf(change), 'source');
  });
  test('a package.json that does not parse is test infrastructure, with the reason', () => {
    const result = classifyChange(modified('package.json', PKG, '{ "main": "x", // c\n}'), scope);
    assert.equal(result.class, 'test-infrastructure');
    assert.match(result.findings[0]!.why, /does not parse/);
  });
  test('a new nested package.json with scripts.test is test infrastructure; with only main, source', () => {
    assert.equal(
      classOf(added('packages/lib/package.json', '{"scripts":{"test":"exit 0"}}')),
      'test-infrastructure',
    );
    assert.equal(classOf(added('packages/lib/package.json', '{"main":"a.js"}')), 'source');
  });
});

const PYPROJECT = [
  '[project]',
  'name = "slugkit"',
  'version = "1.0"',
  'dependencies = ["attrs"]',
  '',
  '[tool.pytest.ini_options]',
  'pythonpath = ["src"]',
  '',
  '[tool.ruff]',
  'line-length = 100',
  '',
].join('\n');

describe('diff policy: pyproject.toml', () => {
  test('[project] version: source', () => {
    assert.equal(
      classOf(modified('pyproject.toml', PYPROJECT, PYPROJECT.replace('"1.0"', '"1.1"'))),
      'source',
    );
  });
  test('[project] dependencies, [project.optional-dependencies]: dependency', () => {
    const after = PYPROJECT.replace('["attrs"]', '["attrs", "requests"]').concat(
      '\n[project.optional-dependencies]\ndev = ["black"]\n',
    );
    assert.equal(classOf(modified('pyproject.toml', PYPROJECT, after)), 'dependency');
  });
  test('[tool.pytest.ini_options] addopts = "-p plugin": test infrastructure naming the key', () => {
    const after = PYPROJECT.replace('pythonpath = ["src"]', 'pythonpath = ["src"]\naddopts = "-p flip"');
    const result = classifyChange(modified('pyproject.toml', PYPROJECT, after), scope);
    assert.equal(result.class, 'test-infrastructure');
    assert.deepEqual(
      result.findings.map((f) => f.key),
      ['[tool.pytest.ini_options] addopts'],
    );
    assert.match(
      describeInfrastructureChange(result.findings),
      /pyproject\.toml \[tool\.pytest\.ini_options\] addopts/,
    );
  });
  test('a pytest11 entry point and [tool.tox]: test infrastructure; [tool.ruff]: source', () => {
    assert.deepEqual(
      keysOf(
        modified(
          'pyproject.toml',
          PYPROJECT,
          `${PYPROJECT}\n[project.entry-points.pytest11]\nflip = "flip"\n`,
        ),
      ),
      ['[project.entry-points.pytest11] flip'],
    );
    assert.equal(
      classOf(modified('pyproject.toml', PYPROJECT, `${PYPROJECT}\n[tool.tox]\nlegacy_tox_ini = ""\n`)),
      'test-infrastructure',
    );
    assert.equal(classOf(modified('pyproject.toml', PYPROJECT, PYPROJECT.replace('100', '120'))), 'source');
  });
  test('a pyproject.toml that is not TOML is test infrastructure', () => {
    assert.equal(classOf(modified('pyproject.toml', PYPROJECT, '[project\nname=')), 'test-infrastructure');
  });
});

describe('diff policy: setup.cfg and tox.ini (INI sections)', () => {
  const CFG =
    '[metadata]\nname = x\n\n[options]\ninstall_requires =\n    attrs\n\n[tool:pytest]\ntestpaths = tests\n';
  test('setup.cfg [tool:pytest] addopts: test infrastructure; [options] install_requires: dependency; [metadata]: source', () => {
    assert.deepEqual(
      keysOf(
        modified('setup.cfg', CFG, CFG.replace('testpaths = tests', 'testpaths = tests\naddopts = -p flip')),
      ),
      ['[tool:pytest] addopts'],
    );
    assert.equal(
      classOf(modified('setup.cfg', CFG, CFG.replace('    attrs', '    attrs\n    requests'))),
      'dependency',
    );
    assert.equal(classOf(modified('setup.cfg', CFG, CFG.replace('name = x', 'name = y'))), 'source');
  });
  test('tox.ini [pytest] and [testenv:py]: test infrastructure; [flake8]: source', () => {
    const TOX = '[flake8]\nmax-line-length = 100\n';
    assert.deepEqual(keysOf(modified('tox.ini', TOX, `${TOX}[pytest]\naddopts = -p flip\n`)), [
      '[pytest] addopts',
    ]);
    assert.deepEqual(keysOf(modified('tox.ini', TOX, `${TOX}[testenv:py]\ncommands = true\n`)), [
      '[testenv:py] commands',
    ]);
    assert.equal(classOf(modified('tox.ini', TOX, TOX.replace('100', '120'))), 'source');
  });
  test("lines split as pytest's iniconfig splits them: a key after \\f, \\v, \\x1c, \\x85 or \\r is a key of its own", () => {
    const TOX = '[flake8]\nmax-line-length = 100\n';
    for (const brk of ['\f', '\v', '\x1c', '\x1d', '\x1e', '\x85', '\u2028', '\u2029', '\r']) {
      // Split on \n only, this reads as a new value of [flake8] max-line-length: a source change, applied.
      const hidden = modified(
        'tox.ini',
        TOX,
        `[flake8]\nmax-line-length = 100${brk}[pytest]${brk}addopts = -p flip\n`,
      );
      assert.equal(classOf(hidden), 'test-infrastructure', JSON.stringify(brk));
      assert.deepEqual(keysOf(hidden), ['[pytest] addopts'], JSON.stringify(brk));
    }
    assert.deepEqual(Object.fromEntries(readIniSections('[a]\r\nx = 1\r\ny = 2\r\n').get('a')!), {
      x: '1',
      y: '2',
    });
  });
  test('the section reader follows configparser: continuation lines, ":" and "=", comments, case-folded keys', () => {
    const sections = readIniSections(
      '# top\n[tool:pytest]\nAddOpts = -q\n    -p flip\n\n    --tb=short\n; note\ntestpaths: tests\n[tool:pytest]\nx=1\n',
    );
    assert.deepEqual(Object.fromEntries(sections.get('tool:pytest')!), {
      addopts: '-q\n-p flip\n--tb=short',
      testpaths: 'tests',
      x: '1',
    });
    assert.throws(() => readIniSections('key = before any section\n'), /before the first \[section\]/);
    assert.throws(() => readIniSections('[a]\nnot an entry\n'), /neither a \[section\] nor key = value/);
  });
});

describe('diff policy: files that are test infrastructure by what loads them', () => {
  const infra: Array<[string, FileChange]> = [
    ['a new pytest.toml', added('pytest.toml')],
    ['a new .pytest.toml', added('.pytest.toml')],
    ['pytest.ini', added('pytest.ini')],
    ['conftest.py anywhere', added('src/slugkit/conftest.py')],
    [
      'a dist-info entry point',
      added('src/flip-1.0.dist-info/entry_points.txt', '[pytest11]\nflip = flip\n'),
    ],
    ['an egg-info', added('src/flip.egg-info/entry_points.txt')],
    ['a .pth file', added('src/zz.pth', 'import flip')],
    ['sitecustomize.py', added('lib/sitecustomize.py')],
    ['./pytest.py shadowing pytest', added('pytest.py')],
    ['a _pytest package', added('src/_pytest/python.py')],
    ['pluggy shadowed in a test folder', added('tests/pluggy.py')],
    ['a stdlib module at the root', added('unittest.py')],
    ['a stdlib package in src/', added('src/json/__init__.py')],
    ['a stdlib module in the spec cwd', added('packages/app/os.py')],
    ['vite.config.ts', added('vite.config.ts')],
    ['vitest.config.mts', added('vitest.config.mts')],
    ['vitest.workspace.ts', added('vitest.workspace.ts')],
    ['jest.config.js', added('jest.config.js')],
    ['.mocharc.yml', added('.mocharc.yml')],
    ['.babelrc', added('.babelrc')],
    ['babel.config.cjs', added('babel.config.cjs')],
    ['.npmrc', added('.npmrc')],
    ['.yarnrc.yml', added('.yarnrc.yml')],
    ['a file under node_modules', added('node_modules/assert/index.js')],
    ['a local assert.js next to the tests', added('test/assert.js')],
    ['a spec test file', modified('tests/test_basic.py', 'a', 'b')],
    ['an existing helper in the test folder', modified('test/clock.js', 'a', 'b')],
    ['a new helper in the test folder', added('test/helper.js')],
    ['Weave state', modified('.weave/specs.json', '{}', '{"version":1}')],
    [
      'setup.py registering a pytest11 entry point',
      modified('setup.py', 'setup()', "setup(entry_points={'pytest11': ['f = f']})"),
    ],
  ];
  for (const [what, change] of infra) {
    test(`${what}: test infrastructure`, () => {
      const result = classifyChange(change, scope);
      assert.equal(result.class, 'test-infrastructure');
      assert.equal(result.findings[0]!.path, change.path);
      assert.ok(result.findings[0]!.why.length > 0);
    });
  }
  const source: Array<[string, FileChange]> = [
    ['ordinary source', modified('src/slugkit/slug.py', 'a', 'b')],
    ['a module named like stdlib deeper in a package', added('src/slugkit/json.py')],
    ['a stdlib-named folder without __init__.py (a namespace portion)', added('src/json/data.txt')],
    ['a new test next to the spec tests', added('tests/test_more.py')],
    ['a new JS test', added('test/more.test.js')],
    ['setup.py without entry points', modified('setup.py', 'setup()', "setup(name='x')")],
    ['Weave run state', added('.weave/runs/x.json')],
    ['a JS file named like a Node builtin', added('src/events.js')],
  ];
  for (const [what, change] of source) {
    test(`${what}: source`, () => assert.equal(classOf(change), 'source'));
  }
  test('requirements and lock files: dependency', () => {
    assert.equal(classOf(modified('requirements-dev.txt', 'a', 'b')), 'dependency');
    assert.equal(classOf(modified('package-lock.json', '{}', '{"a":1}')), 'dependency');
  });
});
