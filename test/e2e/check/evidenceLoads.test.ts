// What the runner hooks report a test process loaded before its first test (the protected set's observed part,
// sandbox/observedLoads.ts), under the runners whose loads go past require.cache: jest in band, in worker
// processes and with ES modules (jest's own module registry), vitest in forks and threads (vite's module graph in
// the worker), ES modules under node --test, plain node and mocha (a registerHooks load hook). Each test loads a
// helper through a computed name. Only a run that asks for it (a reference run: WEAVE_EVIDENCE_LOADS) gets the
// list from jest, vitest and ES modules; another run reports none of it. Real jest 30, vitest 4, mocha, node.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEvidence, type EvidenceReport } from '../../../src/core/check/evidence/session';
import { runCommand } from '../../../src/core/process/runCommand';
import { makeRepo } from '../../support/gitRepo';
import { REPO_ROOT } from '../../support/paths';

const HELPER_CJS = "exports.gate = () => require('../src/gate');\n";
const HELPER_ESM = "import { open } from '../src/gate.mjs';\nexport const gate = () => ({ open });\n";
const computedImport = (folder: string): string =>
  `const { gate } = await import(new URL('../${folder.slice(0, 2)}' + '${folder.slice(2)}/helpers.mjs', import.meta.url));\n`;

const FILES: Record<string, string> = {
  '.gitignore': 'node_modules\n',
  'package.json': '{"name":"loads","version":"1.0.0","private":true}\n',
  'src/gate.js': 'exports.open = true;\n',
  'src/gate.mjs': 'export const open = true;\n',
  // jest, CommonJS: two files, so that `-w 2` runs them in worker processes. jest runs fast suites in band once its
  // cache holds their timings (a second run, or an earlier run on the machine: the cache is in the temp folder);
  // a worker memory limit makes it use its workers every time.
  'jsupport/helpers.js': HELPER_CJS,
  'jt/a.test.js':
    "const path = require('node:path');\nconst { gate } = require(path.join(__dirname, '..', 'jsup' + 'port', 'helpers'));\n" +
    "test('open', () => expect(gate().open).toBe(true));\n",
  'jt/b.test.js': "test('runs in a worker', () => expect(/jest-worker/.test(process.argv[1])).toBe(true));\n",
  // jest, ES modules (--experimental-vm-modules).
  'esupport/helpers.mjs': HELPER_ESM,
  'ej/gate.test.mjs':
    "import { expect, test } from '@jest/globals';\n" +
    computedImport('esupport') +
    "test('open', () => expect(gate().open).toBe(true));\n",
  'vsupport/helpers.mjs': HELPER_ESM,
  'vt/gate.test.mjs':
    "import { expect, test } from 'vitest';\n" +
    computedImport('vsupport') +
    "test('open', () => expect(gate().open).toBe(true));\n",
  'nsupport/helpers.mjs': HELPER_ESM,
  'nt/gate.test.mjs':
    "import test from 'node:test';\nimport assert from 'node:assert/strict';\n" +
    computedImport('nsupport') +
    "test('open', () => assert.equal(gate().open, true));\n",
  'msupport/helpers.mjs': HELPER_ESM,
  'mt/gate.spec.mjs':
    "import assert from 'node:assert/strict';\n" +
    computedImport('msupport') +
    "it('open', () => assert.equal(gate().open, true));\n",
};

const JEST = 'node node_modules/jest/bin/jest.js';
const VITEST = 'node node_modules/vitest/vitest.mjs run --no-cache --configLoader runner';
/** command → [the helper its test loads by a computed name, the test file(s)]. */
const CASES: Array<{ name: string; command: string; helper: string; tests: string[]; passed: number }> = [
  {
    name: 'jest in band',
    command: `${JEST} -i jt/a`,
    helper: 'jsupport/helpers.js',
    tests: ['jt/a.test.js'],
    passed: 1,
  },
  {
    name: 'jest in worker processes',
    command: `${JEST} -w 2 --workerIdleMemoryLimit=1GB jt/`,
    helper: 'jsupport/helpers.js',
    tests: ['jt/a.test.js', 'jt/b.test.js'],
    passed: 2,
  },
  {
    name: 'jest with ES modules',
    command: `node --experimental-vm-modules ${JEST.slice('node '.length)} -i ej/`,
    helper: 'esupport/helpers.mjs',
    tests: ['ej/gate.test.mjs'],
    passed: 1,
  },
  {
    name: 'vitest in forks',
    command: `${VITEST} --pool=forks vt/`,
    helper: 'vsupport/helpers.mjs',
    tests: ['vt/gate.test.mjs'],
    passed: 1,
  },
  {
    name: 'vitest in threads',
    command: `${VITEST} --pool=threads vt/`,
    helper: 'vsupport/helpers.mjs',
    tests: ['vt/gate.test.mjs'],
    passed: 1,
  },
  {
    name: 'node --test, ES modules',
    command: 'node --test nt/gate.test.mjs',
    helper: 'nsupport/helpers.mjs',
    tests: ['nt/gate.test.mjs'],
    passed: 1,
  },
  {
    name: 'plain node, ES modules',
    command: 'node nt/gate.test.mjs',
    helper: 'nsupport/helpers.mjs',
    tests: ['nt/gate.test.mjs'],
    passed: 1,
  },
  {
    name: 'mocha, ES modules',
    command: 'node node_modules/mocha/bin/mocha.js mt/gate.spec.mjs',
    helper: 'msupport/helpers.mjs',
    tests: ['mt/gate.spec.mjs'],
    passed: 1,
  },
];

let ws: string;
before(async () => {
  ws = await makeRepo(FILES);
  await fs.symlink(path.join(REPO_ROOT, 'node_modules'), path.join(ws, 'node_modules'));
});
after(async () => {
  await fs.rm(ws, { recursive: true, force: true });
});

async function run(command: string, recordLoads: boolean): Promise<EvidenceReport> {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
  delete env.NODE_TEST_CONTEXT;
  delete env.NODE_OPTIONS;
  const session = await startEvidence({}, env, undefined, { recordLoads });
  try {
    const outcome = await runCommand({
      command,
      cwd: ws,
      env: session.env,
      baseEnv: env,
      inheritedInputs: session.inheritedInputs,
      timeoutMs: 300_000,
    });
    assert.equal(outcome.exitCode, 0, outcome.output);
    return await session.collect();
  } finally {
    await session.dispose();
  }
}

const inWorkspace = (loaded: readonly string[]): string[] =>
  loaded.map((f) => path.relative(ws, f)).filter((f) => !f.startsWith('..'));

describe('the hooks report what a test process loaded before its first test', () => {
  for (const c of CASES) {
    it(`${c.name}: the helper loaded through a computed name, asked for`, async () => {
      const report = await run(c.command, true);
      assert.equal(report.summary?.passed, c.passed, JSON.stringify(report));
      assert.equal(report.summary?.failed, 0);
      const loaded = inWorkspace(report.loaded);
      assert.ok(loaded.includes(c.helper), `${c.helper} in ${JSON.stringify(loaded)}`);
      for (const t of c.tests) assert.ok(loaded.includes(t), `${t} in ${JSON.stringify(loaded)}`);
      assert.ok(!loaded.some((f) => f.split(path.sep).includes('node_modules')), 'no dependency');
    });
  }

  it('a run that does not ask (contained runs) gets none of it from jest, vitest or ES modules', async () => {
    for (const c of CASES) {
      const report = await run(c.command, false);
      assert.equal(report.summary?.passed, c.passed, c.name);
      const loaded = inWorkspace(report.loaded);
      assert.ok(!loaded.includes(c.helper), `${c.name}: ${JSON.stringify(loaded)}`);
    }
  });
});
