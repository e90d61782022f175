import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createIndexer, type WorkspaceIndex } from '../../../src/core/index';
import { copyDir, langsFixture, tempDir } from '../../support/indexHelpers';

describe('index: on-disk cache', () => {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  const fixtureCopy = () => {
    const dir = tempDir('cache');
    dirs.push(dir);
    copyDir(langsFixture, dir);
    return dir;
  };
  const run = async (dir: string, useCache = true): Promise<WorkspaceIndex> => {
    const indexer = createIndexer({ workspaceDir: dir, workers: 0, useCache });
    try {
      return await indexer.indexWorkspace();
    } finally {
      indexer.dispose();
    }
  };
  const comparable = (index: WorkspaceIndex) => JSON.stringify([...index.files.values()]);

  it('the second run takes every file from the cache and gives the same index', async () => {
    const dir = fixtureCopy();
    const cold = await run(dir);
    assert.equal(cold.stats.cacheHits, 0);
    assert.ok(fs.existsSync(path.join(dir, '.weave/cache/index/index-v3.json')));
    const warm = await run(dir);
    assert.equal(warm.stats.cacheHits, warm.stats.files);
    assert.equal(comparable(warm), comparable(cold));
  });

  it('a changed file is parsed again; a touched but unchanged file is reused by its content hash', async () => {
    const dir = fixtureCopy();
    await run(dir);
    fs.appendFileSync(path.join(dir, 'web/lib/cache.ts'), '\nexport function added(): void {}\n');
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(dir, 'main.py'), later, later);
    const next = await run(dir);
    assert.equal(next.stats.cacheHits, next.stats.files - 1);
    assert.ok(next.findSymbol('added', 'web/lib/cache.ts').length === 1);
    const fresh = await run(dir, false);
    assert.equal(comparable(next), comparable(fresh));
  });

  it('a deleted file disappears from the index and from importers', async () => {
    const dir = fixtureCopy();
    await run(dir);
    fs.rmSync(path.join(dir, 'web/lib/cache.ts'));
    const next = await run(dir);
    assert.equal(next.files.has('web/lib/cache.ts'), false);
    assert.deepEqual(next.files.get('web/client.ts')!.imports, ['web/lib/index.ts', 'web/util.js']);
  });

  it('cached imports are resolved again when files are added (an import that now resolves)', async () => {
    const dir = fixtureCopy();
    fs.writeFileSync(
      path.join(dir, 'web/late.ts'),
      "import { later } from './later';\nexport const x = later;\n",
    );
    const first = await run(dir);
    assert.deepEqual(first.files.get('web/late.ts')!.imports, []);
    fs.writeFileSync(path.join(dir, 'web/later.ts'), 'export const later = 1;\n');
    const next = await run(dir);
    assert.equal(next.stats.cacheHits, next.stats.files - 1);
    assert.deepEqual(next.files.get('web/late.ts')!.imports, ['web/later.ts']);
    assert.deepEqual(next.importersOf('web/later.ts'), ['web/late.ts']);
    // symbols decoded lazily from the cache answer queries like freshly parsed ones
    assert.equal(next.findSymbol('LruCache.get').length, 2);
    assert.equal(next.enclosingSymbol('web/lib/cache.ts', 4)?.qualifiedName, 'LruCache.get');
  });

  it('a damaged cache file is ignored (cold run), then rewritten', async () => {
    const dir = fixtureCopy();
    await run(dir);
    fs.writeFileSync(path.join(dir, '.weave/cache/index/index-v3.json'), '{"fingerprint": ');
    const next = await run(dir);
    assert.equal(next.stats.cacheHits, 0);
    assert.equal((await run(dir)).stats.cacheHits, next.stats.files);
  });

  it('--no-cache (useCache: false) neither reads nor writes the cache', async () => {
    const dir = fixtureCopy();
    const result = await run(dir, false);
    assert.equal(result.stats.cacheHits, 0);
    assert.equal(fs.existsSync(path.join(dir, '.weave/cache')), false);
  });

  it('the cache folder is git-ignored', async () => {
    const dir = fixtureCopy();
    execFileSync('git', ['init', '-q'], { cwd: dir });
    await run(dir);
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.doesNotMatch(status, /\.weave/);
    assert.match(status, /web\/client\.ts/);
  });
});
