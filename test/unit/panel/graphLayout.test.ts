// The spec graph's layout (media/src/graphLayout.ts, the real elkjs in plain Node): ids wrap only at dashes,
// every spec sits right of what it depends on, arrows run from the dependent to its dependency, nothing overlaps.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { layoutGraph, wrapId, type Layout, type PlacedNode } from '../../../media/src/graphLayout';

/** A monospace stand-in for the canvas measurement: 7 px a character. */
const options = { wrapAt: 12, measure: (text: string) => text.length * 7, lineHeight: 13 };

const spec = (id: string, dependsOn: string[] = []) => ({ id, dependsOn });

function node(layout: Layout, id: string): PlacedNode {
  const found = layout.nodes.find((n) => n.id === id);
  assert.ok(found, `node ${id}`);
  return found;
}

test('wrapId breaks only after dashes, keeps every character, and leaves a short id whole', () => {
  assert.deepEqual(wrapId('no-secret-caching', 12), ['no-secret-', 'caching']);
  assert.deepEqual(wrapId('cache-hit', 12), ['cache-hit']);
  assert.deepEqual(wrapId('a-b-c-d', 3), ['a-', 'b-', 'c-d']);
  // A part longer than the limit is never cut: ids are shown whole.
  assert.deepEqual(wrapId('internationalisation-ok', 8), ['internationalisation-', 'ok']);
  for (const id of ['no-secret-caching', 'x', 'a--b', 'response-shape-is-stable'])
    for (const wrapAt of [1, 5, 12, Infinity]) assert.equal(wrapId(id, wrapAt).join(''), id);
});

test('each spec is placed right of the specs it depends on, and arrows point at the dependency', async () => {
  // d → b → a, d → c → a; e stands alone; listed dependents first.
  const layout = await layoutGraph(
    { specs: [spec('d', ['b', 'c']), spec('b', ['a']), spec('c', ['a']), spec('a'), spec('e')] },
    options,
  );
  assert.deepEqual(layout.nodes.map((n) => n.id).sort(), ['a', 'b', 'c', 'd', 'e']);
  for (const [dependent, dependency] of [
    ['d', 'b'],
    ['d', 'c'],
    ['b', 'a'],
    ['c', 'a'],
  ] as const) {
    const from = node(layout, dependent);
    const to = node(layout, dependency);
    assert.ok(to.x + to.width <= from.x, `${dependency} is left of ${dependent}`);
    const edge = layout.dependencies.find((e) => e.from === dependent && e.to === dependency);
    assert.ok(edge, `an arrow ${dependent} → ${dependency}`);
    const first = edge.points[0];
    const last = edge.points.at(-1);
    assert.ok(first && last);
    assert.ok(Math.abs(first.x - from.x) < 1, 'the arrow leaves the dependent on its left side');
    assert.ok(Math.abs(last.x - (to.x + to.width)) < 1, 'and ends on the dependency’s right side');
  }
  assert.equal(layout.dependencies.length, 4);
});

test('nodes are sized for their wrapped labels, do not overlap, and fit in the layout', async () => {
  const specs = [
    spec('no-secret-caching'),
    spec('cache-hit', ['no-secret-caching']),
    spec('cache-miss', ['no-secret-caching']),
    spec('stale-read-is-never-served', ['cache-hit', 'cache-miss']),
  ];
  const layout = await layoutGraph({ specs }, options);
  for (const n of layout.nodes) {
    assert.deepEqual(n.lines, wrapId(n.id, options.wrapAt));
    assert.ok(n.width >= Math.max(...n.lines.map(options.measure)), `${n.id} is wide enough for its label`);
    assert.ok(n.height >= n.lines.length * options.lineHeight, `${n.id} is tall enough for its lines`);
    assert.ok(n.x >= 0 && n.y >= 0 && n.x + n.width <= layout.width && n.y + n.height <= layout.height);
  }
  for (const a of layout.nodes)
    for (const b of layout.nodes) {
      if (a === b) continue;
      const apart =
        a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
      assert.ok(apart, `${a.id} and ${b.id} overlap`);
    }
});

test('a dependency on an unknown spec or on itself draws no arrow and breaks nothing', async () => {
  const layout = await layoutGraph({ specs: [spec('a', ['a', 'missing']), spec('b', ['a'])] }, options);
  assert.deepEqual(
    layout.dependencies.map((e) => [e.from, e.to]),
    [['b', 'a']],
  );
  assert.equal(layout.nodes.length, 2);
});

test('an empty graph lays out to no nodes and no arrows', async () => {
  const layout = await layoutGraph({ specs: [] }, options);
  assert.deepEqual([layout.nodes, layout.dependencies], [[], []]);
});

test('the narrow panel’s compact layout at a shorter wrap is narrower, and every label still fits its node', async () => {
  // The demo's graph: three layers, whose default layout (wrap 14) panned in a ~250 px panel and cut the last column.
  const demo = [
    spec('response-shape'),
    spec('cache-hit', ['response-shape']),
    spec('no-stale-read', ['cache-hit']),
    spec('no-error-caching', ['response-shape']),
    spec('size-budget'),
    spec('hit-rate', ['cache-hit']),
    spec('no-secret-caching', ['response-shape']),
    spec('header-names', ['response-shape']),
  ];
  const usual = await layoutGraph({ specs: demo }, { ...options, wrapAt: 14 });
  const compact = await layoutGraph({ specs: demo }, { ...options, wrapAt: 7, compact: true });
  assert.ok(compact.width < usual.width * 0.8, `compact ${compact.width} px vs usual ${usual.width} px`);
  for (const n of compact.nodes) {
    assert.equal(n.lines.join(''), n.id);
    for (const line of n.lines)
      assert.ok(line.length * 7 <= n.width, `${n.id}: "${line}" wider than its node`);
    assert.ok(n.x + n.width <= compact.width, `${n.id} outside the layout`);
  }
});
