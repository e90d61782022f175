// The deterministic review checks, on hand-written diffs and trajectories.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { reviewDeterministic, type ReviewFinding } from '../../../src/core/agent/deterministicReview';
import type { TimedEvent } from '../../../src/core/agent/trajectory';
import { parseUnifiedDiff } from '../../../src/core/agent/unifiedDiff';
import { specFileSchema } from '../../../src/shared/specSchema';

const specFile = specFileSchema.parse({
  version: 1,
  specs: [
    {
      id: 'no-secret-caching',
      title: 't',
      kind: 'security',
      statement: 's',
      test: { command: 'node --test test/secret.test.js', files: ['test/secret.test.js'] },
    },
  ],
});
const testFiles = new Map([
  [
    'test/secret.test.js',
    'assert.equal(res.body, \'{"user":"anonymous"}\');\nassert.equal(stats.hitRate, 0.5625);\nassert.equal(res.status, 404);\n',
  ],
]);

function diff(file: string, removed: string[], added: string[], header = ''): string {
  return (
    `diff --git a/${file} b/${file}\n${header}--- a/${file}\n+++ b/${file}\n@@ -10,${removed.length + 1} +10,${added.length + 1} @@\n` +
    ' context\n' +
    removed.map((l) => `-${l}\n`).join('') +
    added.map((l) => `+${l}\n`).join('')
  );
}

function review(patch: string, events: TimedEvent[] = []): ReviewFinding[] {
  return reviewDeterministic({ patch, events, specFile, testFiles });
}

const checks = (findings: ReviewFinding[]) => findings.map((f) => f.check);

describe('deterministic review', () => {
  test('a clean source change has no findings', () => {
    assert.deepEqual(review(diff('src/client.js', ['  return x;'], ['  return y;'])), []);
  });

  test("a file the specs load (the run's protected set, observed part included) is protected; without it, source", () => {
    const patch = diff(
      'support/helpers.js',
      ['  return require("../src/gate");'],
      ['  return { open: true };'],
    );
    assert.deepEqual(review(patch), [], 'by name, support/helpers.js is source');
    const loaded = {
      files: new Map([
        ['support/helpers.js', 'its test process loaded it before the first test (spec no-secret-caching)'],
      ]),
      keys: new Map(),
      unknown: [],
    };
    const findings = reviewDeterministic({ patch, events: [], specFile, testFiles, loaded });
    assert.deepEqual(checks(findings), ['protected-file-changed']);
    assert.equal(findings[0]!.severity, 'error');
    assert.match(findings[0]!.message, /a file the spec tests load: its test process loaded it/);
  });

  test('a changed protected test file is an error, and removed assertions in it too', () => {
    const findings = review(diff('test/secret.test.js', ['  assert.equal(client.cache.size, 0);'], []));
    assert.deepEqual(checks(findings), ['protected-file-changed', 'assertion-weakened']);
    assert.equal(findings[0]!.specId, 'no-secret-caching');
    assert.equal(findings[1]!.severity, 'error');
  });

  test('skipped or focused tests are flagged wherever they are added', () => {
    for (const line of [
      "test.skip('caches', async () => {",
      // Spelled in two parts so repository checks for a forgotten focused test don't trip over this sample.
      'it' + ".only('x', () => {})",
      "test('slow', { skip: 'flaky' }, () => {})",
      '@pytest.mark.skip(reason="later")',
      "xit('x', () => {})",
    ]) {
      const findings = review(diff('test/other.test.js', [], [line]));
      assert.ok(checks(findings).includes('test-skipped'), line);
    }
  });

  test('deleted test files and removed test cases are flagged', () => {
    const deleted =
      'diff --git a/test/old.test.js b/test/old.test.js\ndeleted file mode 100644\n--- a/test/old.test.js\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-test("a", () => {});\n-assert.ok(true);\n';
    assert.ok(checks(review(deleted)).includes('test-deleted'));
    const removedCase = diff('tests/test_cache.py', ['def test_hit():', '    assert cache.hit'], []);
    assert.deepEqual(checks(review(removedCase)), ['test-deleted', 'assertion-weakened']);
  });

  test('assertion lines removed from code are a warning', () => {
    const findings = review(diff('src/cache.js', ['  assert(bytes >= 0);'], []));
    assert.deepEqual(
      findings.map((f) => [f.check, f.severity, f.line]),
      [['assertion-weakened', 'warning', 11]],
    );
  });

  test('edits to configuration and Weave state are flagged', () => {
    assert.deepEqual(checks(review(diff('package.json', ['"test": "node --test"'], ['"test": "true"']))), [
      'edit-outside-code',
    ]);
    assert.deepEqual(checks(review(diff('.weave/specs.json', ['a'], ['b']))), ['protected-file-changed']);
  });

  test('literals from test assertions newly hard-coded in source are flagged', () => {
    const findings = review(
      diff(
        'src/client.js',
        ['  return compute();'],
        ['  if (url === \'/me\') return \'{"user":"anonymous"}\';', '  const rate = 0.5625;'],
      ),
    );
    assert.deepEqual(checks(findings), ['copied-expectation', 'copied-expectation']);
    assert.equal(findings[0]!.specId, 'no-secret-caching');
    assert.equal(findings[1]!.line, 12);
    // A literal already in the code before the change, and HTTP status numbers, are not flagged.
    assert.deepEqual(
      review(diff('src/client.js', ['  x = 0.5625;'], ['  y = 0.5625;', '  if (s === 404) {}'])),
      [],
    );
  });

  test('refused attempts in the trajectory are flagged once per path', () => {
    const event = (refused: 'protected' | 'outside', path: string): TimedEvent => ({
      type: 'tool',
      step: 1,
      callId: 'c',
      name: 'edit',
      arguments: '{}',
      ok: false,
      refused,
      path,
      result: 'Refused',
      durationMs: 0,
      at: '',
      elapsedMs: 0,
    });
    const findings = review('', [
      event('protected', 'test/secret.test.js'),
      event('protected', 'test/secret.test.js'),
      event('outside', '../../etc/passwd'),
    ]);
    assert.deepEqual(checks(findings), ['protected-edit-attempted', 'path-escape-attempted']);
    assert.equal(findings[0]!.specId, 'no-secret-caching');
  });

  test('the diff reader tracks line numbers, additions and deletions', () => {
    const files = parseUnifiedDiff(diff('a.js', ['old'], ['new', 'newer']));
    assert.deepEqual(files[0]!.removed, [{ line: 11, text: 'old' }]);
    assert.deepEqual(files[0]!.added, [
      { line: 11, text: 'new' },
      { line: 12, text: 'newer' },
    ]);
  });
});
