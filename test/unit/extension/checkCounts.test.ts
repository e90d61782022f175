// The one count model (src/shared/checkCounts.ts) the status bar and the side panel's summary both render: after a
// check, an add, a remove, a reload (the restored run) and mid-check after a reload or during a repeated check, the
// two texts carry the same numbers. Issue #39 saw "Weave 6/8 · 1 broken · 1 failing · checking 2/8" beside
// "8 specs · checking 2/8 · 2 pass · 1 running · 5 queued": the status bar counted the old verdicts of the specs
// the check was running again.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  checkCounts,
  groupOf,
  panelSummaryText,
  specStatus,
  statusBarText,
  type CheckView,
  type SpecStatus,
} from '../../../src/shared/checkCounts';
import type { Verdict } from '../../../src/shared/verdicts';

const NOW = new Date('2026-12-07T12:00:00.000Z');
const EIGHTEEN_MIN_AGO = '2026-12-07T11:42:00.000Z';
const DEMO = ['response-shape', 'cache-hit', 'no-stale-read', 'no-error-caching', 'size-budget', 'hit-rate'];
const IDS = [...DEMO, 'no-secret-caching', 'header-names'];

function verdicts(entries: Record<string, Verdict>): CheckView['verdicts'] {
  return Object.fromEntries(Object.entries(entries).map(([id, verdict]) => [id, { verdict }]));
}

/** The demo's restored run: 6 pass, no-stale-read broken, no-secret-caching failing. */
const RESTORED: CheckView = {
  specIds: IDS,
  verdicts: verdicts({
    ...Object.fromEntries(DEMO.map((id) => [id, 'pass' as const])),
    'no-stale-read': 'fail',
    'no-secret-caching': 'fail',
    'header-names': 'pass',
  }),
  changes: { 'no-stale-read': 'broken', 'no-secret-caching': 'still-failing' },
  running: [],
  queued: [],
  progress: null,
  lastRun: { finishedAt: EIGHTEEN_MIN_AGO, origin: 'restored' },
};

function both(view: CheckView): [string, string] {
  const counts = checkCounts(view);
  return [statusBarText(counts, NOW), panelSummaryText(counts, NOW)];
}

describe('checkCounts: the status bar and the panel from one count', () => {
  test('a restored run: its counts and its age in both', () => {
    assert.deepEqual(both(RESTORED), [
      'Weave 6/8 · 1 broken · 1 failing · 18 min ago',
      '8 specs · 6 pass · 1 broken · 1 fail · last run 18 min ago (restored)',
    ]);
  });

  test('mid-check after a reload: the specs being checked count with no old verdict, and the age is gone', () => {
    // The old verdicts are still known for the specs this check runs again (the store keeps a check's own, and
    // the status bar showed the restored ones): neither surface counts them.
    const midCheck: CheckView = {
      ...RESTORED,
      verdicts: verdicts({
        ...Object.fromEntries(Object.entries(RESTORED.verdicts).map(([id, v]) => [id, v?.verdict ?? 'pass'])),
        'response-shape': 'pass',
        'cache-hit': 'pass',
      }),
      running: ['no-stale-read'],
      queued: IDS.slice(3),
      progress: { done: 2, total: 8 },
    };
    assert.deepEqual(both(midCheck), [
      'Weave 2/8 · checking 2/8',
      '8 specs · checking 2/8 · 2 pass · 1 running · 5 queued',
    ]);
  });

  test('a spec added on disk counts at once as unchecked; a removed one leaves the count, its verdict known or not', () => {
    const added = { ...RESTORED, specIds: [...IDS, 'slow-sleeper'] };
    assert.deepEqual(both(added), [
      'Weave 6/9 · 1 broken · 1 failing · 1 unchecked · 18 min ago',
      '9 specs · 6 pass · 1 broken · 1 fail · 1 unchecked · last run 18 min ago (restored)',
    ]);
    const removed = { ...RESTORED, specIds: IDS.filter((id) => id !== 'header-names') };
    assert.deepEqual(both(removed), [
      'Weave 5/7 · 1 broken · 1 failing · 18 min ago',
      '7 specs · 5 pass · 1 broken · 1 fail · last run 18 min ago (restored)',
    ]);
  });

  test('a cancelled check: "not run" in both; the panel says it was cancelled, the status bar needs no age', () => {
    const cancelled: CheckView = {
      ...RESTORED,
      verdicts: verdicts({
        ...Object.fromEntries(IDS.map((id) => [id, 'skipped' as const])),
        'response-shape': 'pass',
        'cache-hit': 'pass',
      }),
      changes: {},
      lastRun: { finishedAt: '2026-12-07T11:59:50.000Z', origin: 'cancelled' },
    };
    assert.deepEqual(both(cancelled), [
      'Weave 2/8 · 6 not run',
      '8 specs · 2 pass · 6 not run · check cancelled just now',
    ]);
  });

  test('a check of one spec: the others keep their verdicts, an unchecked spec stays unchecked', () => {
    const one: CheckView = {
      ...RESTORED,
      specIds: [...IDS, 'new-spec'],
      running: ['no-stale-read'],
      progress: { done: 0, total: 1 },
      lastRun: { finishedAt: EIGHTEEN_MIN_AGO, origin: 'check' },
    };
    assert.deepEqual(both(one), [
      'Weave 6/9 · 1 failing · 1 unchecked · checking 0/1',
      '9 specs · checking 0/1 · 6 pass · 1 running · 1 fail · 1 unchecked',
    ]);
  });

  test('broken and fixed win over the verdict; fixed passes; blocked, error, tampered and unverified are failing', () => {
    const view: CheckView = {
      specIds: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
      verdicts: verdicts({
        a: 'pass',
        b: 'pass',
        c: 'blocked',
        d: 'error',
        e: 'tampered',
        f: 'unverified',
        g: 'flaky',
        h: 'fail',
      }),
      changes: { b: 'fixed', h: 'broken' },
      running: [],
      queued: [],
      progress: null,
      lastRun: { finishedAt: EIGHTEEN_MIN_AGO, origin: 'check' },
    };
    assert.deepEqual(both(view), [
      'Weave 2/8 · 1 broken · 4 failing · 1 flaky',
      '8 specs · 1 pass · 1 fixed · 1 blocked · 1 error · 1 tampered · 1 unverified · 1 flaky · 1 broken',
    ]);
  });

  test('whatever the state, every spec is in exactly one group and the panel statuses add up to the status groups', () => {
    const statuses: Array<Verdict | undefined> = [
      'pass',
      'fail',
      'error',
      'blocked',
      'skipped',
      'flaky',
      'tampered',
      'unverified',
      undefined,
    ];
    const changes = [undefined, 'broken', 'fixed', 'still-failing'] as const;
    // A small deterministic generator: the same 500 states on every run.
    let seed = 39;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 500; round++) {
      const specIds = Array.from({ length: 1 + next(12) }, (_, i) => `s${i}`);
      const view: CheckView = {
        specIds,
        verdicts: {},
        changes: {},
        running: [],
        queued: [],
        progress: null,
        lastRun: null,
      };
      const v: Record<string, { verdict: Verdict }> = {};
      const c: Record<string, string> = {};
      const running: string[] = [];
      const queued: string[] = [];
      for (const id of [...specIds, 'removed-since']) {
        const verdict = statuses[next(statuses.length)];
        if (verdict) v[id] = { verdict };
        const change = changes[next(changes.length)];
        // As the store keeps them: broken only of a failure, fixed only of a pass.
        if (change === 'broken' && verdict === 'fail') c[id] = change;
        else if (change === 'fixed' && verdict === 'pass') c[id] = change;
        else if (change === 'still-failing' && verdict) c[id] = change;
        const busy = next(4);
        if (busy === 0) running.push(id);
        if (busy === 1) queued.push(id);
      }
      const checking = running.length + queued.length > 0;
      const counts = checkCounts({
        ...view,
        verdicts: v,
        changes: c,
        running,
        queued,
        progress: checking ? { done: 1, total: specIds.length } : null,
      });
      // The expected groups, worked out here spec by spec (not with the module's own groupOf).
      const expected = { passed: 0, broken: 0, failing: 0, flaky: 0, notRun: 0, unchecked: 0, checking: 0 };
      for (const id of specIds) {
        const verdict = v[id]?.verdict;
        if (running.includes(id) || queued.includes(id)) expected.checking++;
        else if (c[id] === 'broken') expected.broken++;
        else if (c[id] === 'fixed' || verdict === 'pass') expected.passed++;
        else if (verdict === undefined) expected.unchecked++;
        else if (verdict === 'flaky') expected.flaky++;
        else if (verdict === 'skipped') expected.notRun++;
        else expected.failing++;
      }
      const { total, passed, broken, failing, flaky, notRun, unchecked, checking: busy } = counts;
      assert.equal(total, specIds.length);
      assert.deepEqual({ passed, broken, failing, flaky, notRun, unchecked, checking: busy }, expected);
      // The panel's statuses add up to the same groups.
      const perGroup = { ...expected };
      for (const key of Object.keys(perGroup) as Array<keyof typeof perGroup>) perGroup[key] = 0;
      for (const [status, n] of counts.byStatus) {
        const group = groupOf(status);
        perGroup[group === 'not run' ? 'notRun' : group] += n;
      }
      assert.deepEqual(perGroup, expected);
    }
  });

  test("a spec's status: running, then queued, then broken / fixed, then its verdict, else unchecked", () => {
    const view = {
      verdicts: verdicts({ a: 'fail', b: 'pass', c: 'fail' }),
      changes: { a: 'broken', b: 'fixed' },
      running: ['c'],
      queued: ['d'],
    };
    const seen: Record<string, SpecStatus> = Object.fromEntries(
      ['a', 'b', 'c', 'd', 'e'].map((id) => [id, specStatus(view, id)]),
    );
    assert.deepEqual(seen, { a: 'broken', b: 'fixed', c: 'running', d: 'queued', e: 'unchecked' });
  });
});
