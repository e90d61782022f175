// The tracers' raw files as the readers meet them: half-written by a killed process, from outside the
// workspace, from node_modules, a transpiled source whose length is not the file's.
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, test } from 'node:test';
import { instrumentSpec } from '../../../src/core/coverage/instrument';
import { readPythonCoverage } from '../../../src/core/coverage/python';
import { mapGeneratedRuns } from '../../../src/core/coverage/mappedRuns';
import { lineHits, readV8Coverage } from '../../../src/core/coverage/v8';
import { removeDir, tempDir, writeFiles } from '../../support/repos';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

void test('V8 files: a half-written file is skipped; only workspace files outside node_modules are kept', async () => {
  const ws = tempDir('weave-coverage-readers-');
  dirs.push(ws);
  const url = (rel: string): string => pathToFileURL(path.join(ws, rel)).href;
  const script = (rel: string, count: number) => ({
    url: url(rel),
    functions: [
      { functionName: '', ranges: [{ startOffset: 0, endOffset: 40, count: 1 }] },
      { functionName: 'f', ranges: [{ startOffset: 10, endOffset: 30, count }] },
    ],
  });
  writeFiles(ws, {
    'raw/coverage-1.json': JSON.stringify({
      result: [
        script('src/a.js', 2),
        script('node_modules/dep/index.js', 1),
        script('.weave/cache/x.js', 1),
        { url: 'node:internal/timers', functions: [] },
        { url: pathToFileURL('/elsewhere/b.js').href, functions: [] },
      ],
    }),
    'raw/coverage-2.json': '{"result": [{"url": "file:///',
    'raw/coverage-3.json': JSON.stringify({ result: [script('src/a.js', 0)] }),
  });
  const runs = await readV8Coverage(path.join(ws, 'raw'), ws);
  assert.deepEqual([...runs.keys()], ['src/a.js']);
  const a = runs.get('src/a.js')!;
  assert.deepEqual(a.executedStarts, [10], 'f ran in one process');
  assert.equal(a.sourceLength, 40);
  assert.equal(a.processes.length, 2);
  assert.deepEqual(await readV8Coverage(path.join(ws, 'missing'), ws), new Map());
});

void test('V8 files: maps in the coverage file and beside it; a lost map says which runner and why', async () => {
  const ws = tempDir('weave-coverage-readers-');
  dirs.push(ws);
  const url = (rel: string): string => pathToFileURL(path.join(ws, rel)).href;
  const script = (rel: string) => ({
    url: url(rel),
    functions: [
      { functionName: '', ranges: [{ startOffset: 0, endOffset: 90, count: 1 }] },
      { functionName: 'f', ranges: [{ startOffset: 10, endOffset: 30, count: 1 }] },
    ],
  });
  const map = (name: string) => ({ url: `${name}.map`, lineLengths: [89] });
  writeFiles(ws, {
    // vm-compiled code's maps come in the coverage file itself; the debugger's in a .maps.json beside it.
    'raw/coverage-1.json': JSON.stringify({
      result: [script('src/a.ts'), script('src/b.ts'), script('src/lost.ts'), script('src/none.ts')],
      'source-map-cache': { [url('src/a.ts')]: map('a') },
      runner: 'vitest 4.1.12',
      pendingMaps: [url('src/b.ts'), url('src/none.ts')],
    }),
    'raw/coverage-1.maps.json': JSON.stringify({
      'source-map-cache': { [url('src/b.ts')]: map('b') },
      noMap: [url('src/none.ts')],
    }),
    // Another process whose debugger never reported (it ended first): its pending script stays unmapped there.
    'raw/coverage-2.json': JSON.stringify({
      result: [script('src/lost.ts'), script('src/a.ts')],
      runner: 'vitest 4.1.12',
      pendingMaps: [url('src/lost.ts')],
    }),
  });
  const runs = await readV8Coverage(path.join(ws, 'raw'), ws);
  assert.equal(runs.get('src/a.ts')!.sourceMap?.url, 'a.map');
  // A process that lost the map of code of the same length ran the same code: not "mixed".
  assert.equal(runs.get('src/a.ts')!.mixed, undefined);
  assert.equal(runs.get('src/b.ts')!.sourceMap?.url, 'b.map');
  assert.equal(runs.get('src/none.ts')!.mapMissing, 'none');
  assert.equal(runs.get('src/lost.ts')!.mapMissing, 'ended');
  assert.equal(runs.get('src/lost.ts')!.runner, 'vitest 4.1.12');
  writeFiles(ws, { 'src/lost.ts': 'x', 'src/none.ts': 'x' });
  const { v8 } = await mapGeneratedRuns(
    new Map([...runs].filter(([rel]) => rel === 'src/lost.ts' || rel === 'src/none.ts')),
    ws,
  );
  assert.equal(
    v8.get('src/lost.ts')!.unmappedBecause,
    'was transformed in memory by vitest 4.1.12, and no source map was reported for it (its process ended before the debugger reported it)',
  );
  assert.equal(
    v8.get('src/none.ts')!.unmappedBecause,
    'was transformed in memory by vitest 4.1.12, and no source map was reported for it (the code it ran names none)',
  );
});

void test('line hits: the innermost range decides a line in one process; any process that hit it counts', () => {
  const text = 'a();\nfunction f() {\n  x();\n}\n\nb();\n';
  const f = { startOffset: 5, endOffset: 28, count: 0 };
  const top = { startOffset: 0, endOffset: text.length, count: 1 };
  assert.deepEqual(lineHits(text, [[top, f]]), [
    [1, 1, 1],
    [2, 4, 0],
    [6, 6, 1],
  ]);
  // A second process that ran f: every line is hit (the blank line 5 is never a statement).
  assert.deepEqual(
    lineHits(text, [
      [top, f],
      [top, { ...f, count: 3 }],
    ]),
    [
      [1, 4, 1],
      [6, 6, 1],
    ],
  );
});

void test('Python files: damaged ones and site-packages are skipped', async () => {
  const ws = tempDir('weave-coverage-readers-');
  dirs.push(ws);
  writeFiles(ws, {
    'raw/python-1.json': JSON.stringify({
      files: {
        [path.join(ws, 'pkg/core.py')]: [['slug', 3], ['bad']],
        [path.join(ws, '.venv/lib/python3.11/site-packages/x.py')]: [['x', 1]],
      },
    }),
    'raw/python-2.json': 'not json',
  });
  const runs = await readPythonCoverage(path.join(ws, 'raw'), ws);
  assert.deepEqual(Object.fromEntries(runs), { 'pkg/core.py': [['slug', 3]] });
});

void test('instrumentation keeps the user’s PYTHONPATH after the hook and a NODE_V8_COVERAGE they set', async () => {
  const ws = tempDir('weave-coverage-readers-');
  dirs.push(ws);
  const dirsOf = { v8: path.join(ws, 'v8'), python: path.join(ws, 'py') };
  const hooks = { siteDir: '/hook', nodeHook: '/hooks/v8 hook.cjs' };
  const own = await instrumentSpec(ws, hooks, dirsOf, { PYTHONPATH: 'src' }, { PYTHONPATH: 'ignored' });
  assert.equal(own.env.PYTHONPATH, `/hook${path.delimiter}src`);
  // V8 coverage goes through the hook (NODE_OPTIONS), into the spec's own directory.
  assert.equal(own.env.WEAVE_V8_COVERAGE_DIR, dirsOf.v8);
  assert.equal(own.env.NODE_OPTIONS, '--require "/hooks/v8 hook.cjs"');
  assert.equal('NODE_V8_COVERAGE' in own.env, false);
  assert.deepEqual(own.writableDirs, [dirsOf.v8, dirsOf.python]);
  const inherited = await instrumentSpec(
    ws,
    hooks,
    dirsOf,
    {},
    { PYTHONPATH: 'lib', NODE_OPTIONS: '--no-warnings' },
  );
  assert.equal(inherited.env.PYTHONPATH, `/hook${path.delimiter}lib`);
  assert.equal(inherited.env.NODE_OPTIONS, '--require "/hooks/v8 hook.cjs" --no-warnings');
  const specOptions = await instrumentSpec(
    ws,
    hooks,
    dirsOf,
    { NODE_OPTIONS: '--max-old-space-size=99' },
    {
      NODE_OPTIONS: 'ignored',
    },
  );
  assert.equal(specOptions.env.NODE_OPTIONS, '--require "/hooks/v8 hook.cjs" --max-old-space-size=99');
  const c8 = await instrumentSpec(ws, hooks, dirsOf, { NODE_V8_COVERAGE: '/theirs' }, {});
  assert.equal(c8.env.PYTHONPATH, '/hook');
  assert.equal('NODE_V8_COVERAGE' in c8.env, false);
  assert.equal('NODE_OPTIONS' in c8.env, false);
});
