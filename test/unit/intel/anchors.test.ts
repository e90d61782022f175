import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { resolveAnchors } from '../../../src/core/anchors/resolve';
import { indexWorkspace } from '../../../src/core/anchors/anchoredWorkspace';
import type { WorkspaceIndex } from '../../../src/core/index/workspaceIndex';
import { parseSpecText } from '../../../src/core/spec/load';
import { removeDir, tempDir, writeFiles } from '../../support/repos';

const CACHE_JS = `class LruCache {
  get(key) {
    return this.map.get(key);
  }
  set(key, value) {
    this.map.set(key, value);
  }
}

class TtlCache {
  get(key) {
    return undefined;
  }
}

module.exports = { LruCache, TtlCache };
`;

let dir: string;
let index: WorkspaceIndex;

before(async () => {
  dir = tempDir();
  writeFiles(dir, {
    'src/cache.js': CACHE_JS,
    'src/client.js':
      "const { LruCache } = require('./cache');\nfunction fetchAll() {}\nmodule.exports = { fetchAll };\n",
    'docs/notes.md': '# notes\n',
  });
  index = await indexWorkspace(dir, { useCache: false });
});
after(() => removeDir(dir));

function specText(anchors: string[]): string {
  const spec = {
    id: 'a',
    title: 't',
    kind: 'functional',
    statement: 's',
    test: { command: 'true', files: [] },
    anchors,
  };
  // One anchor per line so the reported line tells which anchor a problem belongs to.
  return `{\n"version": 1,\n"specs": [${JSON.stringify(spec, null, 1)}]\n}\n`;
}

function resolve(anchors: string[]) {
  const text = specText(anchors);
  const loaded = parseSpecText(text, '/ws/.weave/specs.json');
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.problems));
  const result = resolveAnchors(loaded.specFile, index, {
    workspaceDir: dir,
    locations: loaded.locations,
    specFilePath: loaded.file,
  });
  return { ...result, text };
}

/** 1-based line of the anchor string in the spec text. */
function lineOf(text: string, needle: string): number {
  return text.split('\n').findIndex((l) => l.includes(JSON.stringify(needle))) + 1;
}

void test('a qualified symbol resolves to its definition range; a file anchor to the whole file', () => {
  const { resolved, problems } = resolve(['src/cache.js#LruCache.set', 'src/client.js']);
  assert.deepEqual(problems, []);
  const [set, file] = resolved.get('a')!;
  assert.equal(set!.file, 'src/cache.js');
  assert.equal(set!.symbol, 'LruCache.set');
  assert.equal(set!.range.start.line, 4);
  assert.equal(set!.range.end.line, 6);
  assert.equal(file!.symbol, undefined);
  assert.equal(file!.range.start.line, 0);
  assert.equal(file!.range.end.line, 3);
});

void test('an anchor to a missing file is an error located at the anchor string', () => {
  const { resolved, problems, text } = resolve(['src/cache.js#LruCache.get', 'src/gone.js#x']);
  assert.equal(problems.length, 1);
  const [p] = problems;
  assert.equal(p!.severity, 'error');
  assert.equal(p!.path, 'specs[0].anchors[1]');
  assert.equal(p!.file, '/ws/.weave/specs.json');
  assert.equal(p!.line, lineOf(text, 'src/gone.js#x'));
  assert.ok(p!.column > 1);
  assert.match(p!.message, /src\/gone\.js does not exist/);
  assert.equal(resolved.get('a')!.length, 1);
});

void test('a symbol that is not defined is an error naming the file', () => {
  const { problems, text } = resolve(['src/cache.js#LruCache.evict']);
  assert.equal(problems.length, 1);
  assert.equal(problems[0]!.line, lineOf(text, 'src/cache.js#LruCache.evict'));
  assert.match(problems[0]!.message, /symbol LruCache\.evict is not defined in src\/cache\.js/);
});

void test('an ambiguous simple name is a warning that lists every match and covers all of them', () => {
  const { problems, resolved } = resolve(['src/cache.js#get']);
  assert.equal(problems.length, 1);
  assert.equal(problems[0]!.severity, 'warning');
  const message = problems[0]!.message;
  assert.match(
    message,
    /`get` matches LruCache\.get \(src\/cache\.js:2\) and TtlCache\.get \(src\/cache\.js:11\)/,
  );
  assert.match(message, /write one \(src\/cache\.js#LruCache\.get or src\/cache\.js#TtlCache\.get\)/);
  assert.deepEqual(
    resolved.get('a')!.map((a) => a.symbol),
    ['LruCache.get', 'TtlCache.get'],
  );
});

void test('a unique simple name resolves by suffix', () => {
  const { problems, resolved } = resolve(['src/cache.js#set']);
  assert.deepEqual(problems, []);
  assert.equal(resolved.get('a')![0]!.symbol, 'LruCache.set');
});

void test('a file without a grammar: a file anchor is fine, a symbol in it is a warning and covers the file', () => {
  const ok = resolve(['docs/notes.md']);
  assert.deepEqual(ok.problems, []);
  assert.equal(ok.resolved.get('a')![0]!.file, 'docs/notes.md');

  const { problems, resolved } = resolve(['docs/notes.md#Intro']);
  assert.equal(problems.length, 1);
  assert.equal(problems[0]!.severity, 'warning');
  assert.match(
    problems[0]!.message,
    /cannot resolve symbol Intro in docs\/notes\.md: no tree-sitter grammar/,
  );
  assert.equal(resolved.get('a')![0]!.file, 'docs/notes.md');
});
