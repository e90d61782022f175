// The editor's one state of results (src/extension/resultsState.ts), as plain data: a check's verdicts over the
// known ones, live verdicts as specs finish, a cancelled check (finished verdicts kept, the rest "not run"), and
// the restored run (never over newer verdicts). Every surface reads this state, so these rules are what they show.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BaselineReport, Change, RunRecord, SpecResult, Verdict } from '../../../src/core/check/types';
import {
  knownOf,
  mergeStoredRuns,
  NO_RESULTS,
  NOT_RUN_REASON,
  withCheckBegun,
  withLiveResult,
  withRestored,
  withRun,
} from '../../../src/extension/resultsState';

function result(id: string, verdict: Verdict, reason?: string): SpecResult {
  return {
    id,
    kind: 'functional',
    verdict,
    exitCode: verdict === 'pass' ? 0 : 1,
    signal: null,
    durationMs: 1,
    evidence: 'runner',
    output: '',
    truncatedBytes: 0,
    ...(reason ? { reason } : {}),
  };
}

function run(id: string, results: SpecResult[]): RunRecord {
  return {
    id,
    startedAt: '2026-12-01T10:00:00.000Z',
    finishedAt: `2026-12-01T10:00:0${id.length % 10}.000Z`,
    commit: 'abc',
    clean: false,
    specIds: results.map((r) => r.id),
    results,
  };
}

function report(changes: Record<string, Change>): BaselineReport {
  return {
    baseline: { runId: 'base', commit: 'abc' },
    FAIL_TO_PASS: [],
    PASS_TO_PASS: [],
    FAIL_TO_FAIL: [],
    PASS_TO_FAIL: [],
    changes,
  };
}

const ids = ['a', 'b', 'c'];
const verdicts = (state: typeof NO_RESULTS): Array<[string, Verdict, string | undefined]> =>
  knownOf(state, ids).results.map((r) => [r.id, r.verdict, r.reason]);

describe('results state', () => {
  test('a check replaces the verdicts of the specs it ran and keeps the others', () => {
    const first = withRun(
      NO_RESULTS,
      run('r1', [result('a', 'pass'), result('b', 'pass'), result('c', 'fail')]),
      report({}),
      'check',
    );
    const second = withRun(first, run('r2', [result('a', 'fail')]), report({ a: 'broken' }), 'check');
    assert.deepEqual(verdicts(second), [
      ['a', 'fail', undefined],
      ['b', 'pass', undefined],
      ['c', 'fail', undefined],
    ]);
    assert.deepEqual(knownOf(second, ids).changes, { a: 'broken' });
    assert.deepEqual(second.lastRun, {
      runId: 'r2',
      finishedAt: '2026-12-01T10:00:02.000Z',
      origin: 'check',
    });
  });

  test('a live verdict shows at once, with its change, before its check ends', () => {
    const before = withRun(
      NO_RESULTS,
      run('r1', [result('a', 'pass'), result('b', 'fail')]),
      report({}),
      'check',
    );
    const live = withLiveResult(before, result('a', 'fail'), 'broken');
    assert.deepEqual(verdicts(live), [
      ['a', 'fail', undefined],
      ['b', 'fail', undefined],
    ]);
    assert.deepEqual(knownOf(live, ids).changes, { a: 'broken' });
    assert.equal(live.lastRun?.runId, 'r1', 'the run is still the last recorded one');
    // The first check of a window: nothing known before, the finished spec is no longer "unchecked".
    assert.deepEqual(verdicts(withLiveResult(NO_RESULTS, result('c', 'pass'), undefined)), [
      ['c', 'pass', undefined],
    ]);
  });

  test('a cancelled check keeps its finished verdicts and says "not run" for the rest, not the old verdicts', () => {
    const before = withRun(
      NO_RESULTS,
      run('r1', [result('a', 'fail'), result('b', 'blocked', 'blocked by gone-spec (gone-spec: fail)')]),
      report({}),
      'check',
    );
    const cancelled = withRun(
      before,
      run('r2', [result('a', 'pass'), result('b', 'skipped', 'cancelled')]),
      report({ a: 'fixed', b: 'other' }),
      'cancelled',
    );
    assert.deepEqual(verdicts(cancelled), [
      ['a', 'pass', undefined],
      ['b', 'skipped', NOT_RUN_REASON],
    ]);
    assert.equal(cancelled.lastRun?.origin, 'cancelled');
  });

  test('"broken" is only shown where the verdict is one: not on a blocked, not-run or flaky spec', () => {
    const state = withRun(
      NO_RESULTS,
      run('r1', [result('a', 'blocked'), result('b', 'flaky'), result('c', 'fail')]),
      report({ a: 'broken', b: 'broken', c: 'broken' }),
      'check',
    );
    assert.deepEqual(knownOf(state, ids).changes, { a: 'other', b: 'other', c: 'broken' });
  });

  test('the restored run comes in only while nothing is known, marked restored', () => {
    const stored = mergeStoredRuns([
      { run: run('old', [result('a', 'pass'), result('b', 'fail')]), report: report({ b: 'broken' }) },
      { run: run('newer', [result('a', 'fail')]), report: report({ a: 'broken' }) },
    ]);
    assert.ok(stored);
    assert.equal(stored.run.id, 'newer');
    const restored = withRestored(NO_RESULTS, stored);
    assert.deepEqual(verdicts(restored), [
      ['a', 'fail', undefined],
      ['b', 'fail', undefined],
    ]);
    assert.deepEqual(knownOf(restored, ids).changes, { a: 'broken', b: 'broken' });
    assert.deepEqual(restored.lastRun, {
      runId: 'newer',
      finishedAt: stored.run.finishedAt,
      origin: 'restored',
    });
    // A check that finished (or a verdict that arrived) before the stored run was read is newer: it stays.
    const checked = withRun(NO_RESULTS, run('r1', [result('a', 'pass')]), report({}), 'check');
    assert.equal(withRestored(checked, stored), checked);
    const live = withLiveResult(NO_RESULTS, result('a', 'pass'), undefined);
    assert.equal(withRestored(live, stored), live);
    assert.equal(mergeStoredRuns([]), undefined);
  });

  test('a check over a restored run drops the restored verdicts of the specs it runs: counts of one run only', () => {
    const restored = withRun(
      NO_RESULTS,
      run('old', [result('a', 'fail'), result('b', 'pass')]),
      report({ a: 'broken' }),
      'restored',
    );
    const begun = withCheckBegun(restored, ['a']);
    assert.deepEqual(verdicts(begun), [['b', 'pass', undefined]]);
    assert.deepEqual(knownOf(begun, ids).changes, {});
    // Still labelled restored (b is), so the stored run cannot come in again over the live verdicts.
    assert.equal(begun.lastRun?.origin, 'restored');
    const live = withLiveResult(begun, result('a', 'pass'), undefined);
    assert.deepEqual(verdicts(live), [
      ['a', 'pass', undefined],
      ['b', 'pass', undefined],
    ]);
    // A check's own earlier verdicts stay until its next verdicts replace them.
    const checked = withRun(NO_RESULTS, run('r1', [result('a', 'fail')]), report({}), 'check');
    assert.equal(withCheckBegun(checked, ['a']), checked);
  });
});
