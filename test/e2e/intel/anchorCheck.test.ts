// Anchors are first-class: `weave validate` resolves them (parsing only the anchored files) and fails on a
// missing file or symbol, at the anchor string, with the nearest names; `weave check` prints them and carries
// them in --json; member-assigned functions, class fields and Python class attributes can be anchored, and
// `weave index --json --symbols` lists every name an anchor can use.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { rankedMatches } from '../../../src/core/spec/suggest';
import {
  copyWorkspace,
  initRepo,
  pyslimFixture,
  removeDir,
  repoRoot,
  tinylibFixture,
  writeFiles,
} from '../../support/repos';

const cli = path.join(repoRoot, 'dist/cli.js');
let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) removeDir(dir);
  dir = undefined;
});

function weave(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The workspace with some anchors replaced (`from` → `to` in .weave/specs.json). */
function withAnchors(fixture: string, replacements: Array<[string, string]>): string {
  dir = copyWorkspace(fixture);
  const specsPath = path.join(dir, '.weave/specs.json');
  let text = fs.readFileSync(specsPath, 'utf8');
  for (const [from, to] of replacements) {
    assert.ok(text.includes(from), from);
    text = text.replace(from, to);
  }
  fs.writeFileSync(specsPath, text);
  return dir;
}

/** 1-based line and column of the first occurrence of `needle` in the spec file (inside its quotes). */
function locate(root: string, needle: string): string {
  const text = fs.readFileSync(path.join(root, '.weave/specs.json'), 'utf8');
  const offset = text.indexOf(`"${needle}"`);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `${line}:${offset - before.lastIndexOf('\n')}`;
}

void test('rankedMatches: the nearest qualified names by whole name or last segment, typos only', () => {
  const names = ['LRUCache', 'LRUCache.popitem', 'LRUCache.pop', 'LRUCache.get', 'TTLCache.popitem', 'clear'];
  assert.deepEqual(rankedMatches('LRUCache.popitm', names, '.'), ['LRUCache.popitem', 'TTLCache.popitem']);
  assert.deepEqual(rankedMatches('popitme', names, '.'), ['LRUCache.popitem', 'TTLCache.popitem']);
  assert.deepEqual(rankedMatches('LRUCache.frobnicate', names, '.'), []);
  assert.deepEqual(rankedMatches('src/pyslim/fnuc.py', ['src/pyslim/func.py', 'src/pyslim/core.py'], '/'), [
    'src/pyslim/func.py',
  ]);
});

void test('weave validate: a missing symbol or file is an error at the anchor string, with suggestions', () => {
  const root = withAnchors(pyslimFixture, [
    ['src/pyslim/core.py#Scale.factor', 'src/pyslim/core.py#Scale.factr'],
    ['src/pyslim/func.py#offset', 'src/pyslim/fnuc.py#offset'],
  ]);
  const r = weave(root, 'validate');
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.ok(
    r.stdout.includes(
      `.weave/specs.json:${locate(root, 'src/pyslim/core.py#Scale.factr')}: specs[4].anchors[0]: symbol Scale.factr is not defined in src/pyslim/core.py (did you mean Scale.factor?)`,
    ),
    r.stdout,
  );
  assert.ok(
    r.stdout.includes(
      `.weave/specs.json:${locate(root, 'src/pyslim/fnuc.py#offset')}: specs[2].anchors[1]: anchor file src/pyslim/fnuc.py does not exist in the workspace (did you mean src/pyslim/func.py?)`,
    ),
    r.stdout,
  );
  assert.match(r.stdout, /\.weave\/specs\.json: 2 errors\n$/);
  const json = JSON.parse(weave(root, 'validate', '--json').stdout) as { ok: boolean; errors: number };
  assert.deepEqual([json.ok, json.errors], [false, 2]);
});

void test('weave validate: the fixtures resolve; an ambiguous anchor is a warning (exit 0)', () => {
  for (const fixture of [pyslimFixture, tinylibFixture]) {
    const ok = weave(fixture, 'validate');
    assert.equal(ok.code, 0, ok.stdout);
    assert.match(ok.stdout, /specs OK/);
  }
  // Two classes with an `apply` method: `twice.py#apply` is ambiguous.
  dir = copyWorkspace(pyslimFixture);
  writeFiles(dir, {
    'src/pyslim/twice.py':
      'class A:\n    def apply(self):\n        pass\n\n\nclass B:\n    def apply(self):\n        pass\n',
  });
  const specs = path.join(dir, '.weave/specs.json');
  fs.writeFileSync(
    specs,
    fs
      .readFileSync(specs, 'utf8')
      .replace('src/pyslim/plugins/registry.py#names', 'src/pyslim/twice.py#apply'),
  );
  const r = weave(dir, 'validate');
  assert.equal(r.code, 0, r.stdout);
  assert.match(
    r.stdout,
    /: `apply` matches A\.apply \(src\/pyslim\/twice\.py:2\) and B\.apply \(src\/pyslim\/twice\.py:7\): the anchor covers all of them/,
  );
  assert.match(r.stdout, /1 warning\)\n$/);
});

void test('weave check prints anchor problems and carries them in --json; --affected lists what it skips', () => {
  const root = withAnchors(tinylibFixture, [['lib/words.js#words', 'lib/words.js#wrods']]);
  initRepo(root);
  fs.appendFileSync(path.join(root, 'lib/words.js'), '// touched\n');
  const r = weave(root, 'check', '--affected', '--json', '--no-record');
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout) as {
    anchorProblems: Array<{ message: string; severity: string }>;
    selection: { selected: Array<{ id: string }>; notSelected: Array<{ id: string; reason: string }> };
    run: { results: Array<{ id: string }> };
  };
  assert.deepEqual(
    json.anchorProblems.map((p) => [p.severity, p.message]),
    [['error', 'symbol wrods is not defined in lib/words.js (did you mean words?)']],
  );
  assert.deepEqual(
    json.selection.selected.map((s) => s.id),
    ['words'],
  );
  assert.deepEqual(
    json.run.results.map((s) => s.id),
    ['words'],
  );
  assert.deepEqual(
    json.selection.notSelected.map((s) => s.id),
    ['parse', 'format', 'esm-entry'],
  );
  assert.match(r.stderr, /symbol wrods is not defined in lib\/words\.js/);
  assert.match(r.stderr, /weave check --affected: 1 of 4 specs selected \(changes since HEAD\)/);
  assert.match(r.stderr, /\n {2}skip parse: no changed file \(lib\/words\.js\) is among its test files/);
});

void test('member-assigned functions, exported values, class fields and Python class attributes are symbols', () => {
  const r = weave(tinylibFixture, 'index', '--json', '--symbols', '--no-cache');
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout) as {
    files: Array<{ path: string; symbolList: Array<{ qualifiedName: string; kind: string; line: number }> }>;
  };
  const names = (file: string) =>
    report.files
      .find((f) => f.path === file)!
      .symbolList.map((s) => `${s.qualifiedName}:${s.kind}:${s.line}`);
  assert.deepEqual(names('index.js'), [
    'tinylib:function:6',
    'tinylib.parse:function:10',
    'tinylib.format:function:19',
    'tinylib.clamp:function:24',
  ]);
  assert.deepEqual(names('lib/words.js'), ['words:function:4', 'words:constant:8', 'SEPARATOR:constant:9']);
  const py = JSON.parse(
    weave(pyslimFixture, 'index', '--json', '--symbols', '--no-cache').stdout,
  ) as typeof report;
  assert.deepEqual(
    py.files
      .find((f) => f.path === 'src/pyslim/core.py')!
      .symbolList.map((s) => `${s.qualifiedName}:${s.kind}`),
    ['double:function', 'halve:function', 'Scale:class', 'Scale.factor:field', 'Scale.apply:method'],
  );
  const bad = weave(tinylibFixture, 'index', '--symbols');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--symbols goes with --json/);
});
