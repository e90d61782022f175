// Commands that used to pass although a test failed or no test ran (issue #9), each run for real through
// runSpecs with the runners installed on this machine (node:test, mocha, pytest, unittest, cargo). Every case
// asserts the verdict AND what it rests on (evidence). jest and vitest have their own file
// (evidenceJestVitest.test.ts); go, not installed here, is covered on its output text in summaryFormats.test.ts.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runSpecs } from '../../../src/core/check/runSpecs';
import type { SpecResult } from '../../../src/core/check/types';
import { specFileSchema } from '../../../src/shared/specSchema';

const MOCHA = path.resolve('node_modules/.bin/mocha');
const PYTEST = '/usr/bin/python3 -m pytest -p no:cacheprovider';

let dir: string;
before(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-false-pass-'));
  const files: Record<string, string> = {
    'fails.test.js':
      "const test = require('node:test');\ntest('one', () => {});\ntest('two', () => { throw new Error('x'); });\n",
    'passes.test.js': "const test = require('node:test');\ntest('a', () => {});\ntest('b', () => {});\n",
    'm.spec.js':
      "describe('m', () => {\n  it('ok', () => {});\n  it('bad', () => { throw new Error('x'); });\n});\n",
    'py/test_p.py': 'def test_a():\n    pass\n\ndef test_b():\n    assert False\n',
    'py/test_ok.py': 'def test_a():\n    pass\n',
    'nested/test_tool.py':
      'import subprocess, sys\n\ndef test_the_tool_reports_a_failing_suite():\n    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "../py/test_p.py"])\n    assert r.returncode == 1\n',
    'tool.test.js':
      "const test = require('node:test');\nconst assert = require('node:assert');\nconst { spawnSync } = require('node:child_process');\ntest('the tool reports a failing suite', () => {\n  const env = { ...process.env };\n  delete env.NODE_TEST_CONTEXT;\n  const r = spawnSync(process.execPath, ['--test', 'fails.test.js'], { env });\n  assert.strictEqual(r.status, 1);\n});\n",
    'pybad/test_bad.py': 'import nonexistent_module\n\ndef test_c():\n    pass\n',
    'ut/tests/test_u.py':
      'import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        pass\n\n    def test_b(self):\n        self.assertEqual(1, 2)\n',
    'crate/Cargo.toml': '[package]\nname = "crate"\nversion = "0.1.0"\nedition = "2021"\n',
    'crate/src/lib.rs': '#[cfg(test)]\nmod tests {\n    #[test]\n    fn bad() { assert_eq!(1, 2); }\n}\n',
  };
  for (const [name, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), text);
  }
});
after(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function check(
  command: string,
  test: { cwd?: string; env?: Record<string, string>; timeoutSeconds?: number } = {},
): Promise<SpecResult> {
  const specFile = specFileSchema.parse({
    version: 1,
    specs: [{ id: 's', title: 's', kind: 'functional', statement: 's', test: { command, ...test } }],
  });
  const [result] = await runSpecs({ workspaceDir: dir, specFile });
  assert.ok(result);
  return result;
}

function expect(
  result: SpecResult,
  verdict: SpecResult['verdict'],
  evidence: SpecResult['evidence'],
  reason?: RegExp,
) {
  assert.equal(result.verdict, verdict, `${result.reason ?? ''}\n${result.output}`);
  assert.equal(result.evidence, evidence);
  if (reason) assert.match(result.reason ?? '', reason);
}

describe('false passes, now caught', () => {
  it('node --test --test-reporter=dot | cat: fail, seen by the runner hook', async () => {
    const r = await check('node --test --test-reporter=dot fails.test.js | cat');
    expect(r, 'fail', 'runner', /^1 of 2 tests failed \(node:test\), although the command exited 0$/);
  });

  it('node --test --test-reporter=junit (to stdout, no destination): fail, and the reporter still works', async () => {
    const r = await check('node --test --test-reporter=junit fails.test.js || true');
    expect(r, 'fail', 'runner', /1 of 2 tests failed/);
    assert.match(r.output, /<testsuites>/);
  });

  it('node --test a failing file; then a passing one: every run counts', async () => {
    const r = await check('node --test fails.test.js; node --test passes.test.js');
    expect(r, 'fail', 'runner', /1 of 4 tests failed \(node:test\), although the command exited 0/);
  });

  it('node --test --test-only without any .only test ran nothing (node prints "pass 1" for the file)', async () => {
    const r = await check('node --test --test-only passes.test.js | cat');
    expect(r, 'error', 'runner', /^ran no test \(node:test: 0 passed, 0 failed\)$/);
  });

  it('pytest -qq … || true: fail, seen by the pytest plugin', async () => {
    const r = await check(`${PYTEST} -qq py/test_p.py || true`);
    expect(r, 'fail', 'runner', /^1 of 2 tests failed \(pytest\), although the command exited 0$/);
  });

  it('pytest failing; pytest passing: fail', async () => {
    const r = await check(`${PYTEST} -q py/test_p.py; ${PYTEST} -q py/test_ok.py`);
    expect(r, 'fail', 'runner', /1 of 3 tests failed \(pytest\)/);
  });

  it('a pytest collection error is an error, 0 tests ran (not "1 of 1 test failed")', async () => {
    const r = await check(`${PYTEST} pybad`);
    expect(
      r,
      'error',
      'runner',
      /^0 tests ran: collection error, 1 test file could not be loaded \(pytest\)$/,
    );
  });

  it('pytest --co only lists: error "ran no test"', async () => {
    const r = await check(`${PYTEST} --co py/test_p.py`);
    expect(r, 'error', 'runner', /^ran no test \(pytest: .*only listed or dry-run\)$/);
  });

  it('pytest under a command that replaces PYTHONPATH runs unchanged; the printed summary still decides', async () => {
    const r = await check(`PYTHONPATH=py ${PYTEST} -q py/test_p.py || true`);
    expect(r, 'fail', 'summary', /1 of 2 tests failed \(pytest\)/);
  });

  it('mocha --reporter json || true: fail, seen by the mocha hook', async () => {
    const r = await check(`${MOCHA} --reporter json m.spec.js || true`);
    expect(r, 'fail', 'runner', /^1 of 2 tests failed \(mocha\), although the command exited 0$/);
  });

  it('mocha --reporter xunit (junit) || true: fail', async () => {
    const r = await check(`${MOCHA} --reporter xunit m.spec.js || true`);
    expect(r, 'fail', 'runner', /1 of 2 tests failed \(mocha\)/);
  });

  it('mocha --dry-run: error "ran no test"', async () => {
    const r = await check(`${MOCHA} --dry-run m.spec.js`);
    expect(r, 'error', 'runner', /^ran no test \(mocha: .*only listed or dry-run\)$/);
  });

  it("python3 -m unittest … | tail: fail on unittest's own signed results", async () => {
    const r = await check('python3 -m unittest discover -s tests 2>&1 | tail -4', { cwd: 'ut' });
    expect(r, 'fail', 'runner', /^1 of 2 tests failed \(unittest\), although the command exited 0$/);
  });

  it('cargo test --no-run builds but runs nothing: error "ran no test"', async () => {
    const r = await check('cargo test --no-run --offline', {
      cwd: 'crate',
      timeoutSeconds: 300,
    });
    expect(r, 'error', 'summary', /^ran no test \(cargo test: .*only listed or dry-run\)$/);
  });

  it('echo ok passes, saying that no test result was seen', async () => {
    const r = await check('echo ok');
    expect(r, 'pass', 'exit-code', /^unverified: no test result seen$/);
  });

  it('a passing node:test run passes on runner evidence, with no reason attached', async () => {
    const r = await check('node --test passes.test.js | cat');
    expect(r, 'pass', 'runner');
    assert.equal(r.reason, undefined);
    assert.deepEqual(r.summary, { runner: 'node:test', passed: 2, failed: 0, skipped: 0 });
  });
});

describe('only the outermost runner reports', () => {
  it('a node:test suite that runs a failing node --test as its subject passes', async () => {
    const r = await check('node --test tool.test.js');
    expect(r, 'pass', 'runner');
    assert.deepEqual(r.summary, { runner: 'node:test', passed: 1, failed: 0, skipped: 0 });
  });

  it('a pytest suite that runs a failing pytest as its subject passes', async () => {
    const r = await check(`${PYTEST} -q test_tool.py`, { cwd: 'nested' });
    expect(r, 'pass', 'runner');
    assert.deepEqual(r.summary, { runner: 'pytest', passed: 1, failed: 0, skipped: 0 });
  });
});

describe('the runner hooks keep the user environment', () => {
  it("appends to the spec's NODE_OPTIONS and puts the plugin before the spec's PYTHONPATH", async () => {
    const r = await check(
      `node -e "console.log('NO=' + process.env.NODE_OPTIONS)" && python3 -c "import sys; print('PP=' + '|'.join(sys.path))"`,
      { env: { NODE_OPTIONS: '--max-old-space-size=200', PYTHONPATH: 'mine' } },
    );
    expect(r, 'pass', 'exit-code');
    assert.match(r.output, /^NO=--max-old-space-size=200 --require ".*weave-node-hook\.cjs"$/m);
    assert.match(r.output, /^PP=.*evidence\/python\|[^|]*\/mine\|/m);
  });

  it('a command that replaces NODE_OPTIONS still runs (without the hook), judged on its output', async () => {
    const r = await check('NODE_OPTIONS= node --test --test-reporter=tap fails.test.js || true');
    expect(r, 'fail', 'summary', /1 of 2 tests failed \(node:test\)/);
  });
});
