import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ageText,
  failureExcerpt,
  isViolation,
  type BaselineReport,
  type SpecResult,
} from '../../../src/core/check';
import {
  blameStatusText,
  countResults,
  statusText,
  testItemDescription,
  verdictSummary,
  verdictText,
  violationMessage,
} from '../../../src/extension/views/resultText';

function result(id: string, verdict: SpecResult['verdict'], output = '', reason?: string): SpecResult {
  return {
    id,
    kind: 'functional',
    verdict,
    exitCode: verdict === 'pass' ? 0 : 1,
    signal: null,
    durationMs: 10,
    evidence: 'summary',
    output,
    truncatedBytes: 0,
    ...(reason ? { reason } : {}),
  };
}

function report(changes: BaselineReport['changes']): BaselineReport {
  return {
    baseline: { runId: 'r1', commit: '0123456789abcdef' },
    FAIL_TO_PASS: [],
    PASS_TO_PASS: [],
    FAIL_TO_FAIL: [],
    PASS_TO_FAIL: [],
    changes,
  };
}

const NODE_TEST_FAILURE = `TAP version 13
# Subtest: clamp keeps values inside the bounds
not ok 1 - clamp keeps values inside the bounds
  ---
  duration_ms: 1.2
  location: '/w/test/clamp.test.js:6:1'
  failureType: 'testCodeFailure'
  error: |-
    clamp(15, 0, 10) must be 10
  code: 'ERR_ASSERTION'
  expected: 10
  actual: 15
  stack: |-
    TestContext.<anonymous> (/w/test/clamp.test.js:8:10)
  ...
1..1
# tests 1
# pass 0
# fail 1
`;

describe('extension wording (resultText.ts)', () => {
  test('the excerpt of a node:test failure is the failing test and its assertion message', () => {
    assert.equal(
      failureExcerpt(NODE_TEST_FAILURE, 3),
      'not ok 1 - clamp keeps values inside the bounds\nerror: clamp(15, 0, 10) must be 10\nexpected: 10',
    );
  });

  test("node:test's spec reporter: the excerpt leads with the assertion's message, without the error's properties", () => {
    // Node 24's own output for the demo's failing spec (a strictEqual with a message).
    const output = [
      '✖ a response with an Authorization header is never cached (35.1ms)',
      'ℹ tests 1',
      'ℹ fail 1',
      '',
      '✖ failing tests:',
      '',
      'test at test/no-secret-caching.test.js:7:1',
      '✖ a response with an Authorization header is never cached (35.1ms)',
      '  AssertionError [ERR_ASSERTION]: the authorized response was stored in the cache',
      '  ',
      '  1 !== 0',
      '  ',
      '      at TestContext.<anonymous> (/w/test/no-secret-caching.test.js:20:10)',
      '      at async Test.run (node:internal/test_runner/test:1409:7) {',
      '    generatedMessage: false,',
      "    code: 'ERR_ASSERTION',",
      '    actual: 1,',
      '    expected: 0,',
      "    operator: 'strictEqual',",
      "    diff: 'simple'",
      '  }',
    ].join('\n');
    assert.equal(failureExcerpt(output, 3), 'the authorized response was stored in the cache\n1 !== 0');
  });

  test('without a recognisable failure line the excerpt is the tail of the output', () => {
    assert.equal(
      failureExcerpt('starting\nstep 1\nstep 2\nsegmentation fault\n', 2),
      'step 2\nsegmentation fault',
    );
  });

  test('colour codes and stack frames never reach the excerpt', () => {
    assert.equal(
      failureExcerpt(
        '\x1b[31mAssertionError: boom\x1b[0m\n    at foo (a.js:1:1)\n    at bar (b.js:2:2)\nnext',
        5,
      ),
      'AssertionError: boom\nnext',
    );
  });

  test('a broken spec names the baseline commit; a plain failure omits the runner bookkeeping', () => {
    const broken = result('a', 'fail', 'AssertionError: x', 'exit code 1');
    assert.equal(verdictText(broken, report({ a: 'broken' })), 'broken by changes since 0123456');
    assert.equal(verdictText(broken, report({ a: 'still-failing' })), 'fail');
    // The Test Explorer (no "broken" state of its own) says it in the item's description, before the title.
    assert.equal(testItemDescription(broken, 'Rule a', report({ a: 'broken' })), 'broken · Rule a');
    assert.equal(testItemDescription(broken, 'Rule a', report({ a: 'still-failing' })), 'Rule a');
    assert.equal(
      verdictText(result('b', 'error', '', 'timed out after 60 s'), undefined),
      'error (timed out after 60 s)',
    );
  });

  test('a blocked spec is not a violation even when the baseline report counts it as broken', () => {
    const blocked = result('c', 'blocked', '', 'dependency a failed');
    assert.equal(isViolation(blocked, report({ c: 'broken' })), false);
    assert.equal(verdictText(blocked, report({ c: 'broken' })), 'blocked (dependency a failed)');
  });

  test('the diagnostic message is "[id] title — verdict: excerpt"', () => {
    assert.equal(
      violationMessage(result('clamp', 'fail', NODE_TEST_FAILURE), 'clamp keeps values', undefined, 2),
      '[clamp] clamp keeps values — fail: not ok 1 - clamp keeps values inside the bounds\nerror: clamp(15, 0, 10) must be 10',
    );
  });

  test('the status bar text counts passes, then broken, the other failures, flaky and not run, each once', () => {
    const results = [result('a', 'pass'), result('b', 'fail'), result('c', 'error'), result('d', 'pass')];
    assert.equal(
      statusText(countResults(results, report({ b: 'broken' }))),
      'Weave 2/4 · 1 broken · 1 failing',
    );
    assert.equal(statusText(countResults(results, undefined)), 'Weave 2/4 · 2 failing');
    assert.equal(statusText(countResults([result('a', 'pass')], undefined)), 'Weave 1/1');
    // A spec added since the last check counts in the total, as unchecked (the panel counts it so too).
    assert.equal(statusText(countResults([result('a', 'pass')], undefined, 2)), 'Weave 1/2 · 1 unchecked');
    // The repository: 5 pass, 1 broken, 4 fail and 1 blocked of 11.
    const eleven = [
      ...['p1', 'p2', 'p3', 'p4', 'p5'].map((id) => result(id, 'pass')),
      result('br', 'fail'),
      ...['f1', 'f2', 'f3', 'f4'].map((id) => result(id, 'fail')),
      result('bl', 'blocked', '', 'blocked by br (br: fail)'),
    ];
    assert.equal(
      statusText(countResults(eleven, report({ br: 'broken', bl: 'broken' }))),
      'Weave 5/11 · 1 broken · 5 failing',
    );
    const mixed = [result('a', 'flaky'), result('b', 'skipped'), result('c', 'pass')];
    assert.equal(statusText(countResults(mixed, report({ a: 'broken' }))), 'Weave 1/3 · 1 flaky · 1 not run');
  });

  test('the tooltip lists a broken spec under "broken" only, and each other group under its verdict', () => {
    const results = [
      result('br', 'fail'),
      result('f', 'fail'),
      result('e', 'error'),
      result('bl', 'blocked'),
      result('fl', 'flaky'),
      result('n', 'skipped'),
      result('p', 'pass'),
    ];
    assert.equal(
      verdictSummary(results, report({ br: 'broken', bl: 'broken', fl: 'broken' })),
      'broken: br\nfail: f\nerror: e\nflaky: fl\nblocked: bl\nnot run: n\npass: p',
    );
  });

  test("a run's age in words", () => {
    const now = new Date('2026-12-01T12:00:00.000Z');
    assert.equal(ageText('2026-12-01T11:59:30.000Z', now), 'just now');
    assert.equal(ageText('2026-12-01T11:48:00.000Z', now), '12 min ago');
    assert.equal(ageText('2026-12-01T09:00:00.000Z', now), '3 h ago');
    assert.equal(ageText('2026-11-28T12:00:00.000Z', now), '3 days ago');
  });

  test('marks passes that rest on the exit code alone, wherever a pass is shown', () => {
    const unverified: SpecResult = {
      ...result('plain', 'pass', '', 'unverified: no test result seen'),
      evidence: 'exit-code',
    };
    const verified = result('suite', 'pass');
    assert.equal(verdictText(unverified, undefined), 'pass (unverified: no test result seen)');
    assert.equal(verdictText(verified, undefined), 'pass');
    assert.equal(testItemDescription(unverified, 'Plain rule'), 'Plain rule · unverified');
    assert.equal(testItemDescription(verified, 'Suite rule'), 'Suite rule');
    assert.equal(verdictSummary([verified, unverified]), 'pass: suite, plain (unverified)');
  });
});

test('the status bar line after Explain broken spec has no raw backticks', () => {
  assert.equal(
    blameStatusText(
      ['the edit to `LruCache.get` (src/cache.js:42-43), made for `cache-hit`, breaks `no-stale-read`'],
      'no-stale-read',
    ),
    'Weave: the edit to LruCache.get (src/cache.js:42-43), made for cache-hit, breaks no-stale-read',
  );
  assert.equal(blameStatusText([], 'no-stale-read'), 'Weave: no single edit explains no-stale-read');
});
