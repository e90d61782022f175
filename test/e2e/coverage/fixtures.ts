// Workspaces for the coverage tests: a single-module library whose tests `require('..')` (every test loads the
// whole module, so its import cones cannot tell the specs apart), a test that reaches the library through a
// child Node process, and a Python package tested with pytest and unittest.
import { readCoverageStore } from '../../../src/core/coverage/store';
import { unitLabel } from '../../../src/core/coverage/types';

const nodeSpec = (id: string, command: string, files: string[]) => ({
  id,
  title: id,
  kind: 'functional',
  statement: id,
  test: { command, files },
});

export const LIBRARY: Record<string, string> = {
  'package.json': '{ "name": "tally", "version": "1.0.0", "main": "index.js" }\n',
  'index.js': [
    "'use strict';",
    '// A single-module library: everything in one file.',
    'const DEFAULT_STEP = 1;',
    '',
    'function add(a, b) {',
    '  return a + b;',
    '}',
    '',
    'function mul(a, b) {',
    '  return a * b;',
    '}',
    '',
    'const twice = (x) => {',
    '  return mul(x, 2);',
    '};',
    '',
    'class Counter {',
    '  constructor() {',
    '    this.n = 0;',
    '  }',
    '  step() {',
    '    this.n = add(this.n, DEFAULT_STEP);',
    '    return this.n;',
    '  }',
    '}',
    '',
    'function lazyTool() {',
    "  return require('./lib/tool').tool();",
    '}',
    '',
    'module.exports = { add, mul, twice, Counter, lazyTool };',
    '',
  ].join('\n'),
  'lib/tool.js': "exports.tool = () => 'tool';\n",
  'test/add.test.js': [
    "const test = require('node:test');",
    "const assert = require('node:assert');",
    "const { add } = require('..');",
    "test('adds', () => assert.equal(add(2, 3), 5));",
    '',
  ].join('\n'),
  'test/counter.test.js': [
    "const test = require('node:test');",
    "const assert = require('node:assert');",
    "const { Counter } = require('..');",
    "test('counts', () => { const c = new Counter(); c.step(); assert.equal(c.step(), 2); });",
    '',
  ].join('\n'),
  // The test reaches the library only through a child process, as `npx some-cli` would.
  'test/twice.test.js': [
    "const test = require('node:test');",
    "const assert = require('node:assert');",
    "const { execFileSync } = require('node:child_process');",
    "const path = require('node:path');",
    "test('twice in a child process', () => {",
    "  const out = execFileSync(process.execPath, [path.join(__dirname, 'print-twice.js')]);",
    "  assert.equal(String(out).trim(), '8');",
    '});',
    '',
  ].join('\n'),
  'test/print-twice.js': "console.log(require('..').twice(4));\n",
  // The spec's command is a launcher that starts the test runner in a child process (npx-like).
  'scripts/launch.js': [
    "const { spawnSync } = require('node:child_process');",
    "const r = spawnSync(process.execPath, ['--test', ...process.argv.slice(2)], { stdio: 'inherit' });",
    'process.exit(r.status ?? 1);',
    '',
  ].join('\n'),
  '.weave/specs.json': JSON.stringify(
    {
      version: 1,
      specs: [
        nodeSpec('adds', 'node --test test/add.test.js', ['test/add.test.js']),
        nodeSpec('counts', 'node scripts/launch.js test/counter.test.js', ['test/counter.test.js']),
        nodeSpec('twice', 'node --test test/twice.test.js', ['test/twice.test.js', 'test/print-twice.js']),
      ],
    },
    null,
    2,
  ),
};

export const PYTHON_PACKAGE: Record<string, string> = {
  'slugs/__init__.py': 'from .core import slug, Box\n',
  'slugs/core.py': [
    'import functools',
    '',
    '',
    'def slug(text):',
    "    return '-'.join(part for part in text.lower().split())",
    '',
    '',
    'def unused():',
    '    return 1',
    '',
    '',
    'def logged(fn):',
    '    @functools.wraps(fn)',
    '    def wrapper(*args):',
    '        return fn(*args)',
    '    return wrapper',
    '',
    '',
    'class Box:',
    '    @logged',
    '    def get(self):',
    '        return 42',
    '',
  ].join('\n'),
  'extra/helpers.py': 'def shout(s):\n    return s.upper()\n',
  'tests/test_slug.py': [
    'from slugs import slug',
    '',
    '',
    'def test_slug():',
    "    assert slug('A b') == 'a-b'",
    '',
  ].join('\n'),
  'tests/test_box.py': [
    'import unittest',
    'from slugs import Box',
    'from helpers import shout',
    '',
    '',
    'class BoxTest(unittest.TestCase):',
    '    def test_get(self):',
    '        self.assertEqual(Box().get(), 42)',
    "        self.assertEqual(shout('a'), 'A')",
    '',
  ].join('\n'),
  '.weave/specs.json': JSON.stringify(
    {
      version: 1,
      specs: [
        nodeSpec('slug', '/usr/bin/python3 -m pytest -q tests/test_slug.py', ['tests/test_slug.py']),
        {
          ...nodeSpec('box', 'python3 -m unittest tests.test_box', ['tests/test_box.py']),
          test: {
            command: 'python3 -m unittest tests.test_box',
            files: ['tests/test_box.py'],
            env: { PYTHONPATH: 'extra' },
          },
        },
      ],
    },
    null,
    2,
  ),
};

/** `file#name` of every definition a spec executed, as stored (and `file (top level)` is not listed). */
export async function executed(workspaceDir: string, specId: string): Promise<string[]> {
  const store = await readCoverageStore(workspaceDir);
  const record = store.specs[specId];
  if (!record) return [];
  return Object.entries(record.files)
    .flatMap(([file, c]) => c.functions.map((i) => unitLabel(file, store.units[c.hash], i)))
    .sort();
}
