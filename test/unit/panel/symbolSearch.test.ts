import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FileIndex, SymbolDef } from '../../../src/core/index/types';
import { matchAnchors } from '../../../src/core/index/symbolSearch';

const range = (line: number) => ({ start: { line, column: 0 }, end: { line, column: 5 } });
const symbol = (qualifiedName: string, line: number, kind: SymbolDef['kind'] = 'method'): SymbolDef => ({
  name: qualifiedName.split('.').at(-1) ?? qualifiedName,
  qualifiedName,
  kind,
  range: range(line),
  nameRange: range(line),
});
const file = (path: string, symbols: SymbolDef[]): FileIndex => ({
  path,
  language: 'javascript',
  hash: '',
  sizeBytes: 0,
  symbols,
  references: [],
  importSpecifiers: [],
  imports: [],
  hasSyntaxErrors: false,
});
const files = [
  file('src/cache.js', [
    symbol('LruCache', 3, 'class'),
    symbol('LruCache.get', 10),
    symbol('LruCache.set', 20),
  ]),
  file('src/client.js', [symbol('Client', 1, 'class'), symbol('Client.get', 8)]),
];

test('a simple name finds the methods of that name, with anchors and lines', () => {
  const found = matchAnchors(files, 'get');
  assert.deepEqual(
    found.map((m) => [m.anchor, m.line]),
    [
      ['src/cache.js#LruCache.get', 10],
      ['src/client.js#Client.get', 8],
    ],
  );
});

test('a file name finds the file itself and the symbols whose names match', () => {
  const anchors = matchAnchors(files, 'cache').map((m) => m.anchor);
  assert.equal(anchors[0], 'src/cache.js');
  assert.ok(anchors.includes('src/cache.js#LruCache'));
});

test('file#symbol narrows to that file; an exact name ranks first', () => {
  assert.deepEqual(
    matchAnchors(files, 'cache.js#lrucache').map((m) => m.anchor),
    ['src/cache.js#LruCache', 'src/cache.js#LruCache.get', 'src/cache.js#LruCache.set'],
  );
  assert.deepEqual(matchAnchors(files, 'nothing-like-this'), []);
  assert.equal(matchAnchors(files, 'e', 2).length, 2);
});
