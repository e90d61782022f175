import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ddmin, type ProbeOutcome } from '../../../src/core/blame/ddmin';

const items = Array.from({ length: 16 }, (_, i) => i);

void test('ddmin finds the two changes that together cause the failure', async () => {
  let calls = 0;
  const result = await ddmin(
    items,
    async (subset): Promise<ProbeOutcome> => {
      calls++;
      return subset.includes(3) && subset.includes(11) ? 'fails' : 'passes';
    },
    100,
    (x) => x,
  );
  assert.deepEqual(result.items, [3, 11]);
  assert.equal(result.minimal, true);
  assert.equal(result.probes, calls);
});

void test('ddmin treats unresolved probes as not failing and stops at the budget', async () => {
  const unresolvedWithout7 = async (subset: number[]): Promise<ProbeOutcome> =>
    subset.includes(5) ? (subset.includes(7) ? 'fails' : 'unresolved') : 'passes';
  const full = await ddmin(items, unresolvedWithout7, 100, (x) => x);
  assert.deepEqual(full.items, [5, 7]);
  const bounded = await ddmin(items, unresolvedWithout7, 2, (x) => x);
  assert.equal(bounded.minimal, false);
  assert.equal(bounded.probes, 2);
  assert.ok(bounded.items.includes(5) && bounded.items.includes(7));
});
