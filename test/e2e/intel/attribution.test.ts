// Blame's "made for X": the spec anchoring the edited code most specifically, then the one whose test is
// closest to it; the criteria are an ordered list a caller can extend.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { ResolvedAnchor } from '../../../src/core/anchors/resolve';
import {
  defaultAttributionCriteria,
  rankAttribution,
  type AttributionCriterion,
} from '../../../src/core/blame/attribution';
import { blameSpec } from '../../../src/core/blame/blame';
import type { SpecCone } from '../../../src/core/selection/cones';
import { indexWorkspace } from '../../../src/core/anchors/anchoredWorkspace';
import { copyWorkspace, initRepo, removeDir, tinylibFixture } from '../../support/repos';

const anchor = (text: string, first: number, last: number): ResolvedAnchor => {
  const [file, symbol] = text.split('#') as [string, string | undefined];
  return {
    anchor: text,
    file,
    ...(symbol !== undefined ? { symbol } : {}),
    range: { start: { line: first, column: 0 }, end: { line: last, column: 0 } },
  };
};

/** A cone where `file` is `distance` imports away from the test. */
const cone = (id: string, file: string, distance: number): SpecCone => {
  const parent = new Map<string, string | undefined>([['test.js', undefined]]);
  let previous = 'test.js';
  for (let i = 1; i < distance; i++) {
    parent.set(`step${i}.js`, previous);
    previous = `step${i}.js`;
  }
  parent.set(file, previous);
  return { id, roots: new Map([['test.js', 'test file test.js']]), parent, uncertain: [] };
};

void test('the method anchor beats the class anchor, which beats the file anchor', () => {
  const { ranked, top } = rankAttribution({
    file: 'src/cache.js',
    lines: { first: 11, last: 11 },
    anchors: new Map([
      ['whole-file', [anchor('src/cache.js', 0, 40)]],
      ['the-class', [anchor('src/cache.js#LruCache', 5, 30)]],
      ['the-method', [anchor('src/cache.js#LruCache.get', 10, 14)]],
      ['elsewhere', [anchor('src/cache.js#LruCache.set', 16, 20)]],
    ]),
    cones: new Map(),
    order: ['whole-file', 'the-class', 'the-method', 'elsewhere'],
  });
  assert.deepEqual(
    top.map((c) => c.specId),
    ['the-method'],
  );
  assert.deepEqual(
    ranked.map((c) => c.specId),
    ['the-method', 'the-class', 'whole-file'],
  );
});

void test('same anchor: the spec whose test is fewer imports away wins; a full tie names both', () => {
  const anchors = new Map([
    ['far', [anchor('src/cache.js#LruCache.get', 10, 14)]],
    ['near', [anchor('src/cache.js#LruCache.get', 10, 14)]],
  ]);
  const input = { file: 'src/cache.js', lines: { first: 12, last: 12 }, anchors, order: ['far', 'near'] };
  const closer = rankAttribution({
    ...input,
    cones: new Map([
      ['far', cone('far', 'src/cache.js', 3)],
      ['near', cone('near', 'src/cache.js', 1)],
    ]),
  });
  assert.deepEqual(
    closer.top.map((c) => [c.specId, c.coneDistance]),
    [['near', 1]],
  );
  const tie = rankAttribution({
    ...input,
    cones: new Map([
      ['far', cone('far', 'src/cache.js', 2)],
      ['near', cone('near', 'src/cache.js', 2)],
    ]),
  });
  assert.deepEqual(
    tie.top.map((c) => c.specId),
    ['far', 'near'],
  );
});

void test('a criterion inserted first decides before the built-in ones', () => {
  const executed: AttributionCriterion = {
    name: 'executed the edit',
    score: (c) => (c.specId === 'whole-file' ? 0 : 1),
  };
  const { top } = rankAttribution({
    file: 'src/cache.js',
    lines: { first: 11, last: 11 },
    anchors: new Map([
      ['whole-file', [anchor('src/cache.js', 0, 40)]],
      ['the-method', [anchor('src/cache.js#LruCache.get', 10, 14)]],
    ]),
    cones: new Map(),
    order: ['whole-file', 'the-method'],
    criteria: [executed, ...defaultAttributionCriteria],
  });
  assert.deepEqual(
    top.map((c) => c.specId),
    ['whole-file'],
  );
});

void test('blame on a real repository: the edit to tinylib.parse is made for the spec anchoring the method, not the file', async () => {
  const dir = copyWorkspace(tinylibFixture);
  try {
    const specsPath = path.join(dir, '.weave/specs.json');
    const specs = JSON.parse(fs.readFileSync(specsPath, 'utf8')) as { specs: Array<Record<string, unknown>> };
    // A spec anchoring the whole module comes first in the file: spec order must not decide.
    specs.specs.unshift({
      id: 'module-shape',
      title: 'The module exports one function with helpers',
      kind: 'functional',
      statement: 'index.js shall export tinylib with parse, format and clamp.',
      test: { command: 'node --test test/format.test.js', files: ['test/format.test.js'] },
      anchors: ['index.js'],
    });
    fs.writeFileSync(specsPath, JSON.stringify(specs, null, 2));
    initRepo(dir);
    const index = path.join(dir, 'index.js');
    fs.writeFileSync(index, fs.readFileSync(index, 'utf8').replace("part.split('=')", "part.split(':')"));
    const result = await blameSpec({
      workspaceDir: dir,
      specId: 'esm-entry',
      baselineRef: 'HEAD',
      loadIndex: (d) => indexWorkspace(d, { useCache: false }),
    });
    assert.equal(result.hunks.length, 1);
    const hunk = result.hunks[0]!;
    assert.deepEqual(hunk.symbols, ['tinylib.parse']);
    assert.deepEqual(hunk.anchoredBy, ['parse']);
    assert.deepEqual(
      hunk.attribution.map((a) => [a.specId, a.anchor]),
      [
        ['parse', 'index.js#tinylib.parse'],
        ['module-shape', 'index.js'],
      ],
    );
    assert.match(
      result.explanation[0]!,
      /^the edit to `tinylib\.parse` \(index\.js:\d+\), made for `parse`, breaks `esm-entry`$/,
    );
  } finally {
    removeDir(dir);
  }
});
