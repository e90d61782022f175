import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createIndexer, type Indexer, type WorkspaceIndex } from '../../../src/core/index';
import { langsFixture } from '../../support/indexHelpers';

describe('index: imports resolved to workspace files', () => {
  let indexer: Indexer;
  let index: WorkspaceIndex;
  before(async () => {
    indexer = createIndexer({ workspaceDir: langsFixture, useCache: false, workers: 0 });
    index = await indexer.indexWorkspace();
  });
  after(() => indexer.dispose());
  const importsOf = (file: string) => index.files.get(file)?.imports;

  it('TS/JS: ./x → x.ts, ./lib/index.js → index.ts, ./util → util.js, .cjs; packages are not resolved', () => {
    assert.deepEqual(importsOf('web/client.ts'), ['web/lib/cache.ts', 'web/lib/index.ts', 'web/util.js']);
    assert.ok(index.files.get('web/client.ts')!.importSpecifiers.includes('node:fs'));
    assert.deepEqual(importsOf('web/util.js'), ['web/lib/paths.cjs']);
    assert.deepEqual(importsOf('web/view.tsx'), ['web/client.ts']);
  });

  it('Python: relative imports, submodules named in from-imports, absolute packages with their __init__', () => {
    assert.deepEqual(importsOf('pkg/__init__.py'), ['pkg/core.py']);
    assert.deepEqual(importsOf('pkg/core.py'), [
      'pkg/__init__.py',
      'pkg/sub/__init__.py',
      'pkg/sub/helpers.py',
    ]);
    assert.deepEqual(importsOf('main.py'), [
      'pkg/__init__.py',
      'pkg/core.py',
      'pkg/sub/__init__.py',
      'pkg/sub/helpers.py',
    ]);
  });

  it('Go: module imports → the package folder; files of one package see each other', () => {
    assert.deepEqual(importsOf('gosrc/main.go'), ['gosrc/store/store.go', 'gosrc/store/util.go']);
    assert.deepEqual(importsOf('gosrc/store/store.go'), ['gosrc/store/util.go']);
  });

  it('Rust: mod declarations and crate:: paths', () => {
    assert.deepEqual(importsOf('rs/src/lib.rs'), ['rs/src/net/client.rs', 'rs/src/net/mod.rs']);
    assert.deepEqual(importsOf('rs/src/net/mod.rs'), ['rs/src/net/client.rs']);
  });

  it('Java: imports by package path, static imports by their class', () => {
    assert.deepEqual(importsOf('java/src/main/java/com/acme/cache/LruCache.java'), [
      'java/src/main/java/com/acme/util/Clock.java',
    ]);
  });

  it('importersOf and importConeOf follow the resolved imports', () => {
    assert.deepEqual(index.importersOf('pkg/sub/helpers.py'), ['main.py', 'pkg/core.py']);
    assert.deepEqual(index.importersOf('web/lib/cache.ts'), ['web/client.ts']);
    assert.deepEqual([...index.importConeOf(['web/view.tsx'])].sort(), [
      'web/client.ts',
      'web/lib/cache.ts',
      'web/lib/index.ts',
      'web/lib/paths.cjs',
      'web/util.js',
      'web/view.tsx',
    ]);
  });
});

describe('index: symbol queries', () => {
  let indexer: Indexer;
  let index: WorkspaceIndex;
  before(async () => {
    indexer = createIndexer({ workspaceDir: langsFixture, useCache: false, workers: 0 });
    index = await indexer.indexWorkspace();
  });
  after(() => indexer.dispose());

  it('findSymbol by qualified name, in one file or the whole workspace', () => {
    const hits = index.findSymbol('Client.get');
    assert.deepEqual(
      hits.map((h) => `${h.file}#${h.qualifiedName}`),
      ['web/client.ts#Client.get'],
    );
    assert.deepEqual(index.findSymbol('Client.get', 'web/lib/cache.ts'), []);
  });

  it('a simple name matching several definitions returns all of them (ambiguous: the caller says which)', () => {
    const gets = index
      .findSymbol('get')
      .map((h) => `${h.file}#${h.qualifiedName}`)
      .sort();
    assert.deepEqual(gets, [
      'java/src/main/java/com/acme/cache/LruCache.java#LruCache.get',
      'pkg/core.py#Store.get',
      'rs/src/lib.rs#Cache.get',
      'web/client.ts#Client.get',
      'web/lib/cache.ts#LruCache.get',
    ]);
    assert.equal(index.findSymbol('LruCache.get').length, 2);
  });

  it('an exact qualified name wins over suffix matches', () => {
    assert.deepEqual(
      index.findSymbol('normalize', 'pkg/core.py').map((s) => s.qualifiedName),
      ['Store.get.normalize'],
    );
    assert.deepEqual(index.findSymbol('missingName'), []);
  });

  it('enclosingSymbol gives the innermost definition around a 0-based line', () => {
    assert.equal(index.enclosingSymbol('pkg/core.py', 11)?.qualifiedName, 'Store.get.normalize');
    assert.equal(index.enclosingSymbol('pkg/core.py', 12)?.qualifiedName, 'Store.get');
    assert.equal(index.enclosingSymbol('pkg/core.py', 7), undefined);
    assert.equal(index.enclosingSymbol('no/such/file.py', 1), undefined);
  });
});
