// indexWorkspace({ only }): the files a caller needs (coverage maps the files a run executed), not the
// workspace; the same extraction and imports as a full pass, and the on-disk cache kept whole.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createIndexer, type WorkspaceIndex } from '../../../src/core/index';
import type { IndexWorkspaceOptions } from '../../../src/core/index/indexer';
import { copyDir, langsFixture, tempDir } from '../../support/indexHelpers';

describe('index: a pass over some files', () => {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  const fixtureCopy = () => {
    const dir = tempDir('only');
    dirs.push(dir);
    copyDir(langsFixture, dir);
    return dir;
  };
  const run = async (dir: string, options: IndexWorkspaceOptions = {}, useCache = true) => {
    const indexer = createIndexer({ workspaceDir: dir, workers: 0, useCache });
    try {
      const index = await indexer.indexWorkspace(options);
      return { index, current: indexer.current };
    } finally {
      indexer.dispose();
    }
  };
  const entry = (index: WorkspaceIndex, file: string) => JSON.stringify(index.files.get(file));

  it('indexes exactly the listed files asked for, as a full pass would, imports included', async () => {
    const dir = fixtureCopy();
    const full = (await run(dir, {}, false)).index;
    const asked = ['web/client.ts', 'main.py', 'not/listed.ts'];
    const { index, current } = await run(dir, { only: asked }, false);
    assert.deepEqual([...index.files.keys()], ['main.py', 'web/client.ts']);
    for (const file of ['main.py', 'web/client.ts']) assert.equal(entry(index, file), entry(full, file));
    assert.ok(index.files.get('web/client.ts')!.imports.length > 0, 'imports resolved against the listing');
    assert.equal(current, undefined, 'a partial pass is not the last complete index');
  });

  it('keeps the cache’s other entries: a full pass after it takes every file but the changed one from the cache', async () => {
    const dir = fixtureCopy();
    const cold = (await run(dir)).index;
    fs.appendFileSync(path.join(dir, 'web/lib/cache.ts'), '\nexport function added(): void {}\n');
    const partial = (await run(dir, { only: ['web/lib/cache.ts'] })).index;
    assert.equal(partial.stats.cacheHits, 0);
    assert.equal(partial.findSymbol('added', 'web/lib/cache.ts').length, 1);
    const warm = (await run(dir)).index;
    assert.equal(warm.stats.files, cold.stats.files);
    assert.equal(warm.stats.cacheHits, warm.stats.files, 'the partial pass stored the changed file');
  });

  it('with no cache yet, stores what it parsed: the next pass over the same files parses nothing', async () => {
    const dir = fixtureCopy();
    const asked = ['web/client.ts', 'main.py'];
    const first = (await run(dir, { only: asked })).index;
    assert.equal(first.stats.cacheHits, 0);
    const second = (await run(dir, { only: asked })).index;
    assert.equal(second.stats.cacheHits, 2);
    for (const file of asked) assert.equal(entry(second, file), entry(first, file));
    // A full pass then parses only the files the partial pass had not.
    const full = (await run(dir)).index;
    assert.equal(full.stats.cacheHits, 2);
    assert.equal(entry(full, 'web/client.ts'), entry(first, 'web/client.ts'));
  });
});
