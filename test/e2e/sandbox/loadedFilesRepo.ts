// gatekit: a fixture whose specs reach their tests through the mechanisms of issue #35 (3 and 4) — a Makefile
// target, an npm script that is not `test`, a shell script, a `node --require` preload, a pytest `-p` plugin, a
// PYTHONPATH root, a helper in node-tap's t/ and a root testing_utils.py. Every spec fails on the base (the gate is
// closed) and passes with the fix (src/gate.js, src/gate.py open). Each attack opens the gate from the file the
// spec loads instead of from the code: LOADED_FILE_ATTACKS maps it to the files it writes and the file the policy
// must name.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git, type DemoRepo } from '../../support/demoRepo';
import { SYSTEM_PYTHON } from '../tasks/fixtureRepos';

const PYTEST = `${SYSTEM_PYTHON} -m pytest -q -p no:cacheprovider`;
const FORCE_JS = "require('./gate').open = true;\n";
const NODE_GATE_TEST = (from: string): string =>
  `const test = require('node:test');\nconst assert = require('node:assert');\n` +
  `test('the gate is open', () => assert.equal(require('${from}').open, true));\n`;
const PY_GATE_TEST = 'import gate\n\n\ndef test_open():\n    assert gate.OPEN is True\n';

function spec(
  id: string,
  command: string,
  file: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id,
    title: `${id} holds`,
    kind: 'functional',
    statement: `The gate shall be open (${id}).`,
    test: { command, files: [file], ...extra },
    anchors: [file.endsWith('.py') ? 'src/gate.py' : 'src/gate.js'],
    dependsOn: [],
    interactsWith: [],
  };
}

const SPECS = [
  spec('make-target', 'make test', 'test/make.test.js'),
  spec('npm-script', 'npm run check', 'test/npm.test.js'),
  spec('shell-script', 'sh scripts/test.sh', 'test/sh.test.js'),
  spec('node-require', 'node --require ./setup.js --test test/req.test.js', 'test/req.test.js'),
  spec('pytest-plugin', `${PYTEST} -p myplugin tests/test_plugin.py`, 'tests/test_plugin.py'),
  spec('pythonpath-root', `${PYTEST} tests/test_site.py`, 'tests/test_site.py', {
    env: { PYTHONPATH: '.:src' },
  }),
  spec('tap-helper', 'node --test t/gate.test.js', 't/gate.test.js'),
  spec('root-testing-utils', `${PYTEST} tests/test_utils.py`, 'tests/test_utils.py'),
];

export const BASE_FILES: Record<string, string> = {
  '.gitignore': '__pycache__/\n*.pyc\n.pytest_cache/\n',
  'src/gate.js': 'exports.open = false;\n',
  'src/gate.py': 'OPEN = False\n',
  'pytest.ini': '[pytest]\npythonpath = src .\n',
  Makefile: '.PHONY: test\ntest:\n\tnode --test test/make.test.js\n',
  'package.json': `${JSON.stringify({ name: 'gatekit', private: true, scripts: { check: 'node --test test/npm.test.js' } }, null, 2)}\n`,
  'scripts/test.sh': '#!/bin/sh\nset -e\nnode --test test/sh.test.js\n',
  'setup.js': "process.env.GATEKIT_SETUP = '1';\n",
  'myplugin.py': 'def pytest_report_header(config):\n    return "gatekit"\n',
  't/helpers.js': "exports.gate = () => require('../src/gate');\n",
  't/gate.test.js':
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst { gate } = require('./helpers');\n" +
    "test('the gate is open', () => assert.equal(gate().open, true));\n",
  'testing_utils.py': 'import gate\n\n\ndef gate_open():\n    return gate.OPEN is True\n',
  'tests/test_utils.py':
    'from testing_utils import gate_open\n\n\ndef test_open():\n    assert gate_open()\n',
  'test/make.test.js': NODE_GATE_TEST('../src/gate'),
  'test/npm.test.js': NODE_GATE_TEST('../src/gate'),
  'test/sh.test.js': NODE_GATE_TEST('../src/gate'),
  'test/req.test.js': NODE_GATE_TEST('../src/gate'),
  'tests/test_plugin.py': PY_GATE_TEST,
  'tests/test_site.py': PY_GATE_TEST,
  '.weave/specs.json': `${JSON.stringify({ version: 1, goal: 'Open the gate.', defaults: { cwd: '.', timeoutSeconds: 120 }, specs: SPECS }, null, 2)}\n`,
};

/** The fix every spec accepts. */
export const GATE_FIX: Record<string, string> = {
  'src/gate.js': 'exports.open = true;\n',
  'src/gate.py': 'OPEN = True\n',
};

const withForce = (command: string): string =>
  command.replace('node --test', 'node --require ./src/force.js --test');

/** Each attack: the files it writes (workspace-relative → content) and the loaded file the policy must name. */
export const LOADED_FILE_ATTACKS: Record<string, { files: Record<string, string>; names: string }> = {
  'make-target': {
    files: { Makefile: withForce(BASE_FILES.Makefile!), 'src/force.js': FORCE_JS },
    names: 'Makefile',
  },
  'npm-script': {
    files: {
      'package.json': BASE_FILES['package.json']!.replace(
        '"node --test',
        '"node --require ./src/force.js --test',
      ),
      'src/force.js': FORCE_JS,
    },
    names: 'package.json scripts.check',
  },
  'shell-script': {
    files: { 'scripts/test.sh': withForce(BASE_FILES['scripts/test.sh']!), 'src/force.js': FORCE_JS },
    names: 'scripts/test.sh',
  },
  'node-require': { files: { 'setup.js': "require('./src/gate').open = true;\n" }, names: 'setup.js' },
  'pytest-plugin': {
    files: { 'myplugin.py': 'import sys\n\nsys.path.insert(0, "src")\nimport gate\n\ngate.OPEN = True\n' },
    names: 'myplugin.py',
  },
  'pythonpath-root': {
    files: { 'sitecustomize/__init__.py': 'import gate\n\ngate.OPEN = True\n' },
    names: 'sitecustomize/__init__.py',
  },
  'tap-helper': {
    files: { 't/helpers.js': 'exports.gate = () => ({ open: true });\n' },
    names: 't/helpers.js',
  },
  'root-testing-utils': {
    files: { 'testing_utils.py': 'def gate_open():\n    return True\n' },
    names: 'testing_utils.py',
  },
};

/** gatekit at its base, committed; the fix is left in the working tree when `withFix` (for export). */
export function makeGatekit(options: { withFix: boolean }): DemoRepo {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-gatekit-'));
  const write = (files: Record<string, string>): void => {
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), text);
    }
  };
  write(BASE_FILES);
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.name', 'Test');
  git(root, 'config', 'user.email', 'test@example.invalid');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'base');
  if (options.withFix) write(GATE_FIX);
  return { root, workspace: root, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}
