// Static import cones and selection on workspaces in the shapes real projects have: an npm library whose tests
// load it by `require('..')`, `require('..')` and its own name, and a src-layout Python package whose
// __init__.py re-exports part of it. A change is made in the working tree and selected with real git.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, test } from 'node:test';
import { selectAffected } from '../../../src/core/selection/selectAffected';
import { importChain, specCones } from '../../../src/core/selection/cones';
import { loadAnchoredWorkspace } from '../../../src/core/anchors/anchoredWorkspace';
import {
  copyWorkspace,
  initRepo,
  pyslimFixture,
  removeDir,
  tinylibFixture,
  writeFiles,
} from '../../support/repos';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) removeDir(dir);
  dir = undefined;
});

function workspace(fixture: string, extra: Record<string, string> = {}): string {
  dir = copyWorkspace(fixture);
  writeFiles(dir, { '.gitignore': '__pycache__/\n.pytest_cache/\n', ...extra });
  initRepo(dir);
  return dir;
}

/** Appends a line to a function body: a one-line edit inside `symbolLine`'s definition. */
function edit(root: string, file: string, find: string, replace: string): void {
  const abs = path.join(root, file);
  const text = fs.readFileSync(abs, 'utf8');
  assert.ok(text.includes(find), `${file} has no '${find}'`);
  fs.writeFileSync(abs, text.replace(find, replace));
}

const ids = (r: { affected: Array<{ id: string }> }) => r.affected.map((s) => s.id);

void test("tinylib: require('..'), require('..') and the package's own name put index.js in the cones", async () => {
  const root = workspace(tinylibFixture);
  const ws = await loadAnchoredWorkspace(root, { useCache: false });
  const cones = specCones(ws.specFile, ws.index, { workspaceDir: root });
  assert.deepEqual(importChain(cones.get('parse')!, 'index.js').reverse(), [
    'test/parse.test.js',
    'index.js',
  ]);
  assert.deepEqual(importChain(cones.get('format')!, 'lib/pad.js').reverse(), [
    'test/format.test.js',
    'index.js',
    'lib/pad.js',
  ]);
  // Self-reference through exports: the ESM test imports 'tinylib', which is index.mjs, which imports index.js.
  assert.deepEqual(importChain(cones.get('esm-entry')!, 'index.js').reverse(), [
    'test/esm.test.mjs',
    'index.mjs',
    'index.js',
  ]);
  for (const cone of cones.values()) assert.deepEqual(cone.uncertain, [], cone.id);
  assert.equal(cones.get('words')!.parent.has('index.js'), false);
});

void test('tinylib: an edit in index.js selects the specs whose tests load the package, and says why the rest is skipped', async () => {
  const root = workspace(tinylibFixture);
  edit(root, 'index.js', 'if (n > high) return high;', 'if (n >= high) return high;');
  const result = await selectAffected({ workspaceDir: root, since: 'HEAD' });
  assert.equal(result.all, false);
  assert.deepEqual(ids(result), ['parse', 'format', 'esm-entry']);
  const format = result.affected.find((s) => s.id === 'format')!;
  assert.ok(
    format.reasons.includes('its anchored symbol tinylib.clamp changed (index.js)'),
    format.reasons.join('\n'),
  );
  const parse = result.affected.find((s) => s.id === 'parse')!;
  assert.ok(
    parse.reasons.includes('index.js (tinylib.clamp) is in its import cone (test/parse.test.js → index.js)'),
    parse.reasons.join('\n'),
  );
  assert.deepEqual(
    result.notSelected.map((s) => s.id),
    ['words'],
  );
  assert.match(
    result.notSelected[0]!.reason,
    /^no changed file \(index\.js\) is among its test files, its 1 anchored file or the 2 files of its import cone/,
  );

  edit(root, 'index.js', 'if (n >= high) return high;', 'if (n > high) return high;');
  edit(root, 'lib/words.js', '(w) => w.length > 0', '(w) => w.length > 1');
  assert.deepEqual(ids(await selectAffected({ workspaceDir: root, since: 'HEAD' })), ['words']);
});

void test('an import that cannot be traced selects its spec for any change, with the reason', async () => {
  const root = workspace(tinylibFixture, {
    'test/alias.test.js':
      "const { words } = require('@/lib/words');\nrequire('node:test')('x', () => words('a'));\n",
    '.weave/specs.json': fs
      .readFileSync(path.join(tinylibFixture, '.weave/specs.json'), 'utf8')
      .replace(
        '"specs": [',
        '"specs": [{"id": "alias", "title": "alias", "kind": "functional", "statement": "s", "test": {"command": "node --test test/alias.test.js", "files": ["test/alias.test.js"]}},',
      ),
  });
  edit(root, 'lib/pad.js', 'while (out.length < width)', 'while (out.length <= width)');
  const result = await selectAffected({ workspaceDir: root, since: 'HEAD' });
  assert.deepEqual(
    ids(result),
    ['alias', 'format', 'parse', 'esm-entry'].sort((a, b) => order(a) - order(b)),
  );
  const alias = result.affected.find((s) => s.id === 'alias')!;
  assert.equal(alias.reasons.length, 1);
  assert.match(
    alias.reasons[0]!,
    /^its import cone is incomplete \(test\/alias\.test\.js imports '@\/lib\/words', which Weave cannot trace: '@\/lib\/words' is neither a workspace file nor an installed or declared package/,
  );
  function order(id: string): number {
    return ['alias', 'parse', 'format', 'esm-entry', 'words'].indexOf(id);
  }
});

void test('pyslim: a change in func.py (not imported by __init__) does not select the specs that use pkg.double', async () => {
  const root = workspace(pyslimFixture);
  edit(root, 'src/pyslim/func.py', 'return x + 10', 'return x + 11');
  let result = await selectAffected({ workspaceDir: root, since: 'HEAD' });
  assert.deepEqual(ids(result), ['func']);
  assert.deepEqual(
    result.notSelected.map((s) => s.id),
    ['package-double', 'from-package', 'registry', 'scale'],
  );

  edit(root, 'src/pyslim/func.py', 'return x + 11', 'return x + 10');
  edit(root, 'src/pyslim/core.py', 'return x * 2', 'return x * 3');
  result = await selectAffected({ workspaceDir: root, since: 'HEAD' });
  assert.deepEqual(ids(result), ['package-double', 'from-package', 'func', 'registry', 'scale']);
  const fromPackage = result.affected.find((s) => s.id === 'from-package')!;
  assert.deepEqual(fromPackage.reasons, [
    'src/pyslim/core.py (double) is in its import cone (tests/test_from_package.py → src/pyslim/__init__.py → src/pyslim/core.py)',
  ]);
});

void test('pyslim: from . import alpha brings in alpha only, not its sibling beta', async () => {
  const root = workspace(pyslimFixture);
  edit(root, 'src/pyslim/plugins/beta.py', 'return "beta"', 'return "b"');
  let result = await selectAffected({ workspaceDir: root, since: 'HEAD' });
  assert.deepEqual(ids(result), []);
  edit(root, 'src/pyslim/plugins/alpha.py', 'return "alpha"', 'return "a"');
  result = await selectAffected({ workspaceDir: root, since: 'HEAD' });
  assert.deepEqual(ids(result), ['registry']);
  assert.deepEqual(result.affected[0]!.reasons, [
    'src/pyslim/plugins/alpha.py (run) is in its import cone (tests/test_registry.py → src/pyslim/plugins/registry.py → src/pyslim/plugins/alpha.py)',
  ]);
});

void test('cost follows the change: no change, or one selecting every spec, parses no more than the anchored and changed files', async () => {
  const root = workspace(tinylibFixture);
  const cache = path.join(root, '.weave/cache/index');
  assert.deepEqual(ids(await selectAffected({ workspaceDir: root, since: 'HEAD' })), []);
  edit(root, 'package.json', '"version": "1.2.0"', '"version": "1.2.1"');
  const all = await selectAffected({ workspaceDir: root, since: 'HEAD' });
  assert.equal(all.all, true);
  assert.deepEqual(all.anchorProblems, []);
  // The workspace index (and its cache) is built only when a change has to be traced through imports.
  assert.equal(fs.existsSync(cache), false);
  edit(root, 'package.json', '"version": "1.2.1"', '"version": "1.2.0"');
  edit(root, 'lib/words.js', '(w) => w.length > 0', '(w) => w.length > 1');
  assert.deepEqual(ids(await selectAffected({ workspaceDir: root, since: 'HEAD' })), ['words']);
  // A traced change parses the cones it needs (lazyCones.ts), not the workspace: still no workspace index.
  assert.equal(fs.existsSync(cache), false);
});
