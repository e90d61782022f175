// The runner-evidence session on its own: hooks found from a folder whose path needs quoting, results read back
// and added up, records that do not verify under the run's secret (a wrong mac, no mac, another key) rejected
// and reported, a runner that started without finishing reported, the results folder removed afterwards.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { childKey, macOf, RUN_KEY, verifyRecord } from '../../../src/core/check/evidence/records';
import { readEvidence, startEvidence } from '../../../src/core/check/evidence/session';
import { locateEvidenceResources } from '../../../src/core/evidenceResources';
import { runCommand } from '../../../src/core/process/runCommand';

const cleanup: string[] = [];
after(async () => {
  await Promise.all(cleanup.map((d) => fs.rm(d, { recursive: true, force: true })));
});

describe('runner evidence session', () => {
  it('works from a hooks folder whose path has spaces and quotes, and cleans up', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'weave evidence "quoted" '));
    cleanup.push(root);
    const built = locateEvidenceResources();
    await fs.cp(path.dirname(built.nodeHook), path.join(root, 'evidence'), { recursive: true });
    const resources = locateEvidenceResources(root);
    assert.equal(resources.nodeHook, path.join(root, 'evidence', 'weave-node-hook.cjs'));
    await fs.writeFile(
      path.join(root, 'two.test.js'),
      "const test = require('node:test');\ntest('a', () => {});\ntest('b', () => { throw new Error('no'); });\n",
    );
    const session = await startEvidence({}, {}, resources);
    assert.equal(session.writableDirs.length, 1);
    const outcome = await runCommand({
      command: 'node --test two.test.js > /dev/null || true',
      cwd: root,
      env: session.env,
      inheritedInputs: session.inheritedInputs,
      timeoutMs: 60_000,
    });
    assert.equal(outcome.exitCode, 0, outcome.output);
    assert.deepEqual(await session.collect(), {
      summary: { runner: 'node:test', passed: 1, failed: 1, skipped: 0 },
      unfinished: [],
      forged: [],
      replaced: [],
      intrusions: [],
      // What the test file's process had loaded when its first test started (observedLoads.ts).
      loaded: [path.join(root, 'two.test.js')],
    });
    await session.dispose();
    await assert.rejects(fs.access(session.writableDirs[0] ?? ''), 'the results folder is removed');
  });

  it("the user's own check's scope (counts) counts and lists loads without the comparisons; full scope names a replacement", async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-evidence-scope-'));
    cleanup.push(root);
    // A test whose code replaces node:assert's equal before asserting (what runnerIntegrity's attacks do), and a
    // plain script that says which of node:test and node:assert its process has loaded.
    await fs.writeFile(
      path.join(root, 'replaces.test.js'),
      [
        "const test = require('node:test');",
        "const assert = require('node:assert');",
        'assert.equal = () => undefined;',
        "test('a', () => assert.equal(1, 2));",
        '',
      ].join('\n'),
    );
    await fs.writeFile(
      path.join(root, 'probe.js'),
      'console.log(JSON.stringify(process.moduleLoadList.filter((m) => /^NativeModule (test|assert)$/.test(m)).sort()));\n',
    );
    const run = async (scope: 'full' | 'counts', command: string) => {
      const session = await startEvidence({}, {}, undefined, { scope });
      try {
        const outcome = await runCommand({
          command,
          cwd: root,
          env: session.env,
          inheritedInputs: session.inheritedInputs,
          timeoutMs: 60_000,
        });
        assert.equal(outcome.exitCode, 0, outcome.output);
        return { output: outcome.output.trim(), report: await session.collect() };
      } finally {
        await session.dispose();
      }
    };
    const expected = (replaced: string[]) => ({
      summary: { runner: 'node:test', passed: 1, failed: 0, skipped: 0 },
      unfinished: [],
      forged: [],
      replaced,
      intrusions: [],
      loaded: [path.join(root, 'replaces.test.js')],
    });
    const test = 'node --test replaces.test.js > /dev/null';
    assert.deepEqual((await run('full', test)).report, expected(['node:assert.equal']));
    assert.deepEqual((await run('counts', test)).report, expected([]));
    // The comparisons load node:assert and node:test into every process; in counts scope a process that uses
    // neither loads neither.
    assert.deepEqual(JSON.parse((await run('full', 'node probe.js')).output), [
      'NativeModule assert',
      'NativeModule test',
    ]);
    assert.deepEqual(JSON.parse((await run('counts', 'node probe.js')).output), []);
  });

  it('counts only records whose mac verifies under the run secret, and names every file that does not', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-evidence-read-'));
    cleanup.push(dir);
    const files: Record<string, string> = {
      'a.jsonl': [
        signed({ instance: 'p1', kind: 'started', runner: 'pytest' }),
        signed({ instance: 'p1', kind: 'completed', runner: 'pytest', runs: [pytestRun(2, 1)] }),
      ].join('\n'),
      'b.jsonl': signed({
        instance: 'm1',
        kind: 'completed',
        runner: 'mocha',
        runs: [{ runner: 'mocha', passed: 1, failed: 0, skipped: 3, listing: false }],
      }),
      // The shape of a signed record, with a mac made under another secret.
      'wrong-mac.jsonl': signed(
        { instance: 'x', kind: 'completed', runner: 'pytest', runs: [pytestRun(100, 0)] },
        RUN_KEY,
        'f'.repeat(64),
      ),
      // A valid record whose body was edited afterwards (fewer failures).
      'edited.jsonl': signed({
        instance: 'y',
        kind: 'completed',
        runner: 'pytest',
        runs: [pytestRun(1, 1)],
      }).replace('\\"failed\\":1', '\\"failed\\":0'),
      // What the hooks wrote before records were signed.
      'old.json': JSON.stringify({ runs: [pytestRun(9, 0)] }),
      'junk.txt': 'not a record',
    };
    for (const [name, text] of Object.entries(files)) await fs.writeFile(path.join(dir, name), text);
    const report = await readEvidence(dir, SECRET);
    assert.deepEqual(report.summary, { runner: 'pytest', passed: 3, failed: 1, skipped: 3 });
    assert.deepEqual(report.forged, ['edited.jsonl', 'junk.txt', 'old.json', 'wrong-mac.jsonl']);
    assert.deepEqual(report.unfinished, []);
    assert.deepEqual(await readEvidence(path.join(dir, 'missing'), SECRET), {
      unfinished: [],
      forged: [],
      replaced: [],
      intrusions: [],
      loaded: [],
    });
  });

  it("a child's key says a test file started and finished but cannot sign counts; a start without an end is unfinished", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-evidence-child-'));
    cleanup.push(dir);
    const nonce = '0123456789abcdef';
    const asChild = (body: object): string => signed(body, nonce, childKey(SECRET, nonce));
    await fs.writeFile(
      path.join(dir, 'child.jsonl'),
      [
        asChild({ instance: 'c1', kind: 'started', runner: 'node:test' }),
        asChild({ instance: 'c1', kind: 'completed', runner: 'node:test', runs: [pytestRun(50, 0)] }),
        asChild({ instance: 'c2', kind: 'started', runner: 'node:test' }),
        asChild({ instance: 'r1', kind: 'replaced', functions: ['node:assert.equal'] }),
        asChild({ instance: 'i1', kind: 'intrusion', details: ['gc.get_objects called from src/add.py:1'] }),
      ].join('\n'),
    );
    // Signed with the run's secret used as if it were this child's key: it does not verify.
    await fs.writeFile(
      path.join(dir, 'misused.jsonl'),
      signed({ instance: 'c3', kind: 'started', runner: 'node:test' }, nonce, SECRET),
    );
    assert.deepEqual(await readEvidence(dir, SECRET), {
      unfinished: ['node:test'],
      forged: ['misused.jsonl'],
      replaced: ['node:assert.equal'],
      intrusions: ['gc.get_objects called from src/add.py:1'],
      loaded: [],
    });
  });

  it("reads jest's and vitest's runs; a run that was abandoned (a shape the hook did not know) says nothing", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-evidence-js-'));
    cleanup.push(dir);
    await fs.writeFile(
      path.join(dir, 'abandoned.jsonl'),
      signed({ instance: 'a', kind: 'completed', runner: 'jest', runs: [] }),
    );
    assert.equal((await readEvidence(dir, SECRET)).summary, undefined);
    await fs.writeFile(
      path.join(dir, 'jest.jsonl'),
      signed({
        instance: 'j',
        kind: 'completed',
        runner: 'jest',
        runs: [{ runner: 'jest', passed: 2, failed: 0, skipped: 1, collectionErrors: 1, listing: false }],
      }),
    );
    await fs.writeFile(
      path.join(dir, 'vitest.jsonl'),
      signed({
        instance: 'v',
        kind: 'completed',
        runner: 'vitest',
        runs: [{ runner: 'vitest', passed: 0, failed: 0, skipped: 0 }],
      }),
    );
    assert.deepEqual((await readEvidence(dir, SECRET)).summary, {
      runner: 'jest',
      passed: 2,
      failed: 0,
      skipped: 1,
      collectionErrors: 1,
    });
  });
  it("python -m unittest signs each test's outcome and the totals; python -c and a test that exits midway do not pass", async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-evidence-unittest-'));
    cleanup.push(root);
    await fs.mkdir(path.join(root, 'tests'));
    await fs.writeFile(
      path.join(root, 'tests', 'test_mixed.py'),
      [
        'import unittest',
        'class Mixed(unittest.TestCase):',
        '    def test_ok(self): self.assertEqual(1, 1)',
        '    def test_bad(self): self.assertEqual(1, 2)',
        '    def test_error(self): raise RuntimeError("boom")',
        '    @unittest.skip("not here")',
        '    def test_skipped(self): pass',
        '    @unittest.expectedFailure',
        '    def test_expected(self): self.assertEqual(1, 2)',
        '    def test_subtests(self):',
        '        for i in range(2):',
        '            with self.subTest(i=i): self.assertEqual(i, 0)',
        '',
      ].join('\n'),
    );
    await fs.writeFile(path.join(root, 'tests', 'test_broken.py'), 'import no_such_module\n');
    const run = async (command: string): Promise<{ report: object; records: object[] }> => {
      const session = await startEvidence({}, {});
      try {
        const outcome = await runCommand({
          command: `${command} > /dev/null 2>&1 || true`,
          cwd: root,
          env: session.env,
          inheritedInputs: session.inheritedInputs,
          timeoutMs: 60_000,
        });
        assert.equal(outcome.exitCode, 0, outcome.output);
        const secret = (session.inheritedInputs[0] ?? '').split('\n')[0]?.split(' ')[1] ?? '';
        const dir = session.writableDirs[0] ?? '';
        const records: object[] = [];
        for (const name of await fs.readdir(dir)) {
          for (const line of (await fs.readFile(path.join(dir, name), 'utf8')).split('\n').filter(Boolean)) {
            const { runKey: _runKey, instance: _instance, ...record } = verifyRecord(line, secret) ?? {};
            records.push(record);
          }
        }
        return { report: await session.collect(), records };
      } finally {
        await session.dispose();
      }
    };
    const mixed = await run('python3 -m unittest discover -s tests');
    assert.deepEqual(mixed.report, {
      summary: { runner: 'unittest', passed: 2, failed: 3, skipped: 1, collectionErrors: 1 },
      unfinished: [],
      forged: [],
      replaced: [],
      intrusions: [],
      // The test module discovery imported (test_broken.py failed to import); the standard library left out.
      loaded: [path.join(root, 'tests', 'test_mixed.py')],
    });
    const completed = mixed.records.find((r) => (r as { kind?: string }).kind === 'completed');
    assert.deepEqual((completed as { runs?: Array<{ tests?: unknown }> } | undefined)?.runs?.[0]?.tests, [
      { id: 'unittest.loader._FailedTest.test_broken', outcome: 'failed' },
      { id: 'test_mixed.Mixed.test_bad', outcome: 'failed' },
      { id: 'test_mixed.Mixed.test_error', outcome: 'failed' },
      { id: 'test_mixed.Mixed.test_expected', outcome: 'passed' },
      { id: 'test_mixed.Mixed.test_ok', outcome: 'passed' },
      { id: 'test_mixed.Mixed.test_skipped', outcome: 'skipped' },
      { id: 'test_mixed.Mixed.test_subtests', outcome: 'failed' },
    ]);
    // Not unittest's command line: the hook stays out (no record, so nothing to verify a pass on).
    assert.deepEqual((await run('python3 -c "import unittest"')).records, []);
    await fs.rm(path.join(root, 'tests', 'test_broken.py'));
    await fs.writeFile(
      path.join(root, 'tests', 'test_mixed.py'),
      'import os, unittest\nclass Exits(unittest.TestCase):\n    def test_exit(self): os._exit(0)\n',
    );
    assert.deepEqual((await run('python3 -m unittest discover -s tests')).report, {
      unfinished: ['unittest'],
      forged: [],
      replaced: [],
      intrusions: [],
      loaded: [],
    });
  });
});

const SECRET = 'a'.repeat(64);

/** One envelope line as the hooks write it: `key` names the key, `signingKey` signs (the run's secret by default). */
function signed(body: object, key: string = RUN_KEY, signingKey: string = SECRET): string {
  const text = JSON.stringify(body);
  return JSON.stringify({ key, body: text, mac: macOf(signingKey, text) });
}

function pytestRun(passed: number, failed: number): object {
  return { runner: 'pytest', passed, failed, skipped: 0, collectionErrors: 0 };
}
