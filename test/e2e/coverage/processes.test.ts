// The Node coverage hook (NODE_OPTIONS --require) in the processes a real spec starts: worker threads,
// process.exit(), a spec's own NODE_OPTIONS next to the evidence hook, and coverage tools of the user's own
// (c8 works by setting NODE_V8_COVERAGE for the processes it starts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkWorkspace } from '../../../src/core/check/checkWorkspace';
import { instrumentSpec, writeCoverageHooks } from '../../../src/core/coverage/instrument';
import { readCoverageStore } from '../../../src/core/coverage/store';
import { initRepo, removeDir, tempDir, writeFiles } from '../../support/repos';
import { executed } from './fixtures';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

const spec = (id: string, command: string, env?: Record<string, string>) => ({
  id,
  title: id,
  kind: 'functional',
  statement: id,
  test: { command, files: [], ...(env ? { env } : {}) },
});

const LIB = [
  'function inWorker(n) {',
  '  return n + 1;',
  '}',
  'function beforeExit() {',
  '  return 2;',
  '}',
  'function withOptions() {',
  '  return 3;',
  '}',
  'function looped(n) {',
  '  let s = 0;',
  '  for (let i = 0; i < n; i++) s += i;',
  '  return s;',
  '}',
  'function neverCalled() {',
  '  return 4;',
  '}',
  'module.exports = { inWorker, beforeExit, withOptions, looped, neverCalled };',
  '',
].join('\n');

function workspace(specs: unknown[], files: Record<string, string>): string {
  const dir = tempDir('weave-coverage-processes-');
  dirs.push(dir);
  writeFiles(dir, {
    'package.json': '{ "name": "lib", "version": "1.0.0", "main": "lib.js" }\n',
    'lib.js': LIB,
    ...files,
    '.weave/specs.json': JSON.stringify({ version: 1, specs }, null, 2),
  });
  initRepo(dir);
  return dir;
}

void test('a worker thread, a process.exit() and a spec’s own NODE_OPTIONS are all traced', async () => {
  const dir = workspace(
    [
      spec('worker', 'node --test test/worker.test.js'),
      spec('exits', 'node scripts/exits.js'),
      // The spec's own preload must still run, and the runner's evidence hook too (its summary below).
      spec('options', 'node --test test/options.test.js', { NODE_OPTIONS: '--require ./setup.js' }),
    ],
    {
      'test/worker.test.js': [
        "const test = require('node:test');",
        "const assert = require('node:assert');",
        "const { Worker } = require('node:worker_threads');",
        "test('in a worker', async () => {",
        "  const w = new Worker(require.resolve('./worker.js'), { execArgv: [] });",
        "  const [n] = await require('node:events').once(w, 'message');",
        '  assert.equal(n, 2);',
        '});',
        '',
      ].join('\n'),
      'test/worker.js': "require('node:worker_threads').parentPort.postMessage(require('..').inWorker(1));\n",
      'scripts/exits.js': "require('..').beforeExit();\nprocess.exit(0);\n",
      'setup.js': 'globalThis.setUpBySpec = true;\n',
      'test/options.test.js': [
        "const test = require('node:test');",
        "const assert = require('node:assert');",
        "test('options', () => { assert.equal(globalThis.setUpBySpec, true); require('..').withOptions(); });",
        '',
      ].join('\n'),
    },
  );
  const result = await checkWorkspace({ workspaceDir: dir, concurrency: 2 });
  assert.deepEqual(
    result.run.results.map((r) => [r.id, r.verdict]),
    [
      ['worker', 'pass'],
      ['exits', 'pass'],
      ['options', 'pass'],
    ],
    result.run.results.map((r) => r.output).join('\n'),
  );
  assert.deepEqual(await executed(dir, 'worker'), ['lib.js#inWorker']);
  assert.deepEqual(await executed(dir, 'exits'), ['lib.js#beforeExit']);
  assert.deepEqual(await executed(dir, 'options'), ['lib.js#withOptions']);
  const options = result.run.results.find((r) => r.id === 'options');
  assert.equal(options?.evidence, 'runner');
  assert.equal(options?.summary?.passed, 1);
});

void test('c8-style tools keep their block coverage: a spec that sets NODE_V8_COVERAGE, a launcher that does', async () => {
  const theirs = tempDir('weave-coverage-theirs-');
  dirs.push(theirs);
  // Like c8: start the tests with NODE_V8_COVERAGE, then read what V8 wrote (block ranges with counts).
  const launcher = [
    "const { spawnSync } = require('node:child_process');",
    "const fs = require('node:fs');",
    "const path = require('node:path');",
    "const out = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'c8-like-'));",
    "const r = spawnSync(process.execPath, ['scripts/loops.js'], {",
    "  stdio: 'inherit',",
    '  env: { ...process.env, NODE_V8_COVERAGE: out },',
    '});',
    "require('..').withOptions();",
    'const blocks = fs.readdirSync(out).flatMap((f) =>',
    "  JSON.parse(fs.readFileSync(path.join(out, f), 'utf8')).result.filter((s) => s.url.endsWith('/lib.js')),",
    ');',
    "const looped = blocks.flatMap((s) => s.functions).find((f) => f.functionName === 'looped');",
    "console.log('block ranges of looped:', JSON.stringify(looped && looped.ranges));",
    'fs.rmSync(out, { recursive: true });',
    'process.exit(looped && looped.ranges.length > 1 && looped.ranges[0].count === 1 ? r.status : 9);',
    '',
  ].join('\n');
  const dir = workspace(
    [
      spec('own', 'node scripts/loops.js', { NODE_V8_COVERAGE: theirs }),
      spec('launched', 'node scripts/c8-like.js'),
    ],
    { 'scripts/loops.js': "require('..').looped(5);\n", 'scripts/c8-like.js': launcher },
  );
  const result = await checkWorkspace({ workspaceDir: dir, concurrency: 2 });
  const launched = result.run.results.find((r) => r.id === 'launched');
  assert.equal(launched?.verdict, 'pass', launched?.output);
  assert.equal(result.run.results.find((r) => r.id === 'own')?.verdict, 'pass');
  // The spec's own directory got V8's files; Weave recorded nothing for that spec.
  const ownFiles = fs.readdirSync(theirs).filter((f) => f.endsWith('.json'));
  assert.ok(ownFiles.length > 0);
  const ownScripts = ownFiles.flatMap(
    (f) =>
      (JSON.parse(fs.readFileSync(path.join(theirs, f), 'utf8')) as { result: Array<{ url: string }> })
        .result,
  );
  assert.ok(ownScripts.some((s) => s.url.endsWith('/lib.js')));
  assert.equal((await readCoverageStore(dir)).specs.own, undefined);
  assert.deepEqual(result.coverage?.withoutData, ['own']);
  // The launcher itself is still Weave's; the process it gave NODE_V8_COVERAGE is the tool's alone.
  assert.deepEqual(await executed(dir, 'launched'), ['lib.js#withOptions']);
});

void test('the hook writes function ranges of the workspace’s own scripts only: no internals, no node_modules', async () => {
  const dir = workspace([], {
    'node_modules/dep/index.js': 'exports.dep = function dep() { return 1; };\n',
    'scripts/uses-dep.js': "require('dep').dep();\nrequire('..').looped(3);\n",
  });
  const raw = path.join(dir, '.weave/cache/coverage/raw/probe');
  const hooks = await writeCoverageHooks(raw);
  const dirs = { v8: path.join(raw, 'v8'), python: path.join(raw, 'python') };
  const { env } = await instrumentSpec(dir, hooks, dirs, {}, process.env);
  const r = spawnSync(process.execPath, ['scripts/uses-dep.js'], {
    cwd: dir,
    env: { ...process.env, ...env },
  });
  assert.equal(r.status, 0, String(r.stderr));
  const written = fs.readdirSync(dirs.v8);
  assert.equal(written.length, 1, written.join(', '));
  const { result } = JSON.parse(fs.readFileSync(path.join(dirs.v8, written[0]!), 'utf8')) as {
    result: Array<{ url: string; functions: Array<{ functionName: string; ranges: unknown[] }> }>;
  };
  assert.deepEqual(result.map((s) => path.relative(dir, fileURLToPath(s.url))).sort(), [
    'lib.js',
    'scripts/uses-dep.js',
  ]);
  const looped = result.flatMap((s) => s.functions).find((f) => f.functionName === 'looped');
  assert.equal(looped?.ranges.length, 1, 'binary function coverage: one range per function, no blocks');
});

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
