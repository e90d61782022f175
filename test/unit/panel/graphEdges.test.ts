// The graph's interaction lines and paths (media/src/graphEdges.ts) and the badge status (media/src/status.ts):
// the DOM-free parts of the panel's graph and list.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  interactionLines,
  interactionPath,
  polylinePath,
  potentialShownByDefault,
} from '../../../media/src/graphEdges';
import type { PlacedNode } from '../../../media/src/graphLayout';
import { statusOf } from '../../../media/src/status';
import type { ParsedPanelState } from '../../../src/shared/protocol';

const spec = (id: string, interactsWith: string[] = []) => ({ id, interactsWith });

const placed = (id: string, x: number, y: number): PlacedNode => ({
  id,
  x,
  y,
  width: 40,
  height: 20,
  lines: [id],
});

test('a declared pair is drawn once, whichever side declares it, and hides the same potential pair', () => {
  const state = {
    specs: [spec('a', ['b']), spec('b', ['a', 'c']), spec('c')],
    potentialInteractions: [
      { a: 'b', b: 'a', reason: 'both anchored at src/cache.js' },
      { a: 'a', b: 'c', reason: 'shared import cone' },
    ],
  };
  assert.deepEqual(
    interactionLines(state, true).map((l) => [l.kind, l.a, l.b]),
    [
      ['interacts', 'a', 'b'],
      ['interacts', 'b', 'c'],
      ['potential', 'a', 'c'],
    ],
  );
  assert.match(interactionLines(state, true)[2]?.title ?? '', /a and c: shared import cone$/);
  assert.deepEqual(
    interactionLines(state, false).map((l) => l.kind),
    ['interacts', 'interacts'],
    'potential interactions only when shown',
  );
});

test('an interaction runs between the facing sides; in one column it bows out to the right', () => {
  const left = placed('a', 0, 0);
  const right = placed('b', 100, 40);
  // From a's right side to b's left side, at 70% of their heights, either way round.
  assert.equal(interactionPath(left, right), 'M40,14 Q70,50 100,54');
  assert.equal(interactionPath(right, left), interactionPath(left, right));
  const top = placed('c', 0, 0);
  const bottom = placed('d', 5, 100);
  const path = interactionPath(bottom, top);
  assert.equal(path, 'M40,10 C61,10 61,110 45,110');
  const bowX = Number(/C(\d+),/.exec(path)?.[1]);
  assert.ok(bowX > Math.max(top.x + top.width, bottom.x + bottom.width), 'outside both nodes');
});

test('a dependency arrow follows its routed points', () => {
  assert.equal(
    polylinePath([
      { x: 0, y: 1 },
      { x: 5, y: 1 },
      { x: 5, y: 9 },
    ]),
    'M0,1 L5,1 L5,9',
  );
});

test('a badge shows running and queued first, then broken / fixed, then the verdict', () => {
  const state = {
    running: ['r'],
    queued: ['q'],
    changes: { b: 'broken', f: 'fixed', s: 'still-failing', r: 'broken' },
    verdicts: {
      b: { verdict: 'fail' },
      f: { verdict: 'pass' },
      s: { verdict: 'fail' },
      p: { verdict: 'pass' },
    },
  } as unknown as ParsedPanelState;
  assert.deepEqual(
    ['r', 'q', 'b', 'f', 's', 'p', 'never-run'].map((id) => statusOf(state, id)),
    ['running', 'queued', 'broken', 'fixed', 'fail', 'pass', 'unchecked'],
  );
});

test('potential interactions start shown up to 15 specs and hidden above (the large view at 45 was a hairball)', () => {
  assert.equal(potentialShownByDefault(9), true);
  assert.equal(potentialShownByDefault(15), true);
  assert.equal(potentialShownByDefault(16), false);
  assert.equal(potentialShownByDefault(45), false);
});
