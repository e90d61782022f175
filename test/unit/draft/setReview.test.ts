import assert from 'node:assert/strict';
import { test } from 'node:test';
import { duplicateOf, statementSimilarity } from '../../../src/core/draft/duplicates';
import { contradictingStatements, goalParts, uncoveredGoalParts } from '../../../src/core/draft/review';
import type { Spec } from '../../../src/shared/specSchema';

const spec = (id: string, statement: string, command = `node --test test/${id}.test.js`): Spec => ({
  id,
  title: id,
  kind: 'functional',
  statement,
  test: { command, files: [`test/${id}.test.js`] },
  anchors: [],
  dependsOn: [],
  interactsWith: [],
});

test('the goal is split into clauses, and a clause no spec speaks to is uncovered', () => {
  const goal =
    'Put an LRU cache in front of the HTTP client so repeated GETs are fast, without ever serving stale data, blowing the memory budget or leaking one user’s response to another.';
  assert.ok(goalParts(goal).length >= 3, goalParts(goal).join(' | '));
  const specs = [
    spec('fast', 'A repeated GET within the TTL shall be answered by the LRU cache in front of the client.'),
    spec('fresh', 'After the TTL the client shall never serve stale data.'),
  ];
  const uncovered = uncoveredGoalParts(goal, specs);
  assert.ok(
    uncovered.some((p) => /memory budget/.test(p)),
    uncovered.join(' | '),
  );
  assert.ok(!uncovered.some((p) => /stale data/.test(p)), uncovered.join(' | '));
});

test('two statements that say the same thing, one negated, are flagged as contradicting', () => {
  const found = contradictingStatements([
    spec('cache-errors', 'The client shall cache error responses from the origin.'),
    spec('no-error-cache', 'The client shall not cache error responses from the origin.'),
    spec('unrelated', 'Header names are lower-cased.'),
  ]);
  assert.deepEqual(
    found.map((c) => [c.a, c.b]),
    [['cache-errors', 'no-error-cache']],
  );
});

test('duplicates: the same test, or a near-identical statement; a different requirement is not one', () => {
  const existing = [spec('boundary', 'isAdult shall hold at 18 and not at 17.')];
  assert.match(
    duplicateOf(spec('again', 'Entirely different words here.', 'node  --test   test/boundary.test.js'), [
      {
        ...existing[0]!,
        test: { command: 'node --test test/boundary.test.js', files: ['test/again.test.js'] },
      },
    ]) ?? '',
    /same test command and test files/,
  );
  assert.match(
    duplicateOf(spec('rephrased', 'isAdult shall hold at 18, and not at 17!'), existing) ?? '',
    /near-identical/,
  );
  assert.equal(
    duplicateOf(spec('types', 'isAdult shall throw a TypeError for strings.'), existing),
    undefined,
  );
  assert.ok(statementSimilarity('a b c', 'd e f') === 0);
});
