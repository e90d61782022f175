// Agent code that forges its verdict from inside the test's own process (issue #22, part 4), each attack run
// for real: a contained spec run (bubblewrap, the real node:test / pytest with Weave's hooks) of a spec whose
// test is honest and whose source under test — the agent's — is wrong and attacks the evidence. Each case
// passed before results were signed and runners had to report completion; now none passes. Each also asserts
// what the verdict rests on, and the honest control passes, so the assertions can fail.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { after, describe, test } from 'node:test';
import { compareToBaseline } from '../../../src/core/check/baseline';
import { runSpecs } from '../../../src/core/check/runSpecs';
import type { RunRecord, SpecResult } from '../../../src/core/check/types';
import { WORKING_TREE, withCopiedWorkspace } from '../../../src/core/workspace';
import { loadSpecFile } from '../../../src/core/spec/load';
import { specFileSchema } from '../../../src/shared/specSchema';
import { makeRepo } from '../../support/gitRepo';

const PYTEST = '/usr/bin/python3 -m pytest -q -p no:cacheprovider';

// The spec tests: honest, protected (test.files), and they fail on a wrong `add`.
const NODE_TEST = [
  "const test = require('node:test');",
  "const assert = require('node:assert');",
  "const add = require('../src/add.js');",
  "test('adds small numbers', () => { assert.equal(add(1, 2), 3); });",
  "test('adds negative numbers', () => { assert.equal(add(-1, -2), -3); });",
  '',
].join('\n');
const PYTHON_TEST = [
  'import os, sys, unittest',
  'sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))',
  'from add import add',
  '',
  'class AddTest(unittest.TestCase):',
  '    def test_small(self):',
  '        self.assertEqual(add(1, 2), 3)',
  '',
  '    def test_negative(self):',
  '        self.assertEqual(add(-1, -2), -3)',
  '',
].join('\n');

// A results file as an attacker who read Weave's source would write it: the old unsigned shape and the new
// envelope with a made-up mac (the secret never reached the process's environment, argv or any file).
const FAKE_RESULTS_JS = [
  "const fs = require('node:fs');",
  'const dir = process.env.WEAVE_EVIDENCE_DIR;',
  "const run = { runner: 'node:test', passed: 2, failed: 0, skipped: 0 };",
  "fs.writeFileSync(dir + '/node-1-1.json', JSON.stringify({ runs: [run] }));",
  "const body = JSON.stringify({ instance: 'x', kind: 'completed', runner: 'node:test', runs: [run] });",
  "fs.writeFileSync(dir + '/node-1-2.jsonl', JSON.stringify({ key: 'run', body, mac: 'a'.repeat(64) }) + '\\n');",
].join('\n');
const FAKE_RESULTS_PY = [
  'import json, os',
  'd = os.environ["WEAVE_EVIDENCE_DIR"]',
  'run = {"runner": "pytest", "passed": 2, "failed": 0, "skipped": 0, "collectionErrors": 0}',
  'open(os.path.join(d, "pytest-1-1.json"), "w").write(json.dumps({"runs": [run]}))',
  'body = json.dumps({"instance": "x", "kind": "completed", "runner": "pytest", "runs": [run]})',
  'open(os.path.join(d, "pytest-1-2.jsonl"), "w").write(json.dumps({"key": "run", "body": body, "mac": "a" * 64}) + "\\n")',
].join('\n');

const repos: string[] = [];
after(async () => {
  for (const r of repos) await fs.rm(r, { recursive: true, force: true });
});

/** Runs spec `t` contained, in a standalone checkout of a fresh repo holding `files`. */
async function contained(
  command: string,
  testFile: string,
  files: Record<string, string>,
): Promise<SpecResult> {
  const specs = {
    version: 1,
    goal: 'add numbers',
    specs: [
      { id: 't', title: 't', kind: 'functional', statement: 's', test: { command, files: [testFile] } },
    ],
  };
  const repo = await makeRepo({ '.weave/specs.json': JSON.stringify(specs, null, 2), ...files });
  repos.push(repo);
  const loaded = await loadSpecFile(repo);
  assert.ok(loaded.ok);
  return withCopiedWorkspace(
    repo,
    { kind: 'standalone', ref: WORKING_TREE, contain: { specFile: loaded.specFile, ...{ network: 'none' } } },
    async (checkout) => {
      const { containment } = checkout;
      assert.ok(containment.sandbox, 'these cases need the sandbox (bubblewrap)');
      const [r] = await runSpecs({
        workspaceDir: checkout.dir,
        specFile: loaded.specFile,
        containment,
      });
      return r as SpecResult;
    },
  );
}

const node = (add: string, more: Record<string, string> = {}): Promise<SpecResult> =>
  contained('node --test', 'test/add.test.js', { 'test/add.test.js': NODE_TEST, 'src/add.js': add, ...more });
const python = (add: string): Promise<SpecResult> =>
  contained(`${PYTEST} test`, 'test/test_add.py', { 'test/test_add.py': PYTHON_TEST, 'src/add.py': add });

describe('runner evidence the code under test cannot forge', () => {
  test('controls: the right `add` passes on the runner’s signed results (node:test and pytest)', async () => {
    const n = await node('module.exports = (a, b) => a + b;\n');
    assert.equal(n.verdict, 'pass', `${n.reason}\n${n.output}`);
    assert.equal(n.evidence, 'runner');
    assert.deepEqual(n.summary, { runner: 'node:test', passed: 2, failed: 0, skipped: 0 });
    const p = await python('def add(a, b):\n    return a + b\n');
    assert.equal(p.verdict, 'pass', `${p.reason}\n${p.output}`);
    assert.equal(p.evidence, 'runner');
    assert.equal(p.summary?.passed, 2);
  });

  test('Node: a fake results file and process.exit(0) is tampered, and the fake counts nothing', async () => {
    const r = await node(`${FAKE_RESULTS_JS}\nprocess.exit(0);\nmodule.exports = (a, b) => a - b;\n`);
    assert.equal(r.verdict, 'tampered', `${r.reason}\n${r.output}`);
    assert.match(r.reason ?? '', /node-1-1\.json did not verify/);
    assert.match(r.reason ?? '', /node-1-2\.jsonl did not verify/);
    assert.notEqual(r.verdictBeforeTampering, 'pass');
    assert.notEqual(r.summary?.passed, 2);
  });

  test('Python: a fake results file and os._exit(0) is tampered, and the fake counts nothing', async () => {
    const r = await python(`${FAKE_RESULTS_PY}\nos._exit(0)\n\ndef add(a, b):\n    return a - b\n`);
    assert.equal(r.verdict, 'tampered', `${r.reason}\n${r.output}`);
    assert.match(r.reason ?? '', /pytest-1-1\.json did not verify/);
    assert.match(r.reason ?? '', /pytest-1-2\.jsonl did not verify/);
    assert.notEqual(r.verdictBeforeTampering, 'pass');
  });

  test('Node: assert.equal replaced by a no-op from the source under test is tampered, naming it', async () => {
    const r = await node("require('node:assert').equal = () => {};\nmodule.exports = (a, b) => a - b;\n");
    assert.equal(r.verdict, 'tampered', `${r.reason}\n${r.output}`);
    assert.equal(r.verdictBeforeTampering, 'pass', 'the no-op really made the wrong add pass');
    assert.deepEqual(r.evidenceTampering, ['node:assert.equal was replaced by code under test']);
  });

  test('through npm: the key reaches node --test and each test file’s process, where the replacement is seen', async () => {
    const r = await contained('npm test', 'test/add.test.js', {
      'package.json': JSON.stringify({ name: 'add', version: '1.0.0', scripts: { test: 'node --test' } }),
      'test/add.test.js': NODE_TEST,
      'src/add.js': "require('node:assert').equal = () => {};\nmodule.exports = (a, b) => a - b;\n",
    });
    assert.equal(r.verdict, 'tampered', `${r.reason}\n${r.output}`);
    assert.equal(r.verdictBeforeTampering, 'pass');
    assert.equal(r.evidence, 'runner');
    assert.deepEqual(r.evidenceTampering, ['node:assert.equal was replaced by code under test']);
  });

  test("Python: unittest's assertEqual replaced from the source under test is tampered, naming it", async () => {
    const r = await python(
      'import unittest\nunittest.TestCase.assertEqual = lambda self, a, b, msg=None: None\n\ndef add(a, b):\n    return a - b\n',
    );
    assert.equal(r.verdict, 'tampered', `${r.reason}\n${r.output}`);
    assert.equal(r.verdictBeforeTampering, 'pass', 'the replacement really made the wrong add pass');
    assert.deepEqual(r.evidenceTampering, ['unittest.TestCase.assertEqual was replaced by code under test']);
  });

  test('Node: process.exit(0) midway through the tests is an error: the runner never finished', async () => {
    // Another test file passes, so the run has passing tests to show for itself.
    const r = await node('module.exports = (a, b) => { if (a < 0) process.exit(0); return a + b; };\n', {
      'test/other.test.js': "require('node:test')('other', () => {});\n",
    });
    assert.equal(r.verdict, 'error', `${r.reason}\n${r.output}`);
    assert.match(
      r.reason ?? '',
      /the test runner did not finish: the process exited before it reported completion/,
    );
  });

  test('Python: os._exit(0) midway through the tests is an error, never fail → pass', async () => {
    const r = await python(
      'import os\n\ndef add(a, b):\n    if a < 0:\n        os._exit(0)\n    return a + b\n',
    );
    assert.equal(r.verdict, 'error', `${r.reason}\n${r.output}`);
    assert.match(
      r.reason ?? '',
      /the test runner did not finish: the process exited before it reported completion \(pytest\)/,
    );
    const baseline = { results: [{ ...r, verdict: 'fail' }] } as unknown as RunRecord;
    assert.equal(
      compareToBaseline({ results: [r] } as unknown as RunRecord, baseline).changes.t,
      'still-failing',
    );
  });

  test('a contained pass on a printed summary alone is unverified, never fixed against a failing baseline', async () => {
    // unittest.main() called from a test script (not `python -m unittest`) has no Weave hook: its "OK" summary is
    // all there is.
    const r = await contained('/usr/bin/python3 test/test_add.py', 'test/test_add.py', {
      'test/test_add.py': `${PYTHON_TEST}\nunittest.main()\n`,
      'src/add.py': 'def add(a, b):\n    return a + b\n',
    });
    assert.equal(r.verdict, 'unverified', `${r.reason}\n${r.output}`);
    assert.equal(r.evidence, 'summary');
    assert.match(r.reason ?? '', /rests on a printed summary/);
    const baseline = { results: [{ ...r, verdict: 'fail' }] } as unknown as RunRecord;
    const report = compareToBaseline({ results: [r] } as unknown as RunRecord, baseline);
    assert.equal(report.changes.t, 'still-failing');
    assert.deepEqual(report.FAIL_TO_PASS, []);
  });

  test("the user's own check never counts a fake results file either, and names it", async () => {
    const dir = await makeRepo({ 'fake.js': `${FAKE_RESULTS_JS}\n` });
    repos.push(dir);
    const specFile = specFileSchema.parse({
      version: 1,
      specs: [{ id: 'u', title: 'u', kind: 'functional', statement: 's', test: { command: 'node fake.js' } }],
    });
    const [r] = await runSpecs({ workspaceDir: dir, specFile });
    assert.ok(r);
    assert.equal(r.evidence, 'exit-code', 'the forged runs were not counted as runner evidence');
    assert.match(
      r.reason ?? '',
      /ignored results files that did not verify: node-1-1\.json, node-1-2\.jsonl/,
    );
  });
});
