// Worker threads that end without their 'exit' listeners: terminated by another thread (how vitest's
// --pool=threads ends the thread of every test file), or still running when their process exits. The coverage
// hook has each write what it ran first, and the worker or the process still ends when a worker cannot answer.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { checkWorkspace } from '../../../src/core/fullCheck/checkWorkspace';
import { REPO_ROOT } from '../../support/paths';
import { executed } from './fixtures';
import { spec, vitestFile, workspace } from './hookWorkspace';

const nodeTest = (body: string[]): string =>
  [
    "const test = require('node:test');",
    "const assert = require('node:assert');",
    "const { once } = require('node:events');",
    "const { Worker } = require('node:worker_threads');",
    "test('worker', async () => {",
    ...body.map((line) => `  ${line}`),
    '});',
    '',
  ].join('\n');

// Stays alive on its port until ended, as a pool's idle worker does.
const IDLE_WORKER = [
  "const { parentPort } = require('node:worker_threads');",
  "parentPort.on('message', () => {});",
  "parentPort.postMessage(require('..').inWorker(1));",
  '',
].join('\n');

void test('a worker thread ended by terminate() records what it ran; one stuck in a loop is still ended', async () => {
  const dir = workspace(
    [
      spec('terminated', 'node --test test/terminated.test.js'),
      spec('stuck', 'node --test test/stuck.test.js'),
      spec('plain', 'node --test test/plain.test.js'),
    ],
    {
      'test/idle.js': IDLE_WORKER,
      'test/terminated.test.js': nodeTest([
        "const w = new Worker(require.resolve('./idle.js'));",
        "const [n] = await once(w, 'message');",
        'assert.equal(n, 2);',
        // terminate() keeps its result: the worker's exit code.
        "assert.equal(typeof (await w.terminate()), 'number');",
      ]),
      // Busy in synchronous code: it cannot answer, so it is ended without writing.
      'test/spin.js': [
        "const { parentPort } = require('node:worker_threads');",
        "parentPort.postMessage(require('..').looped(3));",
        'for (;;);',
        '',
      ].join('\n'),
      'test/stuck.test.js': nodeTest([
        "const w = new Worker(require.resolve('./spin.js'));",
        "await once(w, 'message');",
        'await w.terminate();',
      ]),
      // Never runs workspace code, so it never started coverage: terminated as it would be without Weave.
      'test/plain.test.js': nodeTest([
        "const w = new Worker(\"require('node:worker_threads').parentPort.on('message', () => {}); require('node:worker_threads').parentPort.postMessage(1);\", { eval: true });",
        "await once(w, 'message');",
        'await w.terminate();',
      ]),
    },
  );
  const result = await checkWorkspace({ workspaceDir: dir, concurrency: 2 });
  assert.deepEqual(
    result.run.results.map((r) => [r.id, r.verdict]),
    [
      ['terminated', 'pass'],
      ['stuck', 'pass'],
      ['plain', 'pass'],
    ],
    result.run.results.map((r) => r.output).join('\n'),
  );
  assert.deepEqual(await executed(dir, 'terminated'), ['lib.js#inWorker']);
});

void test('workers still running when their process exits (unref’d, or a process.exit()) record what they ran', async () => {
  const dir = workspace(
    [spec('unref', 'node --test test/unref.test.js'), spec('exits', 'node scripts/exits.js')],
    {
      'test/idle.js': IDLE_WORKER,
      // The test lets go of the worker: the process ends with it still running.
      'test/unref.test.js': nodeTest([
        "const w = new Worker(require.resolve('./idle.js'));",
        "assert.equal((await once(w, 'message'))[0], 2);",
        'w.unref();',
      ]),
      'scripts/exits.js': [
        "const { Worker } = require('node:worker_threads');",
        "const w = new Worker(require.resolve('../test/idle.js'));",
        "w.once('message', () => {",
        "  console.log('1 passed, 0 failed');",
        '  process.exit(0);',
        '});',
        '',
      ].join('\n'),
    },
  );
  const result = await checkWorkspace({ workspaceDir: dir, concurrency: 2 });
  assert.deepEqual(
    result.run.results.map((r) => [r.id, r.verdict]),
    [
      ['unref', 'pass'],
      ['exits', 'pass'],
    ],
    result.run.results.map((r) => r.output).join('\n'),
  );
  assert.deepEqual(await executed(dir, 'unref'), ['lib.js#inWorker']);
  assert.deepEqual(await executed(dir, 'exits'), ['lib.js#inWorker']);
});

void test('vitest --pool=threads, which ends each test file’s thread with terminate(), records what its tests ran', async () => {
  const dir = workspace([spec('threads', 'npx vitest run --pool=threads')], {
    '.gitignore': 'node_modules\n',
    'vitest.config.mjs': "export default { test: { include: ['vitest/*.test.mjs'] } };\n",
    'vitest/a.test.mjs': vitestFile('a', 'looped(3)', 3),
    'vitest/b.test.mjs': vitestFile('b', 'withOptions()', 3),
  });
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  const result = await checkWorkspace({ workspaceDir: dir, concurrency: 1 });
  const [run] = result.run.results;
  assert.equal(run?.verdict, 'pass', run?.output);
  assert.deepEqual(
    (await executed(dir, 'threads')).filter((label) => label.startsWith('lib.js')),
    ['lib.js#looped', 'lib.js#withOptions'],
  );
});
