// The interaction matrix on the demo: each spec solved alone and all together, in parallel worktrees. The
// scripted "agent" fixes no-secret-caching alone by switching the cache off (which breaks cache-hit), and
// all together in a way that breaks no-stale-read: the matrix must show both interactions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matrixFrom, runMatrix } from '../../../src/core/agent/matrix';
import type { AgentRunResult } from '../../../src/core/agent/agentRunResult';
import type { SpecResult } from '../../../src/core/check/types';
import { formatMatrix } from '../../../src/cli/output/matrixTable';
import { matrixConclusion } from '../../../src/core/agent/matrixConclusion';
import { escapeHtml, renderMatrixHtml } from '../../../src/extension/views/matrixHtml';
import type { Script, ScriptStep } from '../../support/scriptedOpenAiServer';
import { fingerprint } from '../../support/demoWorkspace';
import { disableCacheSteps, finishOnlySteps, fixSecretCachingSteps } from './demoScripts';
import { assertNothingLeftBehind, harness } from './harness';

const keepHotEntriesAlive: ScriptStep = {
  kind: 'tools',
  calls: [
    {
      name: 'edit',
      arguments: {
        path: 'src/cache.js',
        search: '    // Touch: move the key to the most recently used end.\n',
        replace:
          '    // Touch: move the key to the most recently used end, and keep hot entries alive for another TTL.\n' +
          '    entry.expiresAt = this.now() + this.ttlMs;\n',
      },
    },
  ],
};

function solving(target: string, steps: ScriptStep[]): Script {
  return { matches: (k) => k.includes(`\n\nTarget: ${target}`), steps };
}

test('the matrix shows "solving i broke j" and "satisfiable alone, not together"', async () => {
  const fix = fixSecretCachingSteps();
  const h = await harness([
    solving('spec no-secret-caching alone', disableCacheSteps()),
    solving('all specs together', [keepHotEntriesAlive, ...fix.slice(1)]),
    { matches: (k) => k.includes('\n\nTarget: spec '), steps: finishOnlySteps() },
  ]);
  try {
    const userTreeBefore = fingerprint(h.repo.workspace);
    const progressTargets = new Set<string>();
    const matrix = await runMatrix({
      ...h.options(),
      concurrency: 4,
      onProgress: (e) => progressTargets.add(e.target),
    });
    const ids = h.specFile.specs.map((s) => s.id);
    assert.deepEqual(matrix.specIds, ids);
    assert.deepEqual(new Set(matrix.runs.map((r) => r.target)), new Set([...ids, 'all']));
    assert.deepEqual(progressTargets, new Set([...ids, 'all']));
    assert.ok(matrix.runs.every((r) => r.stopReason === 'finished'));

    assert.equal(matrix.before['no-secret-caching'], 'fail');
    assert.equal(matrix.alone['no-secret-caching']!['no-secret-caching'], 'pass', 'solved alone');
    assert.equal(
      matrix.alone['no-secret-caching']!['cache-hit'],
      'fail',
      'switching the cache off breaks cache-hit',
    );
    assert.equal(matrix.alone['cache-hit']!['cache-hit'], 'pass');
    assert.ok(
      matrix.brokeBy.some((b) => b.solved === 'no-secret-caching' && b.broke === 'cache-hit'),
      JSON.stringify(matrix.brokeBy),
    );
    assert.ok(
      matrix.brokeBy.every((b) => b.solved === 'no-secret-caching'),
      'the no-op runs broke nothing',
    );

    assert.equal(matrix.together['no-secret-caching'], 'pass');
    assert.equal(matrix.together['no-stale-read'], 'fail');
    assert.deepEqual(matrix.aloneNotTogether, ['no-stale-read']);
    assert.ok(matrix.unsolvedTogether.includes('no-stale-read'));
    assert.ok(
      matrix.inconclusive.some((r) => r.target === 'all' && /without making .*no-stale-read/.test(r.reason)),
      JSON.stringify(matrix.inconclusive),
    );

    const table = formatMatrix(matrix);
    assert.match(table, /solving no-secret-caching broke cache-hit/);
    assert.match(table, /no-stale-read: satisfiable alone, not together/);
    assert.match(table, /^all together {4}/m);
    assert.match(table, /Not satisfied together \(even by the all-together run\): .*no-stale-read/);

    assert.equal(fingerprint(h.repo.workspace), userTreeBefore);
    await assertNothingLeftBehind(h.repo);
  } finally {
    await h.close();
  }
});

// Issue #25 item 5: every run finishes having changed nothing, so the spec failing before stays failing alone.
// The terminal table and the editor's tab must say the same, and neither may give the all-clear.
test('a matrix whose runs changed nothing says "Inconclusive" in the table and the tab alike', async () => {
  const h = await harness([{ matches: (k) => k.includes('\n\nTarget: '), steps: finishOnlySteps() }]);
  try {
    const matrix = await runMatrix({ ...h.options(), concurrency: 4 });
    assert.ok(matrix.runs.every((r) => r.stopReason === 'finished' && r.changedFiles.length === 0));
    assert.equal(matrix.before['no-secret-caching'], 'fail');
    assert.equal(matrix.alone['no-secret-caching']!['no-secret-caching'], 'fail', 'still failing alone');
    const conclusion = matrixConclusion(matrix);
    assert.equal(conclusion.kind, 'inconclusive');
    const table = formatMatrix(matrix);
    const html = renderMatrixHtml(matrix);
    assert.ok(table.includes(conclusion.sentence), table);
    assert.ok(html.includes(`<strong>Inconclusive:</strong> ${escapeHtml(conclusion.text)}`), html);
    for (const face of [table, html])
      assert.doesNotMatch(face, /None: no spec broke another|No spec broke another/);
    await assertNothingLeftBehind(h.repo);
  } finally {
    await h.close();
  }
});

test('a matrix whose solo runs solved nothing is inconclusive, never "no spec broke another"', () => {
  const result = (target: AgentRunResult['target'], stopReason: AgentRunResult['stopReason']) =>
    ({
      target,
      stopReason,
      error: stopReason === 'step-budget' ? 'stopped after 3 steps (step budget)' : undefined,
      after: [
        { id: 'a', verdict: 'fail' },
        { id: 'b', verdict: 'pass' },
      ],
      runId: 'r',
      steps: 3,
      durationMs: 1,
      changedFiles: [],
      trajectoryFile: 't',
      findings: [],
    }) as unknown as AgentRunResult;
  const before = [
    { id: 'a', verdict: 'fail' },
    { id: 'b', verdict: 'pass' },
  ] as SpecResult[];
  const matrix = matrixFrom(
    ['a', 'b'],
    before,
    [
      result({ kind: 'spec', id: 'a' }, 'step-budget'),
      result({ kind: 'spec', id: 'b' }, 'finished'),
      result({ kind: 'all' }, 'step-budget'),
    ],
    10,
  );
  assert.deepEqual(
    matrix.inconclusive.map((r) => r.target),
    ['a', 'all'],
  );
  assert.deepEqual(matrix.unsolvedTogether, ['a']);
  const table = formatMatrix(matrix);
  assert.doesNotMatch(table, /No spec broke another/);
  assert.match(table, /Inconclusive: 1 of 2 solo runs did not solve their spec/);
  assert.match(table, /run a: step-budget: stopped after 3 steps/);
});
