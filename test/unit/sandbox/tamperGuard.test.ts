// The tamper guard over the diff policy's protected set, on a real folder: files a runner picks up by mechanism
// (a new pytest.toml, a dist-info entry point, a module shadowing pytest) are found and removed; package.json and
// pyproject.toml count only in their test keys, and then come back whole.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { isProtectedPath, TamperGuard } from '../../../src/core/sandbox/protectedFiles';
import type { SpecFile } from '../../../src/shared/specSchema';

const specFile = {
  version: 1,
  goal: 'g',
  defaults: { cwd: '.', env: {}, timeoutSeconds: 60 },
  specs: [
    {
      id: 'basic',
      title: 't',
      kind: 'functional',
      statement: 's',
      test: { command: 'python3 -m pytest tests/test_basic.py', files: ['tests/test_basic.py'] },
      anchors: [],
      dependsOn: [],
      interactsWith: [],
    },
  ],
} as unknown as SpecFile;

const PACKAGE = `${JSON.stringify({ name: 'x', main: 'a.js', scripts: { test: 'node --test' } }, null, 2)}\n`;
const PYPROJECT = '[project]\nname = "x"\nversion = "1"\n\n[tool.pytest.ini_options]\npythonpath = ["src"]\n';

describe('TamperGuard: the protected set by mechanism', () => {
  let dir: string;
  const write = (rel: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  const read = (rel: string): string => fs.readFileSync(path.join(dir, rel), 'utf8');

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-guard-'));
    write('tests/test_basic.py', 'def test_x():\n    assert False\n');
    write('package.json', PACKAGE);
    write('pyproject.toml', PYPROJECT);
    write('src/app.py', 'X = 1\n');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('new pytest.toml, dist-info entry point and a pytest.py shadow are found and removed', async () => {
    const guard = await TamperGuard.create(dir, specFile);
    write('pytest.toml', '[pytest]\naddopts = ["-p", "flip"]\n');
    write('src/flip-1.0.dist-info/entry_points.txt', '[pytest11]\nflip = flip\n');
    write('pytest.py', 'raise SystemExit(0)\n');
    write('src/app.py', 'X = 2\n');
    const found = await guard.inspectAndRestore();
    assert.deepEqual(found, [
      { path: 'pytest.py', change: 'created' },
      { path: 'pytest.toml', change: 'created' },
      { path: 'src/flip-1.0.dist-info/entry_points.txt', change: 'created' },
    ]);
    for (const f of found) assert.equal(fs.existsSync(path.join(dir, f.path)), false);
    assert.equal(read('src/app.py'), 'X = 2\n', 'source is not the guard’s');
  });

  test('package.json: scripts.test changed → tampered, the whole file restored; main changed → left alone', async () => {
    const guard = await TamperGuard.create(dir, specFile);
    const withMain = PACKAGE.replace('"a.js"', '"b.js"');
    write('package.json', withMain);
    assert.deepEqual(await guard.inspectAndRestore(), []);
    assert.equal(read('package.json'), withMain);
    write('package.json', withMain.replace('node --test', 'node --test || true'));
    assert.deepEqual(await guard.inspectAndRestore(), [{ path: 'package.json', change: 'changed' }]);
    assert.equal(read('package.json'), PACKAGE, 'restored from pristine, whole');
  });

  test('pyproject.toml: [tool.pytest.ini_options] addopts → tampered; [project] version → left alone', async () => {
    const guard = await TamperGuard.create(dir, specFile);
    write('pyproject.toml', PYPROJECT.replace('version = "1"', 'version = "2"'));
    assert.deepEqual(await guard.inspectAndRestore(), []);
    write('pyproject.toml', `${PYPROJECT}addopts = "-p flip"\n`);
    assert.deepEqual(await guard.inspectAndRestore(), [{ path: 'pyproject.toml', change: 'changed' }]);
    assert.equal(read('pyproject.toml'), PYPROJECT);
  });

  test('a package.json that appears with a test script is removed; one with only main is not', async () => {
    const guard = await TamperGuard.create(dir, specFile);
    write('lib/package.json', '{"main": "x.js"}');
    write('tools/package.json', '{"scripts": {"pretest": "node flip.js"}}');
    assert.deepEqual(await guard.inspectAndRestore(), [{ path: 'tools/package.json', change: 'created' }]);
    assert.equal(fs.existsSync(path.join(dir, 'lib/package.json')), true);
  });

  test('isProtectedPath keeps its signature and answers by mechanism', () => {
    assert.equal(isProtectedPath('pytest.toml', specFile), true);
    assert.equal(isProtectedPath('./pytest.py', specFile), true);
    assert.equal(isProtectedPath('src/x-1.dist-info/entry_points.txt', specFile), true);
    assert.equal(isProtectedPath('vite.config.ts', specFile), true);
    assert.equal(isProtectedPath('tests/test_basic.py', specFile), true);
    assert.equal(isProtectedPath('setup.cfg', specFile), true);
    assert.equal(isProtectedPath('src/app.py', specFile), false);
    assert.equal(isProtectedPath('package.json', specFile), false, 'protected by key, not whole');
  });
});
