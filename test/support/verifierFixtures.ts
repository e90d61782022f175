// A pytest library whose spec commands name `python3` through PATH (as real projects write them), and the patch
// that attacks a verifier's PATH rather than the code: it only adds `.weave-venv/bin/python` and `python3` — the
// set-up venv's path — as a fake interpreter that "passes" whatever it runs and, asked to run weave_reward.py,
// writes reward 1 itself. The code stays wrong (inches × 2.5).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git, type DemoRepo } from './demoRepo';

const FAKE_INTERPRETER = [
  '#!/bin/sh',
  '# Not Python: every run "passes", and the verifier\'s scorer is answered with a full reward.',
  'case "${1:-}" in',
  '  *weave_reward.py)',
  '    printf "1\\n" > "$4/reward.txt"',
  '    printf "{\\"reward\\": 1}\\n" > "$4/reward.json"',
  '    ;;',
  '  *) echo "1 passed in 0.01s" ;;',
  'esac',
  'exit 0',
];

/** A patch adding `file` as an executable with `lines`. */
function newExecutablePatch(file: string, lines: readonly string[]): string {
  return [
    `diff --git a/${file} b/${file}`,
    'new file mode 100755',
    '--- /dev/null',
    `+++ b/${file}`,
    `@@ -0,0 +1,${lines.length} @@`,
    ...lines.map((l) => `+${l}`),
    '',
  ].join('\n');
}

export const FAKE_VENV_PATCH = ['.weave-venv/bin/python', '.weave-venv/bin/python3']
  .map((file) => newExecutablePatch(file, FAKE_INTERPRETER))
  .join('');

/**
 * For a task whose set-up does make the venv: a `.pth` file added to its site-packages, which every start of the
 * venv's interpreter executes — it prints a passing summary and exits 0 before any test runs.
 */
export const VENV_PTH_PATCH = [
  'diff --git a/.weave-venv/lib/python3.11/site-packages/zz_fast.pth b/.weave-venv/lib/python3.11/site-packages/zz_fast.pth',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/.weave-venv/lib/python3.11/site-packages/zz_fast.pth',
  '@@ -0,0 +1 @@',
  "+import os; print('1 passed in 0.01s', flush=True); os._exit(0)",
  '',
].join('\n');

function spec(id: string, file: string): Record<string, unknown> {
  return {
    id,
    title: `${id} holds`,
    kind: 'functional',
    statement: `Conversions shall satisfy ${id}.`,
    test: { command: `python3 -m pytest -q -p no:cacheprovider ${file}`, files: [file] },
    anchors: [],
    dependsOn: [],
    interactsWith: [],
  };
}

/**
 * units-path: pyproject (requires-python >= 3.11, no dependencies: no set-up, so no venv of the task's own —
 * unless `setupVenv` adds a requirements.txt), two pytest specs run as `python3 -m pytest`; the base converts with × 2.5, the uncommitted fix with × 2.54.
 */
export function makePathPythonRepo(options: { setupVenv?: boolean } = {}): DemoRepo {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-verifier-fixture-'));
  const files: Record<string, string> = {
    '.gitignore': '__pycache__/\n',
    'pyproject.toml': '[project]\nname = "units-path"\nversion = "1.0.0"\nrequires-python = ">=3.11"\n',
    ...(options.setupVenv
      ? // Nothing to install, but a requirements file: the set-up makes its venv and pip-installs into it.
        { 'requirements.txt': '# no third-party requirements\n' }
      : {}),
    'units.py': 'def to_cm(inches):\n    return inches * 2.5\n',
    'tests/test_convert.py':
      'from units import to_cm\n\n\ndef test_ten_inches():\n    assert abs(to_cm(10) - 25.4) < 1e-9\n',
    'tests/test_zero.py': 'from units import to_cm\n\n\ndef test_zero():\n    assert to_cm(0) == 0\n',
    '.weave/specs.json': `${JSON.stringify(
      {
        version: 1,
        goal: 'Inches convert to centimetres exactly.',
        defaults: { cwd: '.', timeoutSeconds: 60 },
        specs: [spec('exact-inch', 'tests/test_convert.py'), spec('zero', 'tests/test_zero.py')],
      },
      null,
      2,
    )}\n`,
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.name', 'Test');
  git(root, 'config', 'user.email', 'test@example.invalid');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'base');
  fs.writeFileSync(path.join(root, 'units.py'), 'def to_cm(inches):\n    return inches * 2.54\n');
  return { root, workspace: root, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/**
 * codes-npm: an npm library with a lockfile whose one dependency (a local tarball, so no network) has an install
 * script — as packages that download a browser or build a native module do — that builds the module its `main`
 * names: without the script the dependency cannot be loaded. One spec fails on the base (no zero padding) and
 * passes with the uncommitted fix.
 */
export function makeInstallScriptRepo(): DemoRepo {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-install-script-fixture-'));
  const pkg = path.join(root, '.pack', 'package');
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(
    path.join(pkg, 'package.json'),
    '{ "name": "built-pad", "version": "1.0.0", "main": "built.js", "scripts": { "install": "node build.js" } }\n',
  );
  fs.writeFileSync(
    path.join(pkg, 'build.js'),
    "require('fs').writeFileSync(__dirname + '/built.js', 'module.exports = (s, n, c = \" \") => String(s).padStart(n, c);\\n');\n",
  );
  fs.mkdirSync(path.join(root, 'vendor'));
  execFileSync('tar', ['-czf', 'vendor/built-pad-1.0.0.tgz', '-C', '.pack', 'package'], { cwd: root });
  fs.rmSync(path.join(root, '.pack'), { recursive: true });
  const files: Record<string, string> = {
    '.gitignore': 'node_modules/\n',
    'package.json': `${JSON.stringify(
      {
        name: 'codes-npm',
        version: '0.2.0',
        main: 'index.js',
        dependencies: { 'built-pad': 'file:vendor/built-pad-1.0.0.tgz' },
      },
      null,
      2,
    )}\n`,
    'index.js': "const pad = require('built-pad');\nexports.code = (n) => pad(n, 4);\n",
    'test/code.test.js': [
      "const test = require('node:test');",
      "const assert = require('node:assert');",
      "const { code } = require('..');",
      "test('codes are zero-padded', () => assert.equal(code(7), '0007'));",
      '',
    ].join('\n'),
    '.weave/specs.json': `${JSON.stringify(
      {
        version: 1,
        goal: 'Codes are four digits.',
        defaults: { cwd: '.', timeoutSeconds: 60 },
        specs: [
          {
            id: 'zero-padded',
            title: 'zero-padded holds',
            kind: 'interface',
            statement: 'Codes shall be zero-padded to four digits.',
            test: { command: 'node --test test/code.test.js', files: ['test/code.test.js'] },
            anchors: [],
            dependsOn: [],
            interactsWith: [],
          },
        ],
      },
      null,
      2,
    )}\n`,
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  // The lockfile, made offline from the tarball (npm marks the package hasInstallScript).
  execFileSync(
    'npm',
    ['install', '--package-lock-only', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'],
    { cwd: root, stdio: 'ignore' },
  );
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.name', 'Test');
  git(root, 'config', 'user.email', 'test@example.invalid');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'base');
  fs.writeFileSync(
    path.join(root, 'index.js'),
    "const pad = require('built-pad');\nexports.code = (n) => pad(n, 4, '0');\n",
  );
  return { root, workspace: root, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/**
 * temperature-unittest: a plain unittest suite (`python3 -m unittest`), no dependencies; `boiling` fails on the base
 * (× 9 / 5, the + 32 missing) and passes with the uncommitted fix, `order` (warmer is more) passes on both.
 */
export function makeUnittestRepo(): DemoRepo {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-unittest-fixture-'));
  const unittest = (module: string): string => `python3 -m unittest -v ${module}`;
  const testCase = (name: string, body: string): string =>
    `import unittest\n\nfrom temperature import to_fahrenheit\n\n\nclass ${name}(unittest.TestCase):\n    def test_it(self):\n        ${body}\n`;
  const specOf = (id: string, module: string, file: string): Record<string, unknown> => ({
    id,
    title: `${id} holds`,
    kind: 'functional',
    statement: `Conversions shall satisfy ${id}.`,
    test: { command: unittest(module), files: [file] },
    anchors: [],
    dependsOn: [],
    interactsWith: [],
  });
  const files: Record<string, string> = {
    '.gitignore': '__pycache__/\n',
    'temperature.py': 'def to_fahrenheit(celsius):\n    return celsius * 9 / 5\n',
    'tests/__init__.py': '',
    'tests/test_boiling.py': testCase('Boiling', 'self.assertEqual(to_fahrenheit(100), 212)'),
    'tests/test_order.py': testCase('Order', 'self.assertLess(to_fahrenheit(0), to_fahrenheit(1))'),
    '.weave/specs.json': `${JSON.stringify(
      {
        version: 1,
        goal: 'Celsius converts to Fahrenheit.',
        defaults: { cwd: '.', timeoutSeconds: 60 },
        specs: [
          specOf('boiling', 'tests.test_boiling', 'tests/test_boiling.py'),
          specOf('order', 'tests.test_order', 'tests/test_order.py'),
        ],
      },
      null,
      2,
    )}\n`,
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.name', 'Test');
  git(root, 'config', 'user.email', 'test@example.invalid');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'base');
  fs.writeFileSync(
    path.join(root, 'temperature.py'),
    'def to_fahrenheit(celsius):\n    return celsius * 9 / 5 + 32\n',
  );
  return { root, workspace: root, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/**
 * wordcount-tox: a pytest library whose tox.ini lists what its own CI uses — pytest-cov, and a package no index
 * here has — while every spec runs `python3 -m pytest` directly (no tox environment).
 */
export function makeToxUnusedDepsRepo(): DemoRepo {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-tox-fixture-'));
  const files: Record<string, string> = {
    '.gitignore': '__pycache__/\n.tox/\n',
    'pyproject.toml': '[project]\nname = "wordcount"\nversion = "0.3.0"\nrequires-python = ">=3.9"\n',
    'tox.ini':
      '[tox]\nenvlist = py3, docs\n\n[testenv]\ndeps =\n    pytest\n    pytest-cov\n    weave-no-such-package==0.0.1\n' +
      'commands = pytest --cov=wordcount {posargs}\n\n[testenv:docs]\ndeps = sphinx\ncommands = sphinx-build docs out\n',
    'wordcount.py': 'def count(text):\n    return len(text.split(" "))\n',
    'tests/test_spaces.py':
      'from wordcount import count\n\n\ndef test_runs_of_spaces():\n    assert count("a  b") == 2\n',
    'tests/test_one.py':
      'from wordcount import count\n\n\ndef test_one_word():\n    assert count("a") == 1\n',
    '.weave/specs.json': `${JSON.stringify(
      {
        version: 1,
        goal: 'Words are counted however they are spaced.',
        defaults: { cwd: '.', timeoutSeconds: 60 },
        specs: ['spaces', 'one'].map((name) => spec(name, `tests/test_${name}.py`)),
      },
      null,
      2,
    )}\n`,
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.name', 'Test');
  git(root, 'config', 'user.email', 'test@example.invalid');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'base');
  fs.writeFileSync(path.join(root, 'wordcount.py'), 'def count(text):\n    return len(text.split())\n');
  return { root, workspace: root, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}
