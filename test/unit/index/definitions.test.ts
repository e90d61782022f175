import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createIndexer, type Indexer, type WorkspaceIndex } from '../../../src/core/index';
import { langsFixture } from '../../support/indexHelpers';

describe('index: definitions and qualified names per language', () => {
  let indexer: Indexer;
  let index: WorkspaceIndex;
  before(async () => {
    indexer = createIndexer({ workspaceDir: langsFixture, useCache: false, workers: 0 });
    index = await indexer.indexWorkspace();
  });
  after(() => indexer.dispose());

  const symbolsOf = (file: string) => {
    const f = index.files.get(file);
    assert.ok(f, `${file} was not indexed`);
    return f.symbols.map((s) => `${s.qualifiedName}:${s.kind}`);
  };

  it('TypeScript: classes, methods, nested functions, interfaces, enums, types, namespaces, arrow consts', () => {
    assert.deepEqual(symbolsOf('web/client.ts'), [
      'Transport:interface',
      'Transport.send:method',
      'Mode:enum',
      'Headers:type',
      'Client:class',
      // A class field is a symbol (`cache` holds no function, so it is a field, not a method).
      'Client.cache:field',
      'Client.onError:method',
      // The stock tags leave constructors out; ours name them (classMembers.test.ts).
      'Client.constructor:method',
      'Client.get:method',
      'Client.get.normalize:function',
      'makeClient:function',
      'Internal:module',
      'Internal.secret:function',
    ]);
    assert.equal(index.files.get('web/client.ts')?.language, 'typescript');
  });

  it('TSX: functions and class methods next to JSX', () => {
    assert.deepEqual(symbolsOf('web/view.tsx'), [
      'App:function',
      'App.onClick:function',
      'Panel:class',
      'Panel.render:method',
    ]);
  });

  it('JavaScript: functions, nested functions, class methods, assigned arrow functions (.cjs)', () => {
    assert.deepEqual(symbolsOf('web/util.js'), [
      'log:function',
      'helper:function',
      'helper.inner:function',
      'Registry:class',
      'Registry.register:method',
    ]);
    assert.deepEqual(symbolsOf('web/lib/paths.cjs'), ['join:function']);
  });

  it('Python: classes, methods, nested classes and functions, module constants', () => {
    assert.deepEqual(symbolsOf('pkg/core.py'), [
      'LIMIT:constant',
      'Store:class',
      'Store.get:method',
      'Store.get.normalize:function',
      'Store.Entry:class',
      'Store.Entry.expired:method',
      'outer:function',
      'outer.inner:function',
    ]);
  });

  it('Go: methods are qualified by their receiver type (pointer and generic receivers)', () => {
    assert.deepEqual(symbolsOf('gosrc/store/store.go'), [
      'Store:type',
      'Cache:type',
      'New:function',
      'Store.Get:method',
      'Cache.Len:method',
    ]);
  });

  it('Rust: impl methods are qualified by the implementing type, trait methods by the trait', () => {
    assert.deepEqual(symbolsOf('rs/src/lib.rs'), [
      'net:module',
      'Cache:class',
      'Cache.new:method',
      'Cache.get:method',
      'Store:interface',
      'Store.put:method',
      'Cache.put:method',
      'make:function',
    ]);
  });

  it('Java: classes, constructors, methods, nested enums and classes', () => {
    assert.deepEqual(symbolsOf('java/src/main/java/com/acme/cache/LruCache.java'), [
      'LruCache:class',
      'LruCache.LruCache:method',
      'LruCache.get:method',
      'LruCache.Policy:enum',
      'LruCache.Entry:class',
      'LruCache.Entry.touch:method',
    ]);
  });

  it('ranges: the definition and its name, 0-based lines, UTF-16 columns', () => {
    const get = index.findSymbol('LruCache.get', 'web/lib/cache.ts');
    assert.equal(get.length, 1);
    assert.deepEqual(get[0]!.nameRange, { start: { line: 3, column: 2 }, end: { line: 3, column: 5 } });
    assert.deepEqual(get[0]!.range.start, { line: 3, column: 2 });
    assert.deepEqual(get[0]!.range.end, { line: 5, column: 3 });
  });

  it('references: called names', () => {
    const refs = index.files.get('pkg/core.py')!.references;
    for (const name of ['fk', 'normalize', 'getcwd', 'inner'])
      assert.ok(refs.includes(name), `missing ${name}`);
    assert.ok(index.files.get('gosrc/main.go')!.references.includes('Get'));
  });

  it('a file with syntax errors is still indexed, flagged, with what tree-sitter recovered', () => {
    const broken = index.files.get('broken.ts');
    assert.ok(broken);
    assert.equal(broken.hasSyntaxErrors, true);
    assert.ok(broken.symbols.some((s) => s.qualifiedName === 'ok'));
    assert.equal(index.files.get('web/client.ts')!.hasSyntaxErrors, false);
  });

  it('stats count files, symbols and languages', () => {
    assert.equal(index.stats.files, index.files.size);
    assert.equal(
      index.stats.symbols,
      [...index.files.values()].reduce((n, f) => n + f.symbols.length, 0),
    );
    assert.deepEqual(Object.keys(index.stats.byLanguage).sort(), [
      'go',
      'java',
      'javascript',
      'python',
      'rust',
      'tsx',
      'typescript',
    ]);
    assert.equal(indexer.liveTreeCount(), 0);
  });
});
