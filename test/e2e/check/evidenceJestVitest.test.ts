// Runner evidence for jest and vitest, end to end: `weave check` (dist/cli.js) on small projects in the shapes real
// ones have (a package.json "test" script, tests that require('..') / import from '../src'), running the REAL jest
// and vitest installed as this repository's devDependencies. Every case asserts the verdict AND that it rests on
// the runner's own results, also when the command hides the output and the exit code. A jest / vitest whose
// internals are not what the hook knows (a fake "next major") is judged on its printed summary instead.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeRepo } from '../../support/gitRepo';
import { CLI, REPO_ROOT } from '../../support/paths';
import type { SpecResult } from '../../../src/core/check/types';

const cleanup: string[] = [];
after(async () => {
  await Promise.all(cleanup.map((d) => fs.rm(d, { recursive: true, force: true })));
});

type Checked = Pick<SpecResult, 'id' | 'verdict' | 'evidence' | 'reason' | 'summary' | 'output'>;

const linkRealNodeModules = (ws: string): Promise<void> =>
  fs.symlink(path.join(REPO_ROOT, 'node_modules'), path.join(ws, 'node_modules'));

/**
 * Runs every spec of `commands` (id → command) with `weave check --json` in a new project made of `files`,
 * whose node_modules `prepare` provides (by default: this repository's, with the real jest and vitest).
 */
async function checkProject(
  files: Record<string, string>,
  commands: Record<string, string>,
  prepare: (ws: string) => Promise<void> = linkRealNodeModules,
): Promise<Map<string, Checked>> {
  const specs = Object.entries(commands).map(([id, command]) => ({
    id,
    title: id,
    kind: 'functional',
    statement: id,
    test: { command, timeoutSeconds: 240 },
  }));
  const ws = await makeRepo({
    ...files,
    '.gitignore': 'node_modules\n.jest-*\n',
    '.weave/specs.json': JSON.stringify({ version: 1, specs }, null, 2),
  });
  cleanup.push(ws);
  await prepare(ws);
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
  delete env.NODE_TEST_CONTEXT;
  delete env.NODE_OPTIONS;
  const r = spawnSync(process.execPath, [CLI, 'check', '--json', '--no-record'], {
    cwd: ws,
    encoding: 'utf8',
    env,
    timeout: 600_000,
  });
  assert.ok(r.stdout, r.stderr);
  const doc = JSON.parse(r.stdout) as { run: { results: Checked[] } };
  return new Map(doc.run.results.map((result) => [result.id, result]));
}

function expectResult(
  results: Map<string, Checked>,
  id: string,
  verdict: SpecResult['verdict'],
  evidence: SpecResult['evidence'],
  reason?: RegExp,
): Checked {
  const r = results.get(id);
  assert.ok(r, `no result for ${id}`);
  assert.equal(r.verdict, verdict, `${id}: ${r.reason ?? ''}\n${r.output}`);
  assert.equal(r.evidence, evidence, `${id}: ${r.reason ?? ''}\n${r.output}`);
  if (reason) assert.match(r.reason ?? '', reason, id);
  return r;
}

/**
 * The cases both projects have, under the same spec ids: a passing run (3 passed, a skipped and a todo test) through
 * npx and through `npm test --silent`, a failing file (1 of 2 fails) whose output is piped away or hidden,
 * every test filtered out, no test file at all, a file that fails to import, and a suite whose test runs the
 * same runner on the failing file as its subject.
 */
function verdictsOfEveryRun(runner: 'jest' | 'vitest', checked: () => Map<string, Checked>): void {
  const byRunner = `\\(${runner}`; // "(jest" / "(vitest" in a reason, as a RegExp
  it('a passing run passes on runner evidence, through npx and npm test --silent', () => {
    for (const id of ['passes', 'npm-test-silent']) {
      const r = expectResult(checked(), id, 'pass', 'runner');
      assert.deepEqual(r.summary, { runner, passed: 3, failed: 0, skipped: 2 }, id);
    }
  });

  it('a failing test fails although the output is piped away or hidden and the exit code ignored', () => {
    for (const id of ['piped-away', 'json-hidden'])
      expectResult(
        checked(),
        id,
        'fail',
        'runner',
        new RegExp(`^1 of 2 tests failed ${byRunner}\\), although the command exited 0$`),
      );
  });

  it('all tests filtered out, or no test file at all, ran no test', () => {
    expectResult(
      checked(),
      'filtered',
      'error',
      'runner',
      new RegExp(`^ran no test ${byRunner}: 0 passed, 0 failed, 5 skipped\\)$`),
    );
    expectResult(
      checked(),
      'no-tests',
      'error',
      'runner',
      new RegExp(`^ran no test ${byRunner}: 0 passed, 0 failed\\)$`),
    );
  });

  it('a test file that fails to import is a collection error', () => {
    expectResult(
      checked(),
      'import-error',
      'error',
      'runner',
      new RegExp(`^0 tests ran: collection error, 1 test file could not be loaded ${byRunner}\\)$`),
    );
  });

  it(`a ${runner} suite that runs a failing ${runner} as its subject is judged by its own test`, () => {
    const r = expectResult(checked(), 'nested', 'pass', 'runner');
    assert.deepEqual(r.summary, { runner, passed: 1, failed: 0, skipped: 0 });
  });
}

/**
 * A small library and its tests in the layout of `verdictsOfEveryRun`: CommonJS with tests that require('..') /
 * require('../src') for jest, ES modules importing from '../src/index.js' for vitest.
 */
function calcProject(runner: 'jest' | 'vitest'): Record<string, string> {
  const esm = runner === 'vitest';
  const use = (name: string, from: string): string =>
    esm
      ? `import { expect, test } from 'vitest';\nimport { ${name} } from '${from}.js';\n`
      : `const { ${name} } = require('${from}');\n`;
  const library = esm
    ? 'export const add = (a, b) => a + b;\nexport const sub = (a, b) => a - b;\n'
    : 'exports.add = (a, b) => a + b;\nexports.sub = (a, b) => a - b;\n';
  const subtracts = "test('subtracts', () => {\n  expect(sub(3, 2)).toBe(1);\n});\n";
  const subject = esm ? "['vitest', 'run', 'failing']" : "['jest', 'failing']";
  return {
    'package.json': JSON.stringify({
      name: 'calc',
      version: '1.0.0',
      ...(esm ? { type: 'module' } : { main: 'src/index.js' }),
      scripts: { test: esm ? 'vitest run' : 'jest' },
    }),
    'src/index.js': library,
    'test/add.test.js':
      use('add', esm ? '../src/index' : '..') +
      "test('adds', () => {\n  expect(add(1, 2)).toBe(3);\n});\ntest('adds zero', () => {\n  expect(add(1, 0)).toBe(1);\n});\ntest.skip('adds later', () => {});\ntest.todo('adds strings');\n",
    'test/sub.test.js': use('sub', esm ? '../src/index' : '../src') + subtracts,
    'failing/sub.test.js':
      use('sub', esm ? '../src/index' : '../src') +
      subtracts +
      "test('is wrong', () => {\n  expect(sub(3, 2)).toBe(2);\n});\n",
    'broken/mul.test.js':
      use('mul', '../src/mul') + "test('multiplies', () => {\n  expect(mul(2, 3)).toBe(6);\n});\n",
    'nested/tool.test.js':
      (esm
        ? "import { spawnSync } from 'node:child_process';\nimport { expect, test } from 'vitest';\n"
        : "const { spawnSync } = require('node:child_process');\n") +
      `test('the tool reports a failing suite', () => {\n  const r = spawnSync('npx', ${subject}, { encoding: 'utf8' });\n  expect(r.status).toBe(1);\n}, 120000);\n`,
  };
}

describe('jest reports its own results to Weave', () => {
  let results: Map<string, Checked>;
  before(async () => {
    results = await checkProject(
      {
        ...calcProject('jest'),
        // jest runs several files in workers when it has no timings recorded (a fresh --cacheDirectory);
        // in band these fail.
        'workers/a.test.js':
          "test('runs in a jest worker', () => {\n  expect(process.argv[1]).toMatch(/jest-worker/);\n});\n",
        'workers/b.test.js':
          "test('runs in a jest worker', () => {\n  expect(process.argv[1]).toMatch(/jest-worker/);\n});\n",
      },
      {
        passes: 'npx jest test/',
        'npm-test-silent': 'npm test -- test/ --silent',
        'piped-away': 'npx jest failing 2>/dev/null | true',
        'json-hidden': 'npx jest --json failing > /dev/null 2>&1 || true',
        'in-band': 'npx jest -i failing test/ 2>&1 | cat',
        workers: 'npx jest -w 2 --cacheDirectory .jest-workers workers failing || true',
        filtered: 'npx jest -t "no such test" test/',
        'no-tests': 'npx jest --passWithNoTests no-such-dir',
        'import-error': 'npx jest broken || true',
        nested: 'npx jest nested',
      },
    );
  });

  verdictsOfEveryRun('jest', () => results);

  it('counts the same in band (-i) and in worker processes', () => {
    const inBand = expectResult(results, 'in-band', 'fail', 'runner', /^1 of 5 tests failed \(jest\)/);
    assert.deepEqual(inBand.summary, { runner: 'jest', passed: 4, failed: 1, skipped: 2 });
    const workers = expectResult(results, 'workers', 'fail', 'runner', /^1 of 4 tests failed \(jest\)/);
    assert.deepEqual(workers.summary, { runner: 'jest', passed: 3, failed: 1, skipped: 0 });
  });
});

describe('vitest reports its own results to Weave', () => {
  let results: Map<string, Checked>;
  before(async () => {
    results = await checkProject(calcProject('vitest'), {
      passes: 'npx vitest run test/',
      'npm-test-silent': 'npm test -- test/ --silent',
      'piped-away': 'npx vitest run --reporter=dot failing 2>&1 | cat > /dev/null',
      'json-hidden': 'npx vitest run --reporter=json failing > /dev/null 2>&1 || true',
      threads: 'npx vitest run --pool=threads failing test/ || true',
      forks: 'npx vitest run --pool=forks --no-file-parallelism failing test/ | cat',
      'closed-pipe': 'npx vitest run failing | true',
      filtered: 'npx vitest run -t "no such test" test/',
      'no-tests': 'npx vitest run no-such-dir',
      'import-error': 'npx vitest run broken || true',
      nested: 'npx vitest run nested',
    });
  });

  verdictsOfEveryRun('vitest', () => results);

  it('counts the same in worker threads and in forks, one file at a time', () => {
    for (const id of ['threads', 'forks']) {
      const r = expectResult(results, id, 'fail', 'runner', /^1 of 5 tests failed \(vitest\)/);
      assert.deepEqual(r.summary, { runner: 'vitest', passed: 4, failed: 1, skipped: 2 }, id);
    }
  });

  it('vitest killed by a closed pipe before its tests ran is not a pass', () => {
    // vitest dies of EPIPE on its first line when stdout is closed (with or without Weave): the run never finished.
    expectResult(
      results,
      'closed-pipe',
      'error',
      'runner',
      /^the test runner did not finish: the process exited before it reported completion \(vitest\)$/,
    );
  });
});

describe('a jest or vitest of a shape the hook does not know', () => {
  it('runs untouched and is judged on its printed summary', async () => {
    // Stand-ins for a future major version: the entry points the hook looks for, with results of another shape.
    const results = await checkProject(
      {
        'package.json': JSON.stringify({ name: 'calc', version: '1.0.0', scripts: { test: 'jest' } }),
        'node_modules/@jest/core/package.json': JSON.stringify({ name: '@jest/core', version: '99.0.0' }),
        'node_modules/@jest/core/index.js':
          "exports.getVersion = () => '99.0.0';\nexports.createTestScheduler = () => ({});\nexports.runCLI = async () => ({ results: { suites: [{ passed: 1, failed: 1 }] }, globalConfig: {} });\n",
        'node_modules/jest/package.json': JSON.stringify({
          name: 'jest',
          version: '99.0.0',
          bin: { jest: 'bin/jest.js' },
        }),
        'node_modules/jest/bin/jest.js':
          "#!/usr/bin/env node\nrequire('@jest/core').runCLI().then(() => {\n  console.log('Tests:       1 failed, 1 passed, 2 total');\n  process.exitCode = 1;\n});\n",
        'node_modules/vitest/package.json': JSON.stringify({
          name: 'vitest',
          version: '99.0.0',
          type: 'module',
          bin: { vitest: 'vitest.mjs' },
        }),
        'node_modules/vitest/vitest.mjs': "#!/usr/bin/env node\nimport './dist/cli.js';\n",
        'node_modules/vitest/dist/cli.js':
          "class Vitest {\n  async start() {\n    return { files: [{ passed: 1, failed: 1 }] };\n  }\n}\nawait new Vitest().start();\nconsole.log('      Tests  1 failed | 1 passed (2)');\nprocess.exitCode = 1;\n",
      },
      { jest: 'npx jest || true', vitest: 'npx vitest run || true' },
      async (ws) => {
        const bin = path.join(ws, 'node_modules/.bin');
        await fs.mkdir(bin);
        for (const [name, target] of [
          ['jest', '../jest/bin/jest.js'],
          ['vitest', '../vitest/vitest.mjs'],
        ] as const) {
          await fs.chmod(path.resolve(bin, target), 0o755);
          await fs.symlink(target, path.join(bin, name));
        }
      },
    );
    expectResult(
      results,
      'jest',
      'fail',
      'summary',
      /^1 of 2 tests failed \(jest\), although the command exited 0$/,
    );
    expectResult(
      results,
      'vitest',
      'fail',
      'summary',
      /^1 of 2 tests failed \(vitest\), although the command exited 0$/,
    );
  });
});
