// Source maps for coverage, on small hand-written maps whose answers are known: inline data: URLs and map files
// next to compiled output, sources embedded in maps, and the reasons a file stays unmapped.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { collectSpecCoverage } from '../../../src/core/coverage/collect';
import { mapGeneratedRuns } from '../../../src/core/coverage/mappedRuns';
import type { UnitRow } from '../../../src/core/coverage/types';
import { createIndexer } from '../../../src/core/index';
import {
  lineStartsOf,
  loadSourceMap,
  originalCandidates,
  positionAt,
  sourceMappingComment,
} from '../../../src/core/coverage/sourceMaps';
import type { V8FileRun } from '../../../src/core/coverage/v8';
import { removeDir, tempDir, writeFiles } from '../../support/repos';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

/** Base64 VLQ, as the source map format encodes each segment field (relative to the previous one). */
function vlq(value: number): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let v = value < 0 ? (-value << 1) | 1 : value << 1;
  let out = '';
  do {
    let digit = v & 31;
    v >>>= 5;
    if (v > 0) digit |= 32;
    out += chars[digit];
  } while (v > 0);
  return out;
}

/** `mappings` from absolute segments: per generated line, [generated column, source, line, column]. */
function encode(lines: Array<Array<[number, number, number, number]>>): string {
  let source = 0;
  let line = 0;
  let column = 0;
  return lines
    .map((segments) => {
      let generated = 0;
      return segments
        .map(([g, s, l, c]) => {
          const text = vlq(g - generated) + vlq(s - source) + vlq(l - line) + vlq(c - column);
          [generated, source, line, column] = [g, s, l, c];
          return text;
        })
        .join(',');
    })
    .join(';');
}

// lib/index.ts and what tsc makes of it (CommonJS): `export function` loses its `export`, so the compiler maps
// the function's first column to the original `export` (outside tree-sitter's definition), its name inside.
const ORIGINAL = [
  'export function add(a: number, b: number): number {',
  '  return a + b;',
  '}',
  '',
  'export function twice(f: (n: number) => number, n: number): number {',
  '  const g = (m: number): number => f(f(m));',
  '  return g(n);',
  '}',
  '',
].join('\n');
const GENERATED_LINES = [
  '"use strict";',
  'function add(a, b) {',
  '    return a + b;',
  '}',
  'function twice(f, n) {',
  '    const g = (m) => f(f(m));',
  '    return g(n);',
  '}',
];
const MAPPINGS = encode([
  [],
  [
    [0, 0, 0, 0],
    [9, 0, 0, 16],
    [13, 0, 0, 20],
  ],
  [
    [4, 0, 1, 2],
    [11, 0, 1, 9],
  ],
  [[0, 0, 2, 0]],
  [
    [0, 0, 4, 0],
    [9, 0, 4, 16],
  ],
  [
    [4, 0, 5, 2],
    [10, 0, 5, 8],
    [14, 0, 5, 12],
    [21, 0, 5, 35],
  ],
  [[4, 0, 6, 2]],
  [[0, 0, 7, 0]],
]);

function generated(comment: string): string {
  return `${GENERATED_LINES.join('\n')}\n${comment}\n`;
}

/** Offset of `needle` in the generated code (its first occurrence from line `line`, 0-based). */
function offsetOf(text: string, line: number, needle: string): number {
  const starts = lineStartsOf(text);
  const at = text.indexOf(needle, starts[line]);
  assert.ok(at >= 0, needle);
  return at;
}

void test('the map comment: the last one, at the end of the script; one followed by code is not the map', () => {
  assert.equal(sourceMappingComment('x();\n//# sourceMappingURL=index.js.map\n'), 'index.js.map');
  assert.equal(
    sourceMappingComment(
      'a("//# sourceMappingURL=quoted.map");\n//# sourceMappingURL=data:application/json;base64,e30=\n',
    ),
    'data:application/json;base64,e30=',
  );
  assert.equal(sourceMappingComment('/*# sourceMappingURL=a.css.map */'), 'a.css.map');
  assert.equal(sourceMappingComment('//# sourceMappingURL=old.map\nmore();\n'), undefined);
  assert.equal(sourceMappingComment('plain();\n'), undefined);
});

void test('offsets and line lengths give the same positions', () => {
  const text = 'ab\ncde\n\nf';
  assert.deepEqual(lineStartsOf(text), [0, 3, 7, 8]);
  assert.deepEqual(lineStartsOf([2, 3, 0, 1]), [0, 3, 7, 8]);
  assert.deepEqual(positionAt(lineStartsOf(text), 5), [1, 2]);
  assert.deepEqual(positionAt(lineStartsOf(text), 8), [3, 0]);
});

void test('an inline map resolves its sources next to the script, embeds their text, and parses once per content', async () => {
  const ws = tempDir('weave-sourcemaps-');
  dirs.push(ws);
  const map = {
    version: 3,
    sources: ['index.ts'],
    sourcesContent: [ORIGINAL],
    names: [],
    mappings: MAPPINGS,
  };
  const url = `data:application/json;charset=utf-8;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}`;
  const script = path.join(ws, 'src/index.ts');
  const first = await loadSourceMap(script, url);
  assert.ok('loaded' in first, JSON.stringify(first));
  assert.deepEqual(first.loaded.sourceFiles, [path.join(ws, 'src/index.ts')]);
  assert.deepEqual(first.loaded.contents, [ORIGINAL]);
  const again = await loadSourceMap(script, url);
  assert.ok('loaded' in again);
  assert.equal(again.loaded, first.loaded, 'the same content is parsed once');

  const text = generated('');
  const starts = lineStartsOf(text);
  // add: `function` maps to `export` (0:0), then its name and parameters inside the definition.
  const addStart = offsetOf(text, 1, 'function');
  const addEnd = offsetOf(text, 3, '}') + 1;
  assert.deepEqual(originalCandidates(first.loaded, starts, addStart, addEnd), [
    [0, 0, 0],
    [0, 0, 16],
    [0, 0, 20],
    [0, 1, 2],
  ]);
  // twice: the segments of its nested arrow function g are not twice's own.
  const twiceStart = offsetOf(text, 4, 'function');
  const twiceEnd = offsetOf(text, 7, '}') + 1;
  const arrow: [number, number] = [offsetOf(text, 5, '(m)'), offsetOf(text, 5, ';')];
  assert.deepEqual(originalCandidates(first.loaded, starts, twiceStart, twiceEnd, [arrow], 6), [
    [0, 4, 0],
    [0, 4, 16],
    [0, 5, 2],
    [0, 5, 8],
    [0, 6, 2],
    [0, 7, 0],
  ]);
  assert.deepEqual(originalCandidates(first.loaded, starts, arrow[0], arrow[1]), [
    [0, 5, 12],
    [0, 5, 35],
  ]);
});

void test('a map file next to compiled output: sources relative to the map, unreadable or invalid maps say why', async () => {
  const ws = tempDir('weave-sourcemaps-');
  dirs.push(ws);
  writeFiles(ws, {
    'build/index.js.map': JSON.stringify({
      version: 3,
      file: 'index.js',
      sources: ['../lib/index.ts'],
      names: [],
      mappings: MAPPINGS,
    }),
    'build/broken.js.map': '{"version": 3, "sources": [',
  });
  const loaded = await loadSourceMap(path.join(ws, 'build/index.js'), 'index.js.map');
  assert.ok('loaded' in loaded, JSON.stringify(loaded));
  assert.deepEqual(loaded.loaded.sourceFiles, [path.join(ws, 'lib/index.ts')]);
  assert.deepEqual(loaded.loaded.contents, [null], 'tsc embeds no sources unless asked (inlineSources)');
  const missing = await loadSourceMap(path.join(ws, 'build/gone.js'), 'gone.js.map');
  assert.ok('problem' in missing);
  assert.match(missing.problem, /gone\.js\.map cannot be read \(ENOENT\)/);
  const broken = await loadSourceMap(path.join(ws, 'build/broken.js'), 'broken.js.map');
  assert.ok('problem' in broken);
  assert.match(broken.problem, /broken\.js\.map is not valid/);
});

/** A V8 run of `text` in which the functions at `ran` ([start, end)) were called. */
function runOf(text: string, ran: Array<[number, number]>, extra: Partial<V8FileRun> = {}): V8FileRun {
  return {
    executedStarts: ran.map(([s]) => s),
    executedRanges: ran,
    processes: [
      [
        { startOffset: 0, endOffset: text.length, count: 1 },
        ...ran.map(([s, e]) => ({ startOffset: s, endOffset: e, count: 1 })),
      ],
    ],
    sourceLength: text.length,
    ...extra,
  };
}

void test('compiled output with a map file becomes a run of its source; without one it stays, and says so', async () => {
  const ws = tempDir('weave-sourcemaps-');
  dirs.push(ws);
  const js = generated('//# sourceMappingURL=index.js.map');
  const plain = generated('');
  writeFiles(ws, {
    'lib/index.ts': ORIGINAL,
    'build/index.js': js,
    'build/index.js.map': JSON.stringify({
      version: 3,
      sources: ['../lib/index.ts'],
      names: [],
      mappings: MAPPINGS,
    }),
    'build/plain.js': plain,
    'build/dangling.js': generated('//# sourceMappingURL=dangling.js.map'),
  });
  const add: [number, number] = [offsetOf(js, 1, 'function'), offsetOf(js, 3, '}') + 1];
  const dangling = generated('//# sourceMappingURL=dangling.js.map');
  const { v8, mapped } = await mapGeneratedRuns(
    new Map([
      ['build/index.js', runOf(js, [add])],
      ['build/plain.js', runOf(plain, [add])],
      ['build/dangling.js', runOf(dangling, [add])],
    ]),
    ws,
  );
  assert.deepEqual([...mapped.keys()], ['lib/index.ts']);
  const lib = mapped.get('lib/index.ts')!;
  assert.deepEqual(lib.from, ['build/index.js']);
  assert.deepEqual(lib.functions, [
    [
      [0, 0],
      [0, 16],
      [0, 20],
      [1, 2],
    ],
  ]);
  assert.equal(lib.embedded, undefined);
  // The module's load covers the whole source; add's range maps from `export` to its closing brace.
  assert.deepEqual(lib.processes, [
    [
      [0, 0, -1, 0, 1],
      [0, 0, 2, 1, 1],
    ],
  ]);
  assert.deepEqual([...v8.keys()].sort(), ['build/dangling.js', 'build/plain.js']);
  assert.equal(v8.get('build/plain.js')!.unmappedBecause, 'has no source map');
  assert.match(v8.get('build/dangling.js')!.unmappedBecause!, /dangling\.js\.map cannot be read \(ENOENT\)/);
});

void test('code transformed in memory: the map the hook reported, with line lengths; without one, why', async () => {
  const ws = tempDir('weave-sourcemaps-');
  dirs.push(ws);
  writeFiles(ws, { 'src/index.ts': ORIGINAL, 'src/other.ts': ORIGINAL });
  const js = generated('');
  const map = {
    version: 3,
    sources: ['index.ts'],
    sourcesContent: [ORIGINAL],
    names: [],
    mappings: MAPPINGS,
  };
  const url = `data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}`;
  const add: [number, number] = [offsetOf(js, 1, 'function'), offsetOf(js, 3, '}') + 1];
  const { v8, mapped } = await mapGeneratedRuns(
    new Map([
      [
        'src/index.ts',
        runOf(js, [add], { sourceMap: { url, lineLengths: js.split('\n').map((l) => l.length) } }),
      ],
      ['src/other.ts', runOf(js, [add])],
    ]),
    ws,
  );
  assert.deepEqual([...mapped.keys()], ['src/index.ts']);
  assert.equal(mapped.get('src/index.ts')!.embedded, ORIGINAL);
  assert.deepEqual(mapped.get('src/index.ts')!.functions[0]![1], [0, 16]);
  assert.equal(
    v8.get('src/other.ts')!.unmappedBecause,
    'was transformed in memory, and no source map was reported for it (none, or its process ended first)',
  );

  // Processes that ran different code under one name cannot be merged.
  const mixed = await mapGeneratedRuns(new Map([['src/index.ts', runOf(js, [add], { mixed: true })]]), ws);
  assert.equal(mixed.v8.get('src/index.ts')!.unmappedBecause, 'ran as different code in different processes');
});

void test('mapped runs land on the original file’s tree-sitter definitions; a stale build keeps its own content', async () => {
  const ws = tempDir('weave-sourcemaps-');
  dirs.push(ws);
  const js = generated('//# sourceMappingURL=index.js.map');
  const mapJson = { version: 3, sources: ['../lib/index.ts'], names: [], mappings: MAPPINGS };
  writeFiles(ws, {
    'lib/index.ts': ORIGINAL,
    'build/index.js': js,
    'build/index.js.map': JSON.stringify(mapJson),
  });
  const twice: [number, number] = [offsetOf(js, 4, 'function'), offsetOf(js, 7, '}') + 1];
  const arrow: [number, number] = [offsetOf(js, 5, '(m)'), offsetOf(js, 5, ';')];
  const indexer = createIndexer({ workspaceDir: ws, useCache: false, workers: 0 });
  try {
    const index = await indexer.indexWorkspace({ only: ['lib/index.ts'] });
    const collectWith = async (run: V8FileRun) => {
      const raw = await mapGeneratedRuns(new Map([['build/index.js', run]]), ws);
      const context = { workspaceDir: ws, files: index.files, units: {} as Record<string, UnitRow[]> };
      const entry = await collectSpecCoverage({ ...raw, python: new Map() }, context, 'run-1');
      return { entry: entry!, units: context.units };
    };
    const { entry, units } = await collectWith(runOf(js, [twice, arrow]));
    assert.deepEqual(Object.keys(entry.files), ['lib/index.ts'], 'the build output is not recorded itself');
    const lib = entry.files['lib/index.ts']!;
    const names = units[lib.hash]!.map((u) => u[0]);
    // twice and the arrow function g it defines and calls ran; add did not.
    assert.deepEqual(names, ['add', 'twice', 'twice.g']);
    assert.deepEqual(lib.functions.map((i) => names[i]).sort(), ['twice', 'twice.g']);
    assert.deepEqual(lib.mappedFrom, ['build/index.js']);
    assert.equal(lib.wholeFile, undefined);

    // A map that embeds other content than the file (the build is older): coverage of that content, per file.
    fs.writeFileSync(
      path.join(ws, 'build/index.js.map'),
      JSON.stringify({ ...mapJson, sourcesContent: [ORIGINAL.replace('a + b', 'a - b')] }),
    );
    const stale = (await collectWith(runOf(js, [twice]))).entry.files['lib/index.ts']!;
    assert.notEqual(stale.hash, lib.hash);
    assert.equal(stale.wholeFile, true);
    assert.match(stale.wholeFileBecause!, /build\/index\.js was built from other content of lib\/index\.ts/);
  } finally {
    indexer.dispose();
  }
});
