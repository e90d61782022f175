// The tamper guard on folder chains deeper than a path can name (issue #22, robustness): code under test can
// build one with mkdir + cd and leave a runner configuration (a conftest.py) at the bottom, where every full path
// is longer than PATH_MAX. The guard's walk used to stop there without a word; now such a chain, made during the
// run, is a finding of its own (the run cannot pass), and one that was there from the start is not. Real
// python3 (it can chdir below PATH_MAX where dash's cd gives up), a real file system.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { removeTree } from '../../../src/core/deepTrees';
import { TamperGuard } from '../../../src/core/sandbox/protectedFiles';
import { specFileSchema } from '../../../src/shared/specSchema';

const specFile = specFileSchema.parse({
  version: 1,
  specs: [
    {
      id: 't',
      title: 't',
      kind: 'functional',
      statement: 's',
      test: { command: 'pytest tests', files: ['tests/test_a.py'] },
    },
  ],
});

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await removeTree(d);
});

function workspace(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-deep-guard-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'tests'));
  fs.writeFileSync(path.join(dir, 'tests/test_a.py'), 'def test_a():\n    assert True\n');
  return dir;
}

/** `levels` folders named `name` inside `dir`, each entered by a relative chdir, and a conftest.py at the bottom. */
function chain(dir: string, name: string, levels: number): void {
  const script = [
    'import os, sys',
    'name, levels = sys.argv[1], int(sys.argv[2])',
    'for _ in range(levels):',
    '    os.mkdir(name)',
    '    os.chdir(name)',
    'open("conftest.py", "w").write("x\\n")',
  ].join('\n');
  execFileSync('python3', ['-c', script, name, String(levels)], { cwd: dir });
}

describe('the tamper guard and folder chains past PATH_MAX', () => {
  test('a chain whose paths pass PATH_MAX, made during the run, is a finding that names it', async () => {
    const dir = workspace();
    const guard = await TamperGuard.create(dir, specFile);
    chain(dir, 'n'.repeat(250), 20); // 20 × 251 characters: past PATH_MAX (4,096) from level 17 on
    const found = await guard.inspectAndRestore();
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.match(found[0]!.path, /^n{250}\/n{250}\/n{250}\/…\(\d+ levels, not inspected\)\/$/);
    assert.equal(found[0]!.change, 'created');
    assert.deepEqual(guard.affectedSpecs(found, ['t']), ['t']);
  });

  test('a chain deeper than 64 levels is a finding too, even with short names', async () => {
    const dir = workspace();
    const guard = await TamperGuard.create(dir, specFile);
    chain(dir, 'd', 100);
    const found = await guard.inspectAndRestore();
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.match(found[0]!.path, /^d\/d\/d\/…\(65 levels, not inspected\)\/$/);
  });

  test('control: the same chain there before the run is not a finding, and a shallow conftest.py still is', async () => {
    const dir = workspace();
    chain(dir, 'n'.repeat(250), 20);
    const guard = await TamperGuard.create(dir, specFile);
    assert.deepEqual(await guard.inspectAndRestore(), []);
    fs.writeFileSync(path.join(dir, 'conftest.py'), 'x\n');
    assert.deepEqual(await guard.inspectAndRestore(), [{ path: 'conftest.py', change: 'created' }]);
  });
});
