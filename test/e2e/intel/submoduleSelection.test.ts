// A git submodule (a gitlink entry, mode 160000) in a workspace, for lazy affected-spec selection: Weave does
// not trace into it, so importing it makes a cone incomplete and changing it selects every spec, each time with
// a reason naming the submodule; it is never taken for a file (its name may even look like one: `chart.js`).
// The same holds over the full index the extension keeps (createIndexer, then affectedSpecs).
import assert from 'node:assert/strict';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { resolveAnchors } from '../../../src/core/anchors/resolve';
import { createIndexer } from '../../../src/core/index';
import { affectedSpecs, type AffectedResult } from '../../../src/core/selection/affected';
import { changedFilesSince } from '../../../src/core/git/changes';
import { selectAffected } from '../../../src/core/selection/selectAffected';
import { loadSpecFile } from '../../../src/core/spec/load';
import { git, initRepo, removeDir, tempDir, writeFiles } from '../../support/repos';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

const spec = (id: string, testFile: string) => ({
  id,
  title: id,
  kind: 'functional',
  statement: `${id} holds`,
  test: { command: `node --test ${testFile}`, files: [testFile] },
});

/** `ws` with the repository `chart` as the submodule `vendor/chart.js`; spec a's code loads it, spec b's not. */
function workspaceWithSubmodule(): { ws: string; submodule: string } {
  const root = tempDir('weave-submodule-');
  dirs.push(root);
  const chart = path.join(root, 'chart');
  writeFiles(chart, { 'index.js': 'module.exports = () => 1;\n' });
  initRepo(chart);
  const ws = path.join(root, 'ws');
  writeFiles(ws, {
    'src/a.js': "const chart = require('../vendor/chart.js');\nmodule.exports = () => chart();\n",
    'src/b.js': 'module.exports = () => 2;\n',
    'test/a.test.js': "require('../src/a.js');\n",
    'test/b.test.js': "require('../src/b.js');\n",
    '.weave/specs.json': JSON.stringify({
      version: 1,
      specs: [spec('a', 'test/a.test.js'), spec('b', 'test/b.test.js')],
    }),
  });
  initRepo(ws);
  git(ws, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', chart, 'vendor/chart.js');
  git(ws, 'commit', '-q', '-m', 'add the chart.js submodule');
  assert.match(git(ws, 'ls-files', '-s', 'vendor/chart.js'), /^160000 /);
  return { ws, submodule: path.join(ws, 'vendor/chart.js') };
}

void test('a cone that imports a git submodule is incomplete, with a reason naming the submodule', async () => {
  const { ws } = workspaceWithSubmodule();
  writeFiles(ws, { 'src/b.js': 'module.exports = () => 3;\n' });
  const result = await selectAffected({ workspaceDir: ws });
  assert.equal(result.all, false);
  const a = result.affected.find((s) => s.id === 'a');
  assert.ok(a, `spec a must be selected: ${JSON.stringify(result.notSelected)}`);
  assert.match(
    a.reasons.join('\n'),
    /its import cone is incomplete \(src\/a\.js imports '\.\.\/vendor\/chart\.js', which Weave cannot trace: vendor\/chart\.js is a git submodule/,
  );
  assert.deepEqual(result.affected.find((s) => s.id === 'b')?.reasons, [
    'src/b.js (module.exports) is in its import cone (test/b.test.js → src/b.js)',
  ]);
});

void test('a changed git submodule selects every spec, with a reason naming the submodule', async () => {
  const { ws, submodule } = workspaceWithSubmodule();
  writeFiles(submodule, { 'index.js': 'module.exports = () => 4;\n' });
  git(submodule, 'commit', '-q', '-a', '-m', 'a new chart');
  const expected = /^vendor\/chart\.js is a git submodule: Weave cannot trace into it/;
  for (const options of [{}, { files: ['vendor/chart.js'] }]) {
    const result = await selectAffected({ workspaceDir: ws, ...options });
    assert.deepEqual(
      result.changes.map((c) => c.path),
      ['vendor/chart.js'],
    );
    assert.equal(result.all, true);
    assert.deepEqual(
      result.affected.map((s) => s.id),
      ['a', 'b'],
    );
    assert.equal(result.allReasons.length, 1);
    assert.match(result.allReasons[0]!, expected);
  }
});

/** What the extension's AffectedSelector does for the working tree's changes: a full index, then affectedSpecs. */
async function selectOverFullIndex(ws: string): Promise<AffectedResult> {
  const loaded = await loadSpecFile(ws);
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.problems));
  const indexer = createIndexer({ workspaceDir: ws, useCache: false, workers: 0 });
  try {
    const index = await indexer.indexWorkspace();
    const { resolved } = resolveAnchors(loaded.specFile, index, { workspaceDir: ws });
    const changes = await changedFilesSince(ws, 'HEAD');
    return affectedSpecs({ specFile: loaded.specFile, index, changes, resolved, workspaceDir: ws });
  } finally {
    indexer.dispose();
  }
}

void test('over the full index, a changed git submodule selects every spec, with a reason naming it', async () => {
  const { ws, submodule } = workspaceWithSubmodule();
  writeFiles(submodule, { 'index.js': 'module.exports = () => 4;\n' });
  git(submodule, 'commit', '-q', '-a', '-m', 'a new chart');
  const result = await selectOverFullIndex(ws);
  assert.equal(result.all, true);
  assert.deepEqual(
    result.affected.map((s) => s.id),
    ['a', 'b'],
  );
  assert.equal(result.allReasons.length, 1);
  assert.match(result.allReasons[0]!, /^vendor\/chart\.js is a git submodule: Weave cannot trace into it/);
});

void test('over the full index, a cone that imports a git submodule is incomplete, with a reason naming it', async () => {
  const { ws } = workspaceWithSubmodule();
  writeFiles(ws, { 'src/b.js': 'module.exports = () => 3;\n' });
  const result = await selectOverFullIndex(ws);
  assert.equal(result.all, false);
  assert.match(
    result.affected.find((s) => s.id === 'a')?.reasons.join('\n') ?? 'spec a is not selected',
    /its import cone is incomplete \(src\/a\.js imports '\.\.\/vendor\/chart\.js', which Weave cannot trace: vendor\/chart\.js is a git submodule/,
  );
});
