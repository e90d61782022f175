// Per-spec coverage recorded by `weave check`: real node:test, pytest and unittest runs, every process traced.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { checkWorkspace } from '../../../src/core/fullCheck/checkWorkspace';
import { readCoverageStore } from '../../../src/core/coverage/store';
import { git, initRepo, removeDir, repoRoot, tempDir, writeFiles } from '../../support/repos';
import { LIBRARY, PYTHON_PACKAGE, executed } from './fixtures';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});
function workspace(files: Record<string, string>): string {
  const dir = tempDir('weave-coverage-');
  dirs.push(dir);
  writeFiles(dir, files);
  initRepo(dir);
  return dir;
}

void test('a node:test spec records the functions it executed, and not the others', async () => {
  const dir = workspace(LIBRARY);
  const result = await checkWorkspace({ workspaceDir: dir, concurrency: 2 });
  assert.deepEqual(
    result.run.results.map((r) => r.verdict),
    ['pass', 'pass', 'pass'],
  );
  assert.deepEqual(await executed(dir, 'adds'), ['index.js#add']);
  const store = await readCoverageStore(dir);
  const lines = store.specs.adds?.files['index.js']?.lines ?? [];
  const hit = (line: number): number | undefined => lines.find(([a, b]) => a <= line && line <= b)?.[2];
  assert.equal(hit(6), 1, 'the body of add ran');
  assert.equal(hit(10), 0, 'the body of mul did not');
  // The raw tracer output is gone once mapped.
  assert.deepEqual(fs.readdirSync(path.join(dir, '.weave/cache/coverage/raw')), []);
  assert.equal(result.coverage?.specs, 3);
});

void test('processes a spec starts are traced: a launcher that spawns the runner, a test that spawns node', async () => {
  const dir = workspace(LIBRARY);
  await checkWorkspace({ workspaceDir: dir, concurrency: 2 });
  // Constructors are symbols of their own (Weave's definitions query adds them to the stock tags).
  assert.deepEqual(await executed(dir, 'counts'), [
    'index.js#Counter.constructor',
    'index.js#Counter.step',
    'index.js#add',
  ]);
  assert.deepEqual(await executed(dir, 'twice'), ['index.js#mul', 'index.js#twice']);
});

void test('Python: pytest (Debian) and unittest (pyenv) specs record code objects by qualified name', async () => {
  const dir = workspace(PYTHON_PACKAGE);
  const result = await checkWorkspace({ workspaceDir: dir, concurrency: 2 });
  assert.deepEqual(
    result.run.results.map((r) => [r.id, r.verdict]),
    [
      ['slug', 'pass'],
      ['box', 'pass'],
    ],
    result.run.results.map((r) => r.output).join('\n'),
  );
  const slug = await executed(dir, 'slug');
  assert.ok(slug.includes('slugs/core.py#slug'), slug.join(', '));
  assert.ok(slug.includes('tests/test_slug.py#test_slug'), slug.join(', '));
  assert.ok(!slug.some((f) => f.endsWith('#unused')), slug.join(', '));
  assert.ok(!slug.some((f) => f.endsWith('#Box.get')), slug.join(', '));
  const box = await executed(dir, 'box');
  // A decorated method (co_firstlineno is the decorator's line), the decorator's inner function, and a module
  // found through the spec's own PYTHONPATH, which the hook's directory was put in front of.
  for (const name of ['slugs/core.py#Box.get', 'slugs/core.py#logged.wrapper', 'extra/helpers.py#shout'])
    assert.ok(box.includes(name), `${name} in ${box.join(', ')}`);
  assert.ok(!box.some((f) => f.endsWith('#slug')), box.join(', '));
});

void test('coverage is keyed by content: a changed file gets a new entry, with git’s blob id', async () => {
  const dir = workspace(LIBRARY);
  await checkWorkspace({ workspaceDir: dir, only: ['adds'] });
  const before = (await readCoverageStore(dir)).specs.adds?.files['index.js']?.hash;
  assert.equal(before, git(dir, 'rev-parse', 'HEAD:index.js').trim());
  fs.writeFileSync(path.join(dir, 'index.js'), LIBRARY['index.js']!.replace('a + b', 'b + a'));
  await checkWorkspace({ workspaceDir: dir, only: ['adds'] });
  const after = (await readCoverageStore(dir)).specs.adds?.files['index.js']?.hash;
  assert.notEqual(after, before);
  assert.equal(after, git(dir, 'hash-object', 'index.js').trim());
  // The old content's definitions are dropped with the last entry that used them.
  assert.equal((await readCoverageStore(dir)).units[before!], undefined);
});

void test('--no-coverage (and --no-record) record nothing; a damaged store reads as empty', async () => {
  const dir = workspace(LIBRARY);
  const cli = path.join(repoRoot, 'dist/cli.js');
  for (const flag of ['--no-coverage', '--no-record']) {
    const r = spawnSync(process.execPath, [cli, 'check', '--only', 'adds', flag], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /coverage recorded/);
    assert.equal(fs.existsSync(path.join(dir, '.weave/cache/coverage')), false, flag);
  }
  const r = spawnSync(process.execPath, [cli, 'check', '--only', 'adds'], { cwd: dir, encoding: 'utf8' });
  assert.match(r.stdout, /coverage recorded: 1 spec, 2 files/);
  fs.writeFileSync(path.join(dir, '.weave/cache/coverage/coverage-v1.json'), '{ not json');
  assert.deepEqual((await readCoverageStore(dir)).specs, {});
});
