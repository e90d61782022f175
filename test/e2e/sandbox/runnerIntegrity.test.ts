// The runner steered from the code under test (issue #35, "the runner's integrity from outside the code under
// test"), each attack run for real: a contained spec run (bubblewrap, the real pytest / node runners with
// Weave's hooks) of a spec whose test is honest and whose source under test — the agent's — is wrong and, when
// imported, reaches into the runner that judges it. Each case gave a signed `pass` before the runner was held
// from outside user code; each asserts what the verdict rests on, and the honest controls pass, so the
// assertions can fail.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { runSpecs } from '../../../src/core/check/runSpecs';
import type { SpecResult } from '../../../src/core/check/types';
import { WORKING_TREE, withCopiedWorkspace } from '../../../src/core/workspace';
import { loadSpecFile } from '../../../src/core/spec/load';
import { makeRepo } from '../../support/gitRepo';
import { REPO_ROOT } from '../../support/paths';

const PYTEST = '/usr/bin/python3 -m pytest -q -p no:cacheprovider';

// The spec tests: honest, protected (test.files), and they fail on a wrong `add`.
const PYTEST_TEST = [
  'import os, sys',
  'sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))',
  'from add import add',
  '',
  'def test_small():',
  '    assert add(1, 2) == 3',
  '',
  'def test_negative():',
  '    assert add(-1, -2) == -3',
  '',
].join('\n');
const UNITTEST_TEST = [
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
const RIGHT_ADD = 'def add(a, b):\n    return a + b\n';
const WRONG_ADD = 'def add(a, b):\n    return a - b\n';

// (a) pytest's Config found through the garbage collector; a plugin whose tryfirst pytest_pyfunc_call says
// every test function has been run (returning True skips the call).
const STEER_PYTEST = [
  'import gc',
  'import pytest',
  'from _pytest.config import Config',
  '',
  'class _Steer:',
  '    @pytest.hookimpl(tryfirst=True)',
  '    def pytest_pyfunc_call(self, pyfuncitem):',
  '        return True',
  '',
  'for _o in gc.get_objects():',
  '    if isinstance(_o, Config):',
  '        _o.pluginmanager.register(_Steer(), "steer")',
  '        break',
  '',
].join('\n');
// (a') the same plugin slipped into pluggy's own table, so no registration hook ever hears of it.
const STEER_PLUGGY = [
  'import gc',
  'import pytest',
  'import pluggy',
  'from _pytest.config import Config',
  '',
  'class _Steer:',
  '    @pytest.hookimpl(tryfirst=True)',
  '    def pytest_pyfunc_call(self, pyfuncitem):',
  '        return True',
  '',
  'for _o in gc.get_objects():',
  '    if isinstance(_o, Config):',
  '        pluggy.PluginManager.register(_o.pluginmanager, _Steer(), "steer")',
  '        break',
  '',
].join('\n');
// (b) every unittest test class created from now on gets a no-op assertEqual.
const STEER_UNITTEST = [
  'import unittest',
  '',
  '_original = unittest.TestCase.__dict__["__init_subclass__"]',
  '',
  'def _quiet(cls, **kwargs):',
  '    _original.__func__(cls, **kwargs)',
  '    cls.assertEqual = lambda self, *args, **kwargs: None',
  '',
  'unittest.TestCase.__init_subclass__ = classmethod(_quiet)',
  '',
].join('\n');
// (b') the same without touching TestCase: every class built from now on (the test class among them).
const STEER_BUILD_CLASS = [
  'import builtins',
  '',
  '_build = builtins.__build_class__',
  '',
  'def _quiet(*args, **kwargs):',
  '    cls = _build(*args, **kwargs)',
  '    if any(base.__name__ == "TestCase" for base in cls.__mro__[1:]):',
  '        cls.assertEqual = lambda self, *a, **k: None',
  '    return cls',
  '',
  'builtins.__build_class__ = _quiet',
  '',
].join('\n');
// (c) bytecode: a right `add` compiled into the cache with the wrong source's mtime and size, so the next
// import runs it while the applied add.py stays wrong.
const CACHE_RIGHT_ADD = [
  'import importlib._bootstrap_external as _ext',
  'import importlib.util, os',
  '',
  'def _plant():',
  '    source = __file__',
  '    st = os.stat(source)',
  '    code = compile("def add(a, b):\\n    return a + b\\n", source, "exec")',
  '    data = _ext._code_to_timestamp_pyc(code, int(st.st_mtime), st.st_size)',
  '    target = importlib.util.cache_from_source(source)',
  '    os.makedirs(os.path.dirname(target), exist_ok=True)',
  '    with open(target, "wb") as f:',
  '        f.write(data)',
  '',
  '_plant()',
  '',
].join('\n');

// The results files the plugin has written so far (its `started` record) removed from the source under test:
// refused, and recorded as the attempt it is (prevented alone, the run would look like an honest failure).
const REMOVE_RESULTS = [
  'import os',
  '',
  'for _name in os.listdir(os.environ["WEAVE_EVIDENCE_DIR"]):',
  '    try:',
  '        os.remove(os.path.join(os.environ["WEAVE_EVIDENCE_DIR"], _name))',
  '    except OSError:',
  '        pass',
  '',
].join('\n');

const repos: string[] = [];
after(async () => {
  for (const r of repos) await fs.rm(r, { recursive: true, force: true });
});

/**
 * Runs spec `t` contained `times` times in one standalone checkout of a fresh repo holding `files`; with
 * `nodeModules`, the repo gets this repository's node_modules (mocha, jest), shown read-only in the sandbox.
 */
async function contained(
  command: string,
  testFile: string,
  files: Record<string, string>,
  times = 1,
  nodeModules = false,
): Promise<SpecResult[]> {
  const specs = {
    version: 1,
    goal: 'add numbers',
    specs: [
      { id: 't', title: 't', kind: 'functional', statement: 's', test: { command, files: [testFile] } },
    ],
  };
  const repo = await makeRepo({
    '.weave/specs.json': JSON.stringify(specs, null, 2),
    '.gitignore': 'node_modules\n',
    ...files,
  });
  repos.push(repo);
  if (nodeModules) await fs.symlink(path.join(REPO_ROOT, 'node_modules'), path.join(repo, 'node_modules'));
  const loaded = await loadSpecFile(repo);
  assert.ok(loaded.ok);
  return withCopiedWorkspace(
    repo,
    { kind: 'standalone', ref: WORKING_TREE, contain: { specFile: loaded.specFile, network: 'none' } },
    async (checkout) => {
      const { containment } = checkout;
      assert.ok(containment.sandbox, 'these cases need the sandbox (bubblewrap)');
      const results: SpecResult[] = [];
      for (let i = 0; i < times; i++) {
        const [r] = await runSpecs({ workspaceDir: checkout.dir, specFile: loaded.specFile, containment });
        results.push(r as SpecResult);
      }
      return results;
    },
  );
}

const pytestRun = async (add: string): Promise<SpecResult> =>
  (
    await contained(`${PYTEST} test`, 'test/test_add.py', {
      'test/test_add.py': PYTEST_TEST,
      'src/add.py': add,
    })
  )[0]!;
const unittestUnderPytest = async (add: string): Promise<SpecResult> =>
  (
    await contained(`${PYTEST} test`, 'test/test_add.py', {
      'test/test_add.py': UNITTEST_TEST,
      'src/add.py': add,
    })
  )[0]!;

const explain = (r: SpecResult): string => `${r.verdict}: ${r.reason}\n${r.output}`;

describe('pytest and unittest held from outside the code under test', () => {
  test('controls: the right add passes on signed results, pytest- and unittest-style, twice in a row', async () => {
    const runs = await contained(
      `${PYTEST} test`,
      'test/test_add.py',
      { 'test/test_add.py': PYTEST_TEST, 'src/add.py': RIGHT_ADD },
      2,
    );
    for (const r of runs) {
      assert.equal(r.verdict, 'pass', explain(r));
      assert.equal(r.evidence, 'runner');
    }
    const u = await unittestUnderPytest(RIGHT_ADD);
    assert.equal(u.verdict, 'pass', explain(u));
    assert.equal(u.summary?.passed, 2);
  });

  test('a plugin registered through the garbage collector (tryfirst pytest_pyfunc_call) is tampered', async () => {
    const r = await pytestRun(`${STEER_PYTEST}\n${WRONG_ADD}`);
    assert.equal(r.verdict, 'tampered', explain(r));
    assert.equal(r.verdictBeforeTampering, 'pass', 'the plugin really made the wrong add pass');
    assert.ok(
      r.evidenceTampering?.some((issue) => /gc\.get_objects/.test(issue)),
      `the reach into the runner is named: ${r.reason}`,
    );
    assert.ok(
      r.evidenceTampering?.some((issue) => /pytest_pyfunc_call/.test(issue) && /src\/add\.py/.test(issue)),
      `the foreign hook is named with its file: ${r.reason}`,
    );
  });

  test("a plugin slipped into pluggy's table past pytest's registration is tampered", async () => {
    const r = await pytestRun(`${STEER_PLUGGY}\n${WRONG_ADD}`);
    assert.equal(r.verdict, 'tampered', explain(r));
    assert.equal(r.verdictBeforeTampering, 'pass');
    assert.ok(
      r.evidenceTampering?.some((issue) => /pytest_pyfunc_call/.test(issue) && /src\/add\.py/.test(issue)),
      r.reason,
    );
  });

  test("unittest: TestCase.__init_subclass__ wrapped to quiet every test class's assertEqual is tampered", async () => {
    const r = await unittestUnderPytest(`${STEER_UNITTEST}\n${WRONG_ADD}`);
    assert.equal(r.verdict, 'tampered', explain(r));
    assert.equal(r.verdictBeforeTampering, 'pass', 'the wrapper really made the wrong add pass');
    assert.ok(
      r.evidenceTampering?.includes('unittest.TestCase.__init_subclass__ was replaced by code under test'),
      r.reason,
    );
  });

  test("unittest: builtins.__build_class__ wrapped to quiet the test class's assertEqual is tampered", async () => {
    const r = await unittestUnderPytest(`${STEER_BUILD_CLASS}\n${WRONG_ADD}`);
    assert.equal(r.verdict, 'tampered', explain(r));
    assert.equal(r.verdictBeforeTampering, 'pass');
    assert.ok(
      r.evidenceTampering?.some((issue) => /AddTest\.assertEqual/.test(issue) && /src\/add\.py/.test(issue)),
      r.reason,
    );
  });

  test("unittest: assertEqual given a no-op's __code__ (same function object, so no reference changed) is tampered", async () => {
    const r = await unittestUnderPytest(
      `import unittest\nunittest.TestCase.assertEqual.__code__ = (lambda self, first, second, msg=None: None).__code__\n${WRONG_ADD}`,
    );
    assert.equal(r.verdict, 'tampered', explain(r));
    assert.equal(r.verdictBeforeTampering, 'pass', 'the swapped code really made the wrong add pass');
    assert.ok(
      r.evidenceTampering?.some((issue) =>
        /^__code__ of the runner's TestCase\.assertEqual set from src\/add\.py:2$/.test(issue),
      ),
      r.reason,
    );
  });

  test('removing the runner’s results files (its `started` record) from the source under test is tampered', async () => {
    const r = await pytestRun(`${REMOVE_RESULTS}\n${WRONG_ADD}`);
    assert.equal(r.verdict, 'tampered', explain(r));
    assert.ok(
      r.evidenceTampering?.some((issue) =>
        /^os\.remove of a runner results file from src\/add\.py:\d+$/.test(issue),
      ),
      r.reason,
    );
  });

  test('a right add planted in the bytecode cache is never run: the applied add.py stays wrong, so it fails', async () => {
    const runs = await contained(
      `${PYTEST} test`,
      'test/test_add.py',
      { 'test/test_add.py': PYTEST_TEST, 'src/add.py': `${CACHE_RIGHT_ADD}\n${WRONG_ADD}` },
      2,
    );
    for (const r of runs) {
      assert.equal(r.verdict, 'fail', explain(r));
      assert.equal(r.evidence, 'runner');
    }
  });
});

const MOCHA_TEST = [
  "const assert = require('node:assert');",
  "const add = require('../src/add.js');",
  "describe('add', () => {",
  "  it('adds small numbers', () => { assert.strictEqual(add(1, 2), 3); });",
  "  it('adds negative numbers', () => { assert.strictEqual(add(-1, -2), -3); });",
  '});',
  '',
].join('\n');
const RIGHT_ADD_JS = 'module.exports = (a, b) => a + b;\n';
const WRONG_ADD_JS = 'module.exports = (a, b) => a - b;\n';
// (c) mocha's Runner found in the module cache; its `fail` reports every failure as a pass.
const STEER_MOCHA = [
  'const runner = Object.values(require.cache).find((m) => /mocha[\\\\/]lib[\\\\/]runner\\.js$/.test(m.id));',
  'if (runner) {',
  '  runner.exports.prototype.fail = function (test) {',
  "    test.state = 'passed';",
  "    this.emit('pass', test);",
  '  };',
  '}',
  '',
].join('\n');

const NODE_TEST = [
  "const test = require('node:test');",
  "const assert = require('node:assert');",
  "const add = require('../src/add.js');",
  "test('adds small numbers', () => { assert.equal(add(1, 2), 3); });",
  "test('adds negative numbers', () => { assert.equal(add(-1, -2), -3); });",
  '',
].join('\n');
// (e) node --test reads a test file's results from that file's stdout: every `test:fail` message is
// re-serialised there as `test:pass` (and the file's summary as a success), and the process exits 0.
const REWRITE_NODE_TEST_OUTPUT = [
  "const { DefaultSerializer, deserialize } = require('node:v8');",
  'const write = process.stdout.write.bind(process.stdout);',
  'const probe = new DefaultSerializer();',
  'probe.writeHeader();',
  'const headerLength = probe.releaseBuffer().length;',
  'process.stdout.write = (chunk, ...rest) => {',
  '  try {',
  '    const item = deserialize(Buffer.from(chunk).subarray(headerLength + 4));',
  "    if (item.type === 'test:fail') {",
  "      item.type = 'test:pass';",
  "      item.data.details = { duration_ms: item.data.details.duration_ms, type: 'test' };",
  "    } else if (item.type === 'test:summary') {",
  '      item.data.success = true;',
  '      item.data.counts.passed += item.data.counts.failed;',
  '      item.data.counts.failed = 0;',
  '    }',
  '    const s = new DefaultSerializer();',
  '    s.writeHeader();',
  '    s.writeRawBytes(new Uint8Array(4));',
  '    s.writeHeader();',
  '    s.writeValue(item);',
  '    const out = s.releaseBuffer();',
  '    out.writeUInt32BE(out.length - headerLength - 4, headerLength);',
  '    return write(out, ...rest);',
  '  } catch {',
  '    return write(chunk, ...rest);',
  '  }',
  '};',
  "process.on('exit', () => {",
  '  process.exitCode = 0;',
  '});',
  '',
].join('\n');

const nodeTestRun = async (add: string): Promise<SpecResult> =>
  (
    await contained('node --test', 'test/add.test.js', { 'test/add.test.js': NODE_TEST, 'src/add.js': add })
  )[0]!;

const mochaRun = async (add: string): Promise<SpecResult> =>
  (
    await contained(
      'node node_modules/mocha/bin/mocha.js test',
      'test/add.test.js',
      { 'test/add.test.js': MOCHA_TEST, 'src/add.js': add },
      1,
      true,
    )
  )[0]!;

// `python -m unittest` loads no plugin: Weave's sitecustomize wraps unittest's results before any user code.
const UNITTEST = '/usr/bin/python3 -m unittest discover -s test';
const unittestRun = async (add: string): Promise<SpecResult> =>
  (
    await contained(UNITTEST, 'test/test_add.py', { 'test/test_add.py': UNITTEST_TEST, 'src/add.py': add })
  )[0]!;

describe('python -m unittest on its own signed results', () => {
  test('control: the right add passes on signed results; the wrong one fails on them', async () => {
    const right = await unittestRun(RIGHT_ADD);
    assert.equal(right.verdict, 'pass', explain(right));
    assert.equal(right.evidence, 'runner', explain(right));
    assert.deepEqual(right.summary, { runner: 'unittest', passed: 2, failed: 0, skipped: 0 });
    const wrong = await unittestRun(WRONG_ADD);
    assert.equal(wrong.verdict, 'fail', explain(wrong));
    assert.equal(wrong.evidence, 'runner', explain(wrong));
    assert.deepEqual(wrong.summary, { runner: 'unittest', passed: 0, failed: 2, skipped: 0 });
  });

  test('TestCase.assertEqual replaced with a no-op by the code under test is tampered', async () => {
    const r = await unittestRun(
      `import unittest\nunittest.TestCase.assertEqual = lambda self, first, second, msg=None: None\n${WRONG_ADD}`,
    );
    assert.equal(r.verdict, 'tampered', explain(r));
    assert.equal(r.verdictBeforeTampering, 'pass', 'the no-op really made the wrong add pass');
    assert.ok(
      r.evidenceTampering?.includes('unittest.TestCase.assertEqual was replaced by code under test'),
      r.reason,
    );
  });

  test("TestCase.__init_subclass__ wrapped to quiet the test class's assertEqual is tampered", async () => {
    const r = await unittestRun(`${STEER_UNITTEST}\n${WRONG_ADD}`);
    assert.equal(r.verdict, 'tampered', explain(r));
    assert.equal(r.verdictBeforeTampering, 'pass');
    assert.ok(
      r.evidenceTampering?.some((issue) => /AddTest\.assertEqual/.test(issue) && /src\/add\.py/.test(issue)),
      r.reason,
    );
  });
});

describe('Node runners held from outside the code under test', () => {
  test('control: the right add passes under mocha on signed results', async () => {
    const r = await mochaRun(RIGHT_ADD_JS);
    assert.equal(r.verdict, 'pass', explain(r));
    assert.equal(r.evidence, 'runner');
    assert.equal(r.summary?.passed, 2);
  });

  test('control: the right add passes under node --test on signed results', async () => {
    const r = await nodeTestRun(RIGHT_ADD_JS);
    assert.equal(r.verdict, 'pass', explain(r));
    assert.equal(r.evidence, 'runner');
    assert.equal(r.summary?.passed, 2);
  });

  test("node --test: a test file's failures rewritten as passes on its stdout are tampered", async () => {
    const r = await nodeTestRun(`${REWRITE_NODE_TEST_OUTPUT}\n${WRONG_ADD_JS}`);
    assert.equal(r.verdict, 'tampered', explain(r));
    assert.equal(r.verdictBeforeTampering, 'pass', 'the rewrite really made the wrong add pass');
    assert.deepEqual(r.evidenceTampering, [
      "node:test's test files failed 2 test(s) in their own processes, but the runner read 0 failure(s) from their output (rewritten on the way)",
    ]);
  });

  test('mocha: Runner.prototype.fail replaced to report failures as passes is tampered, naming it', async () => {
    const r = await mochaRun(`${STEER_MOCHA}\n${WRONG_ADD_JS}`);
    assert.equal(r.verdict, 'tampered', explain(r));
    assert.equal(r.verdictBeforeTampering, 'pass', 'the replacement really made the wrong add pass');
    assert.deepEqual(r.evidenceTampering, ['mocha.Runner.prototype.fail was replaced by code under test']);
  });
});

// jest (issue #35, 1(d)): the spec's test uses jest's `expect`; the code under test, imported by it, replaces
// `expect` or the matchers behind it, so every failing assertion passes.
const JEST_TEST = [
  "const add = require('../src/add.js');",
  "test('adds small numbers', () => { expect(add(1, 2)).toBe(3); });",
  "test('adds negative numbers', () => { expect(add(-1, -2)).toBe(-3); });",
  '',
].join('\n');
// (d) the global `expect` replaced by one whose matchers never throw.
const STEER_JEST_GLOBAL = ['globalThis.expect = () => new Proxy({}, { get: () => () => {} });', ''].join(
  '\n',
);
// (d') `expect` left in place, its `toBe` matcher replaced through expect.extend.
const STEER_JEST_EXTEND = [
  'globalThis.expect.extend({ toBe: () => ({ pass: true, message: () => "" }) });',
  '',
].join('\n');
// (d'') the same written straight into jest's matcher table, no call of expect.extend.
const STEER_JEST_TABLE = [
  "const table = globalThis[Symbol.for('$$jest-matchers-object')].matchers;",
  'const toEqual = table.toEqual;',
  'table.toBe = function (actual, expected) { return { pass: true, message: () => "" }; };',
  'void toEqual;',
  '',
].join('\n');
// An honest project: a declared setup file adds a matcher with expect.extend and the test uses it.
const JEST_SETUP_FILES = {
  'jest.config.js': "module.exports = { setupFilesAfterEnv: ['<rootDir>/test/setup.js'] };\n",
  'test/setup.js':
    'expect.extend({\n  toBeSumOf(received, a, b) {\n    return { pass: received === a + b, message: () => `${received} is not ${a} + ${b}` };\n  },\n});\n',
  'test/extra.test.js':
    "const add = require('../src/add.js');\ntest('adds with a matcher of the setup file', () => { expect(add(2, 2)).toBeSumOf(2, 2); });\n",
};

// Run with `-w 2`, it proves the files ran in jest's worker processes (it throws, whatever `expect` became).
const IN_WORKERS = {
  'test/where.test.js':
    "test('runs in a jest worker', () => {\n  if (!/jest-worker/.test(process.argv[1])) throw new Error(process.argv[1]);\n});\n",
};
const jestRun = async (
  add: string,
  files: Record<string, string> = {},
  command = 'npx jest -i',
): Promise<SpecResult> =>
  (
    await contained(
      command,
      'test/add.test.js',
      {
        'package.json': '{"name":"calc","version":"1.0.0"}\n',
        'test/add.test.js': JEST_TEST,
        'src/add.js': add,
        ...files,
      },
      1,
      true,
    )
  )[0]!;

describe("jest's expect held from outside the code under test", () => {
  test('control: the right add passes, in band and in workers, with a setup file extending expect', async () => {
    for (const command of ['npx jest -i', 'npx jest -w 2']) {
      const workers = command.includes('-w');
      const r = await jestRun(RIGHT_ADD_JS, { ...JEST_SETUP_FILES, ...(workers ? IN_WORKERS : {}) }, command);
      assert.equal(r.verdict, 'pass', explain(r));
      assert.equal(r.evidence, 'runner');
      assert.equal(r.summary?.passed, workers ? 4 : 3, command);
    }
  });

  test('control: a declared setup file that sets the global expect is its baseline', async () => {
    const r = await jestRun(RIGHT_ADD_JS, {
      'jest.config.js': "module.exports = { setupFilesAfterEnv: ['<rootDir>/test/setup.js'] };\n",
      'test/setup.js':
        'const jestExpect = globalThis.expect;\nglobalThis.expect = (value) => jestExpect(value);\n',
    });
    assert.equal(r.verdict, 'pass', explain(r));
    assert.equal(r.evidence, 'runner');
  });

  test('jest: the global expect replaced by code under test is tampered, in band and in workers', async () => {
    for (const command of ['npx jest -i', 'npx jest -w 2']) {
      const files = { ...JEST_SETUP_FILES, ...(command.includes('-w') ? IN_WORKERS : {}) };
      const r = await jestRun(`${STEER_JEST_GLOBAL}\n${WRONG_ADD_JS}`, files, command);
      assert.equal(r.verdict, 'tampered', `${command}: ${explain(r)}`);
      assert.equal(r.verdictBeforeTampering, 'pass', 'the replacement really made the wrong add pass');
      assert.deepEqual(r.evidenceTampering, ['jest.expect was replaced by code under test'], command);
    }
  });

  test('jest: toBe replaced through expect.extend or in the matcher table is tampered, naming it', async () => {
    for (const steer of [STEER_JEST_EXTEND, STEER_JEST_TABLE]) {
      const r = await jestRun(`${steer}\n${WRONG_ADD_JS}`);
      assert.equal(r.verdict, 'tampered', explain(r));
      assert.equal(r.verdictBeforeTampering, 'pass', 'the replacement really made the wrong add pass');
      assert.deepEqual(r.evidenceTampering, ['jest.expect matcher.toBe was replaced by code under test']);
    }
  });
});

// vitest (issue #35, 1(d)): the same with vitest's `expect`, imported from 'vitest' or global (globals: true).
const VITEST_TEST = [
  "import { expect, test } from 'vitest';",
  "import { add } from '../src/add.js';",
  "test('adds small numbers', () => { expect(add(1, 2)).toBe(3); });",
  "test('adds negative numbers', () => { expect(add(-1, -2)).toBe(-3); });",
  '',
].join('\n');
const VITEST_GLOBAL_TEST = [
  "import { add } from '../src/add.js';",
  "test('adds small numbers', () => { expect(add(1, 2)).toBe(3); });",
  "test('adds negative numbers', () => { expect(add(-1, -2)).toBe(-3); });",
  '',
].join('\n');
const RIGHT_ADD_ESM = 'export const add = (a, b) => a + b;\n';
const WRONG_ADD_ESM = 'export const add = (a, b) => a - b;\n';
// (d) toBe replaced through the imported expect's extend (chai's Assertion prototype underneath).
const STEER_VITEST_EXTEND = [
  "import { expect } from 'vitest';",
  "expect.extend({ toBe: () => ({ pass: true, message: () => '' }) });",
  '',
].join('\n');
// (d') the global expect (globals: true) replaced by one whose matchers never throw.
const STEER_VITEST_GLOBAL = 'globalThis.expect = () => new Proxy({}, { get: () => () => {} });\n';
const VITEST_SETUP_FILES = {
  'vitest.config.js':
    "export default { test: { globals: true, setupFiles: ['./test/setup.js'], include: ['test/**/*.test.js'] } };\n",
  'test/setup.js':
    "import { expect } from 'vitest';\nexpect.extend({\n  toBeSumOf(received, a, b) {\n    return { pass: received === a + b, message: () => `${received} is not ${a} + ${b}` };\n  },\n});\n",
  'test/extra.test.js':
    "import { expect, test } from 'vitest';\ntest('adds with a matcher of the setup file', () => { expect(4).toBeSumOf(2, 2); });\n",
};

// --configLoader runner: vite's default loader writes the bundled config under node_modules, read-only here.
const vitestRun = async (add: string, test = VITEST_TEST, pool = 'forks'): Promise<SpecResult> =>
  (
    await contained(
      `npx vitest run --configLoader runner --pool=${pool}`,
      'test/add.test.js',
      {
        'package.json': '{"name":"calc","version":"1.0.0","type":"module"}\n',
        'test/add.test.js': test,
        'src/add.js': add,
        ...VITEST_SETUP_FILES,
      },
      1,
      true,
    )
  )[0]!;

describe("vitest's expect held from outside the code under test", () => {
  test('control: the right add passes, with a setup file extending expect and global expect', async () => {
    for (const test of [VITEST_TEST, VITEST_GLOBAL_TEST]) {
      const r = await vitestRun(RIGHT_ADD_ESM, test);
      assert.equal(r.verdict, 'pass', explain(r));
      assert.equal(r.evidence, 'runner');
      assert.equal(r.summary?.passed, 3);
    }
  });

  test("control: an honest vitest config loads with vite's default loader (it writes under the read-only node_modules)", async () => {
    // vite bundles the config to node_modules/.vite-temp and imports it from there; the sandbox shows node_modules
    // read-only, and the hook turns that folder's EROFS into vite's own no-node_modules fallback (next to the config).
    for (const config of ['vitest.config.js', 'vitest.config.ts']) {
      const files: Record<string, string> = {
        'package.json': '{"name":"calc","version":"1.0.0","type":"module"}\n',
        'test/add.test.js': VITEST_TEST,
        'src/add.js': RIGHT_ADD_ESM,
        ...VITEST_SETUP_FILES,
      };
      delete files['vitest.config.js'];
      files[config] = VITEST_SETUP_FILES['vitest.config.js'];
      const [r] = await contained('npx vitest run --pool=forks', 'test/add.test.js', files, 1, true);
      assert.equal(r?.verdict, 'pass', `${config}: ${explain(r!)}`);
      assert.equal(r?.evidence, 'runner');
      assert.equal(r?.summary?.passed, 3, 'the setup file the config names ran');
      assert.equal(r?.attempts, undefined);
    }
  });

  test('vitest: toBe replaced through expect.extend from the code under test is tampered, in forks and threads', async () => {
    for (const pool of ['forks', 'threads']) {
      const r = await vitestRun(`${STEER_VITEST_EXTEND}\n${WRONG_ADD_ESM}`, VITEST_TEST, pool);
      assert.equal(r.verdict, 'tampered', `${pool}: ${explain(r)}`);
      assert.equal(r.verdictBeforeTampering, 'pass', 'the replacement really made the wrong add pass');
      assert.deepEqual(r.evidenceTampering, [
        'chai.Assertion.prototype.toBe was replaced by code under test',
      ]);
    }
  });

  test('vitest: the global expect replaced by code under test is tampered', async () => {
    const r = await vitestRun(`${STEER_VITEST_GLOBAL}\n${WRONG_ADD_ESM}`, VITEST_GLOBAL_TEST);
    assert.equal(r.verdict, 'tampered', explain(r));
    assert.equal(r.verdictBeforeTampering, 'pass', 'the replacement really made the wrong add pass');
    assert.deepEqual(r.evidenceTampering, ['vitest.expect was replaced by code under test']);
  });
});
