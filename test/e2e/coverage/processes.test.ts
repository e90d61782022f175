// The Node coverage hook (NODE_OPTIONS --require) in the processes a real spec starts: worker threads,
// process.exit(), a spec's own NODE_OPTIONS next to the evidence hook, and coverage tools of the user's own
// (c8 works by setting NODE_V8_COVERAGE for the processes it starts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkWorkspace } from '../../../src/core/fullCheck/checkWorkspace';
import { instrumentSpec, writeCoverageHooks } from '../../../src/core/coverage/instrument';
import { readCoverageStore } from '../../../src/core/coverage/store';
import { executed } from './fixtures';
import { scratchDir, spec, workspace } from './hookWorkspace';

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
  const theirs = scratchDir('weave-coverage-theirs-');
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
