// When the Node coverage hook starts and stops recording: at the first workspace script, whichever way it is
// loaded (require, import(), the vm functions jest and vitest use, a spec's own preload), in the workers of the
// real jest and vitest, and on the SIGTERM pools end their workers with.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { checkWorkspace } from '../../../src/core/fullCheck/checkWorkspace';
import { readCoverageStore } from '../../../src/core/coverage/store';
import { REPO_ROOT } from '../../support/paths';
import { executed } from './fixtures';
import { runInstrumented, spec, vitestFile, workspace } from './hookWorkspace';

void test('coverage that starts at the first workspace script loses nothing: require, import(), vm, a spec’s own preload', async () => {
  // A runner of its own (node_modules) that works before it loads any workspace code, then reaches the workspace
  // one way per spec, as real runners do: require, mocha's import() of ES modules, jest's vm.Script, vitest's
  // runInThisContext, vm.compileFunction. Each spec's way is its process's first workspace compile.
  const runner = [
    "const fs = require('node:fs');",
    "const path = require('node:path');",
    "const vm = require('node:vm');",
    "const { pathToFileURL } = require('node:url');",
    'function runnerWork(n) { let s = 0; for (let i = 0; i < n; i++) s += i; return s; }',
    'runnerWork(1000);',
    'const file = (rel) => path.join(process.cwd(), rel);',
    "const source = (rel) => fs.readFileSync(file(rel), 'utf8');",
    'const ways = {',
    "  require: () => require(file('cjs/lib.js')).viaRequire(),",
    "  import: () => import(pathToFileURL(file('esm/lib.mjs')).href).then((m) => m.viaImport()),",
    "  script: () => new vm.Script(source('vm/script.js'), { filename: file('vm/script.js') }).runInThisContext()(),",
    "  context: () => vm.runInThisContext(source('vm/context.js'), { filename: file('vm/context.js') })(),",
    "  compileFunction: () => vm.compileFunction(source('vm/body.js'), [], { filename: file('vm/body.js') })(),",
    '  preload: () => globalThis.fromSetup(),',
    '};',
    'Promise.resolve(ways[process.argv[2]]()).then(() => console.log("1 passed, 0 failed"));',
    '',
  ].join('\n');
  const ways = ['require', 'import', 'script', 'context', 'compileFunction'];
  const dir = workspace(
    [
      ...ways.map((way) => spec(way.toLowerCase(), `node node_modules/own-runner/index.js ${way}`)),
      spec('preload', 'node node_modules/own-runner/index.js preload', {
        NODE_OPTIONS: '--require ./setup.js',
      }),
    ],
    {
      'node_modules/own-runner/index.js': runner,
      'setup.js': 'globalThis.fromSetup = function fromSetup() {\n  return 1;\n};\n',
      'cjs/lib.js': 'exports.viaRequire = function viaRequire() {\n  return 1;\n};\n',
      'esm/lib.mjs':
        'export function viaImport() {\n  return 1;\n}\nexport function unused() {\n  return 2;\n}\n',
      'vm/script.js': '(function viaScript() {\n  return 1;\n})\n',
      'vm/context.js': '(function viaContext() {\n  return 1;\n})\n',
      'vm/body.js': 'return (function viaCompileFunction() {\n  return 1;\n})();\n',
    },
  );
  const result = await checkWorkspace({ workspaceDir: dir, concurrency: 2 });
  for (const r of result.run.results) assert.equal(r.verdict, 'pass', `${r.id}: ${r.output}`);
  const traced = await Promise.all([...ways, 'preload'].map((way) => executed(dir, way.toLowerCase())));
  assert.deepEqual(traced, [
    ['cjs/lib.js#viaRequire'],
    ['esm/lib.mjs#viaImport'],
    ['vm/script.js#viaScript'],
    ['vm/context.js#viaContext'],
    ['vm/body.js#viaCompileFunction'],
    ['setup.js#globalThis.fromSetup'],
  ]);
});

void test('jest and vitest workers, which load test code through vm and end by SIGTERM, record what their tests ran', async () => {
  const dir = workspace(
    [
      spec('jest', 'npx jest -w 2 --cacheDirectory .jest-cache'),
      spec('vitest', 'npx vitest run --pool=forks'),
    ],
    {
      '.gitignore': 'node_modules\n.jest-cache\n',
      'jest.config.js': "module.exports = { testMatch: ['**/jest/*.test.js'] };\n",
      'vitest.config.mjs': "export default { test: { include: ['vitest/*.test.mjs'] } };\n",
      'jest/a.test.js': "const lib = require('..');\ntest('a', () => expect(lib.inWorker(1)).toBe(2));\n",
      'jest/b.test.js': "const lib = require('..');\ntest('b', () => expect(lib.beforeExit()).toBe(2));\n",
      'vitest/a.test.mjs': vitestFile('a', 'looped(3)', 3),
    },
  );
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  const result = await checkWorkspace({ workspaceDir: dir, concurrency: 2 });
  for (const r of result.run.results) {
    assert.equal(r.verdict, 'pass', `${r.id}: ${r.output}`);
    // The coverage hook and the runner-evidence hooks (both module hooks in vitest's process) compose.
    assert.equal(r.evidence, 'runner', `${r.id}: ${r.output}`);
  }
  const store = await readCoverageStore(dir);
  // jest's workers (child processes) run lib.js after babel-jest rewrote it: its inline source map (which the
  // hook reports) carries the functions back to lib.js as written.
  assert.deepEqual(Object.keys(store.specs.jest?.files ?? {}).sort(), [
    'jest.config.js',
    'jest/a.test.js',
    'jest/b.test.js',
    'lib.js',
  ]);
  assert.equal(store.specs.jest?.files['lib.js']?.wholeFile, undefined);
  assert.deepEqual(store.specs.jest?.files['lib.js']?.mappedFrom, ['lib.js']);
  assert.deepEqual((await executed(dir, 'jest')).filter((label) => label.startsWith('lib.js')).sort(), [
    'lib.js#beforeExit',
    'lib.js#inWorker',
  ]);
  // vitest's forks, which it ends with SIGTERM, run the test file through vite; lib.js, required, is as written.
  assert.deepEqual(
    (await executed(dir, 'vitest')).filter((label) => label.startsWith('lib.js')),
    ['lib.js#looped'],
  );
  assert.ok(store.specs.vitest?.files['vitest/a.test.mjs'], JSON.stringify(store.specs.vitest));
});

void test('on SIGTERM the hook writes what ran, and the signal still does what the program makes of it', async () => {
  const dir = workspace([], {
    'scripts/terminated.js':
      "require('..').looped(2);\nprocess.kill(process.pid, 'SIGTERM');\nsetInterval(() => {}, 1000);\n",
    'scripts/handles.js': [
      "require('..').withOptions();",
      "process.on('SIGTERM', () => { console.log('handled'); process.exit(0); });",
      "process.kill(process.pid, 'SIGTERM');",
      'setInterval(() => {}, 1000);',
      '',
    ].join('\n'),
  });
  const run = async (script: string, name: string) => {
    const { result: r, dirs } = await runInstrumented(dir, name, process.execPath, [script]);
    const functions = fs
      .readdirSync(dirs.v8)
      .flatMap(
        (f) =>
          (
            JSON.parse(fs.readFileSync(path.join(dirs.v8, f), 'utf8')) as {
              result: Array<{ functions: Array<{ functionName: string; ranges: Array<{ count: number }> }> }>;
            }
          ).result,
      )
      .flatMap((s) => s.functions.filter((fn) => fn.ranges[0]?.count === 1).map((fn) => fn.functionName));
    return { r, functions };
  };
  const terminated = await run('scripts/terminated.js', 'terminated');
  assert.equal(terminated.r.signal, 'SIGTERM', terminated.r.stderr);
  assert.ok(terminated.functions.includes('looped'), terminated.functions.join(', '));
  const handles = await run('scripts/handles.js', 'handles');
  assert.equal(handles.r.status, 0, handles.r.stderr);
  assert.equal(handles.r.stdout.trim(), 'handled');
  assert.ok(handles.functions.includes('withOptions'), handles.functions.join(', '));
});
