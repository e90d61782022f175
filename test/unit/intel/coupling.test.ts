import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  formatCouplingMermaid,
  formatCouplingText,
  staticCoupling,
} from '../../../src/core/coupling/coupling';
import { loadAnchoredWorkspace } from '../../../src/core/anchors/anchoredWorkspace';
import { copyWorkspace, examplesDir, removeDir, slugkitFixture } from '../../support/repos';

async function couplingOf(source: string) {
  const dir = copyWorkspace(source);
  try {
    const ws = await loadAnchoredWorkspace(dir, { useCache: false });
    assert.deepEqual(ws.anchorProblems, []);
    return staticCoupling({
      specFile: ws.specFile,
      index: ws.index,
      resolved: ws.resolved,
      workspaceDir: dir,
    });
  } finally {
    removeDir(dir);
  }
}

void test('examples/: specs anchored at the same symbol are potential interactions, undeclared ones are flagged', async () => {
  const coupling = await couplingOf(examplesDir);
  const pair = (a: string, b: string) =>
    coupling.potential.find((p) => (p.a === a && p.b === b) || (p.a === b && p.b === a));

  const staleness = pair('cache-hit', 'no-stale-read');
  assert.ok(staleness);
  assert.deepEqual(staleness.sharedSymbols, ['src/cache.js#LruCache.get']);
  assert.equal(staleness.declared, true);

  // size-budget anchors the whole LruCache class, which holds the LruCache.set that cache-hit anchors.
  const budget = pair('cache-hit', 'size-budget');
  assert.ok(budget);
  assert.ok(budget.sharedSymbols.includes('src/cache.js#LruCache.set'));
  assert.equal(budget.declared, false);

  // Every test loads the client and the cache: shared by all, they are reported once, not per pair.
  assert.deepEqual(coupling.loadedByEveryTest, ['src/cache.js', 'src/client.js']);
  assert.ok(coupling.potential.every((p) => !p.sharedConeFiles.includes('src/client.js')));

  assert.ok(coupling.declared.dependsOn.some(([from, to]) => from === 'no-stale-read' && to === 'cache-hit'));
  assert.ok(coupling.declared.interactsWith.some(([a, b]) => a === 'cache-hit' && b === 'no-stale-read'));

  const text = formatCouplingText(coupling);
  assert.match(
    text,
    /cache-hit ↔ size-budget {2}\[not declared\]\n {6}shared symbols: src\/cache\.js#LruCache\.get, src\/cache\.js#LruCache\.set/,
  );
  const mermaid = formatCouplingMermaid(coupling);
  assert.match(mermaid, /^flowchart LR\n/);
  assert.match(mermaid, /s2 -->\|depends on\| s1/);
  assert.match(mermaid, /s1 -\.-\|"LruCache\.get, LruCache\.set"\| s4/);
});

void test('a Python package we did not write (src layout, pytest, conftest): shared anchored file and shared imports', async () => {
  const coupling = await couplingOf(slugkitFixture);
  assert.deepEqual(
    coupling.potential.map((p) => [p.a, p.b, p.sharedSymbols, p.sharedAnchorFiles]),
    [['ascii-slugs', 'unique-slugs', [], ['src/slugkit/core.py']]],
  );
  // Every test imports the package, whose __init__ pulls in core and translit; pytest loads conftest.py.
  assert.deepEqual(coupling.loadedByEveryTest, [
    'src/slugkit/__init__.py',
    'src/slugkit/core.py',
    'src/slugkit/translit.py',
    'tests/conftest.py',
  ]);
  assert.deepEqual(coupling.declared.dependsOn, [['unique-slugs', 'ascii-slugs']]);
});
