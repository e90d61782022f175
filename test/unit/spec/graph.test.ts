import test from 'node:test';
import assert from 'node:assert/strict';
import { SpecGraph } from '../../../src/core/spec/graph';
import { findDependencyCycles } from '../../../src/shared/crossSpecRules';

function spec(id: string, dependsOn: string[] = [], interactsWith: string[] = []) {
  return { id, dependsOn, interactsWith };
}

// d → b → a, d → c → a; e stands alone. File order deliberately puts dependents first.
const graph = new SpecGraph([
  spec('d', ['b', 'c']),
  spec('b', ['a'], ['c']),
  spec('c', ['a'], ['b', 'd']),
  spec('a'),
  spec('e', [], ['a']),
]);

test('ids keep file order and get() finds specs', () => {
  assert.deepEqual(graph.ids, ['d', 'b', 'c', 'a', 'e']);
  assert.equal(graph.get('c')?.id, 'c');
  assert.equal(graph.get('zzz'), undefined);
});

test('dependencyOrder puts every spec after its dependencies, otherwise keeps file order', () => {
  const order = graph.dependencyOrder();
  assert.deepEqual(order, ['a', 'b', 'c', 'd', 'e']);
  for (const id of graph.ids) {
    for (const dependency of graph.dependenciesOf(id)) {
      assert.ok(order.indexOf(dependency) < order.indexOf(id), `${dependency} before ${id}`);
    }
  }
});

test('dependenciesOf and dependentsOf, direct and transitive (nearest first)', () => {
  assert.deepEqual(graph.dependenciesOf('d'), ['b', 'c']);
  assert.deepEqual(graph.dependenciesOf('d', { transitive: true }), ['b', 'c', 'a']);
  assert.deepEqual(graph.dependentsOf('a'), ['b', 'c']);
  assert.deepEqual(graph.dependentsOf('a', { transitive: true }), ['b', 'c', 'd']);
  assert.deepEqual(graph.dependentsOf('e', { transitive: true }), []);
});

test('declaredInteractions are undirected and deduplicated', () => {
  assert.deepEqual(graph.declaredInteractions(), [
    ['b', 'c'],
    ['d', 'c'],
    ['a', 'e'],
  ]);
  assert.deepEqual(graph.interactionsOf('c').sort(), ['b', 'd']);
});

test('blockedBy reports failed dependencies, transitively', () => {
  assert.deepEqual(graph.blockedBy('d', new Set(['a'])), ['a']);
  assert.deepEqual(graph.blockedBy('d', new Set(['b', 'a'])), ['b', 'a']);
  assert.deepEqual(graph.blockedBy('a', new Set(['d'])), [], 'dependents never block their dependencies');
  assert.deepEqual(graph.blockedBy('e', new Set(['a'])), [], 'interactions do not block');
});

test('findDependencyCycles finds each cycle once, from its first spec in file order', () => {
  const cycles = findDependencyCycles([
    spec('x', ['y']),
    spec('y', ['z']),
    spec('z', ['x']),
    spec('p', ['q', 'p']),
    spec('q', ['p']),
    spec('free', ['x']),
  ]);
  assert.deepEqual(cycles, [
    ['x', 'y', 'z', 'x'],
    ['p', 'q', 'p'],
  ]);
  assert.deepEqual(findDependencyCycles([spec('a'), spec('b', ['a'])]), []);
});

test('a graph with a cycle (built outside the loader) still orders every spec once', () => {
  const cyclic = new SpecGraph([spec('a', ['b']), spec('b', ['a'])]);
  assert.deepEqual(cyclic.dependencyOrder().sort(), ['a', 'b']);
  assert.deepEqual(cyclic.dependenciesOf('a', { transitive: true }), ['b']);
});
