// The interaction matrix on the demo: each spec solved alone and all together, in parallel worktrees. The
// scripted "agent" fixes no-secret-caching alone by switching the cache off (which breaks cache-hit), and
// all together in a way that breaks no-stale-read: the matrix must show both interactions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runMatrix } from '../../../src/core/agent/matrix';
import { formatMatrix } from '../../../src/core/agent/matrixTable';
import type { Script, ScriptStep } from '../../support/scriptedOpenAiServer';
import { fingerprint } from './demoWorkspace';
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

    const table = formatMatrix(matrix);
    assert.match(table, /solving no-secret-caching broke cache-hit/);
    assert.match(table, /no-stale-read: satisfiable alone, not together/);
    assert.match(table, /^all together {4}/m);

    assert.equal(fingerprint(h.repo.workspace), userTreeBefore);
    await assertNothingLeftBehind(h.repo);
  } finally {
    await h.close();
  }
});
