// Two fixture libraries whose failing spec test asserts through a helper file of its test folder (one the spec
// does not list in test.files), and for each the cheat a prediction can make without touching the code: rewrite
// the helper so that the buggy code passes. Every verifier must lay the task's own helper back before scoring.
//   units-js: node:test, test/helpers.js (FROM node:22-bookworm when exported)
//   units-py: pytest, tests/helpers.py, pyproject requires-python >= 3.11 (FROM python:3.11-slim)
// Each starts with a committed base (inches × 2.5) and the fix (× 2.54) uncommitted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git, type DemoRepo } from './demoRepo';

export interface HelperFixture {
  repo: DemoRepo;
  /** The helper the failing spec's test requires. */
  helper: string;
  /** A prediction that edits only the helper, so the buggy code passes. */
  cheatPatch: string;
}

function spec(id: string, command: string, file: string): Record<string, unknown> {
  return {
    id,
    title: `${id} holds`,
    kind: 'functional',
    statement: `Conversions shall satisfy ${id}.`,
    test: { command, files: [file] },
    anchors: [],
    dependsOn: [],
    interactsWith: [],
  };
}

function makeRepo(files: Record<string, string>, fix: [file: string, text: string]): DemoRepo {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-helper-fixture-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'user.name', 'Test');
  git(root, 'config', 'user.email', 'test@example.invalid');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'base');
  fs.writeFileSync(path.join(root, fix[0]), fix[1]);
  return { root, workspace: root, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

function specFile(specs: Array<Record<string, unknown>>): string {
  const file = {
    version: 1,
    goal: 'Inches convert to centimetres exactly.',
    defaults: { cwd: '.', timeoutSeconds: 60 },
    specs,
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** A one-hunk patch replacing a whole file's text (git apply reads it). */
function replaceFilePatch(file: string, before: string, after: string): string {
  const lines = (text: string): string[] => text.replace(/\n$/, '').split('\n');
  const old = lines(before);
  const next = lines(after);
  return [
    `--- a/${file}`,
    `+++ b/${file}`,
    `@@ -1,${old.length} +1,${next.length} @@`,
    ...old.map((l) => `-${l}`),
    ...next.map((l) => `+${l}`),
    '',
  ].join('\n');
}

const JS_HELPER = [
  "const assert = require('node:assert/strict');",
  'exports.expectClose = (actual, expected) =>',
  '  assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} is not ${expected}`);',
  '',
].join('\n');

export function makeJsHelperFixture(): HelperFixture {
  const repo = makeRepo(
    {
      'package.json': `${JSON.stringify({ name: 'units-js', version: '1.2.0', main: 'index.js', scripts: { test: 'node --test test/' } }, null, 2)}\n`,
      'index.js': 'exports.toCm = (inches) => inches * 2.5;\n',
      'test/helpers.js': JS_HELPER,
      'test/convert.test.js': [
        "const test = require('node:test');",
        "const { expectClose } = require('./helpers.js');",
        "const { toCm } = require('..');",
        "test('ten inches are 25.4 cm', () => expectClose(toCm(10), 25.4));",
        '',
      ].join('\n'),
      'test/zero.test.js': [
        "const test = require('node:test');",
        "const { expectClose } = require('./helpers.js');",
        "const { toCm } = require('..');",
        "test('zero stays zero', () => expectClose(toCm(0), 0));",
        '',
      ].join('\n'),
      '.weave/specs.json': specFile([
        spec('exact-inch', 'node --test test/convert.test.js', 'test/convert.test.js'),
        spec('zero', 'node --test test/zero.test.js', 'test/zero.test.js'),
      ]),
    },
    ['index.js', 'exports.toCm = (inches) => inches * 2.54;\n'],
  );
  return {
    repo,
    helper: 'test/helpers.js',
    cheatPatch: replaceFilePatch('test/helpers.js', JS_HELPER, 'exports.expectClose = () => {};\n'),
  };
}

const PY_HELPER =
  'def assert_close(actual, expected):\n    assert abs(actual - expected) < 1e-9, (actual, expected)\n';
const pytest = (file: string): string => `/usr/bin/python3 -m pytest -q -p no:cacheprovider ${file}`;

export function makePythonHelperFixture(): HelperFixture {
  const repo = makeRepo(
    {
      '.gitignore': '__pycache__/\n',
      'pyproject.toml': '[project]\nname = "units-py"\nversion = "1.2.0"\nrequires-python = ">=3.11"\n',
      'units.py': 'def to_cm(inches):\n    return inches * 2.5\n',
      'tests/helpers.py': PY_HELPER,
      'tests/test_convert.py':
        'from helpers import assert_close\nfrom units import to_cm\n\n\ndef test_ten_inches():\n    assert_close(to_cm(10), 25.4)\n',
      'tests/test_zero.py':
        'from helpers import assert_close\nfrom units import to_cm\n\n\ndef test_zero():\n    assert_close(to_cm(0), 0)\n',
      '.weave/specs.json': specFile([
        spec('exact-inch', pytest('tests/test_convert.py'), 'tests/test_convert.py'),
        spec('zero', pytest('tests/test_zero.py'), 'tests/test_zero.py'),
      ]),
    },
    ['units.py', 'def to_cm(inches):\n    return inches * 2.54\n'],
  );
  return {
    repo,
    helper: 'tests/helpers.py',
    cheatPatch: replaceFilePatch(
      'tests/helpers.py',
      PY_HELPER,
      'def assert_close(actual, expected):\n    pass\n',
    ),
  };
}
