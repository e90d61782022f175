import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createIndexer, documentEditFor } from '../../../src/core/index';
import { langsFixture, repoRoot } from '../../support/indexHelpers';

describe('index: incremental parsing of open documents', () => {
  const indexer = createIndexer({ workspaceDir: langsFixture, useCache: false, workers: 0 });
  const fresh = createIndexer({ workspaceDir: langsFixture, useCache: false, workers: 0 });
  after(() => {
    indexer.dispose();
    fresh.dispose();
  });

  /** Applies the change to `text`, re-parses incrementally, and compares with a from-scratch parse. */
  const editAndCompare = async (
    file: string,
    text: string,
    offset: number,
    deleted: number,
    inserted: string,
  ) => {
    const edit = documentEditFor(text, offset, deleted, inserted);
    const next = text.slice(0, offset) + inserted + text.slice(offset + deleted);
    const incremental = await indexer.parseDocument(file, next, edit);
    const scratch = await fresh.parseDocument(file, next);
    assert.ok(incremental && scratch);
    assert.equal(incremental.syntaxTree(), scratch.syntaxTree());
    assert.deepEqual(incremental.index().symbols, scratch.index().symbols);
    return { next, incremental };
  };

  it('a one-character edit re-parses to the same tree as a fresh parse', async () => {
    const file = 'web/client.ts';
    let text = fs.readFileSync(path.join(langsFixture, file), 'utf8');
    const first = await indexer.parseDocument(file, text);
    assert.ok(first);
    // rename Client.get → Client.gets
    const at = text.indexOf('async get(') + 'async get'.length;
    const { next, incremental } = await editAndCompare(file, text, at, 0, 's');
    text = next;
    assert.ok(incremental.index().symbols.some((s) => s.qualifiedName === 'Client.gets'));
    // a multi-line insertion with non-ASCII text, then a deletion that introduces a syntax error
    text = (
      await editAndCompare(file, text, text.indexOf('export const'), 0, '// café ☕ 😀\nconst é = "ü";\n')
    ).next;
    const broken = await editAndCompare(file, text, text.indexOf('{}'), 1, '');
    assert.equal(broken.incremental.hasSyntaxErrors, true);
  });

  it('a large file: the edit is parsed incrementally (faster than a fresh parse) and trees are equal', async () => {
    const text = fs.readFileSync(path.join(repoRoot, 'node_modules/typescript/lib/lib.dom.d.ts'), 'utf8');
    const file = 'big/lib.dom.d.ts';
    const cold = await indexer.parseDocument(file, text);
    assert.ok(cold);
    const at = text.indexOf('interface ') + 'interface '.length;
    const { incremental } = await editAndCompare(file, text, at, 0, 'X');
    assert.ok(incremental.parseMs < cold.parseMs, `${incremental.parseMs} ms vs ${cold.parseMs} ms`);
  });

  it('a superseded parse refuses to be indexed; closing documents deletes their trees', async () => {
    const a = await indexer.parseDocument('x.py', 'def a():\n    pass\n');
    const b = await indexer.parseDocument('x.py', 'def b():\n    pass\n');
    assert.ok(a && b);
    assert.throws(() => a.index(), /parsed again/);
    assert.deepEqual(
      b.index().symbols.map((s) => s.name),
      ['b'],
    );
    assert.equal(await indexer.parseDocument('notes.md', '# no grammar'), undefined);
    assert.equal(indexer.liveTreeCount(), 3); // web/client.ts, big/lib.dom.d.ts, x.py
    for (const f of ['web/client.ts', 'big/lib.dom.d.ts', path.join(langsFixture, 'x.py')])
      indexer.closeDocument(f);
    assert.equal(indexer.liveTreeCount(), 0);
  });

  it('index() of an open document updates the workspace index it belongs to', async () => {
    const ws = createIndexer({ workspaceDir: langsFixture, useCache: false, workers: 0 });
    try {
      const index = await ws.indexWorkspace();
      const doc = await ws.parseDocument(
        'web/lib/cache.ts',
        'export class Renamed { get() { return 1; } }\n',
      );
      doc!.index();
      assert.deepEqual(
        index.findSymbol('get', 'web/lib/cache.ts').map((s) => s.qualifiedName),
        ['Renamed.get'],
      );
    } finally {
      ws.dispose();
    }
  });
});
