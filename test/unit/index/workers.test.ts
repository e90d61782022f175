import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createIndexer, type WorkspaceIndex } from '../../../src/core/index';
import { copyDir, langsFixture, repoRoot, tempDir } from '../../support/indexHelpers';

describe('index: worker threads', () => {
  let dir: string;
  before(() => {
    // Over the in-thread threshold (1 MB) so the pool really runs: the fixture plus TypeScript's lib .d.ts files.
    dir = tempDir('workers');
    copyDir(langsFixture, dir);
    const lib = path.join(repoRoot, 'node_modules/typescript/lib');
    fs.mkdirSync(path.join(dir, 'tslib'));
    for (const f of fs.readdirSync(lib).filter((n) => n.startsWith('lib.') && n.endsWith('.d.ts'))) {
      fs.copyFileSync(path.join(lib, f), path.join(dir, 'tslib', f));
    }
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const run = async (workers: number): Promise<{ index: WorkspaceIndex; liveTrees: number }> => {
    const indexer = createIndexer({ workspaceDir: dir, useCache: false, workers });
    try {
      const index = await indexer.indexWorkspace();
      return { index, liveTrees: indexer.liveTreeCount() };
    } finally {
      indexer.dispose();
    }
  };

  it('two workers give exactly the single-threaded result, and no tree is left alive', async () => {
    const single = await run(0);
    const pooled = await run(2);
    assert.ok(single.index.stats.bytes > 1024 * 1024, 'the corpus is big enough for the pool');
    assert.ok(single.index.files.size > 50);
    assert.deepEqual([...pooled.index.files.keys()], [...single.index.files.keys()]);
    assert.deepEqual([...pooled.index.files.values()], [...single.index.files.values()]);
    assert.deepEqual(pooled.index.skipped, single.index.skipped);
    assert.equal(single.liveTrees, 0);
    assert.equal(pooled.liveTrees, 0);
  });

  it('an aborted index rejects with the abort reason (the pool workers are terminated)', async () => {
    const indexer = createIndexer({ workspaceDir: dir, useCache: false, workers: 2 });
    const controller = new AbortController();
    const pending = indexer.indexWorkspace({ signal: controller.signal });
    controller.abort(new Error('stop'));
    await assert.rejects(pending, /stop/);
    indexer.dispose();
  });
});
