import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { BlameError, blameSpec, type BlameOptions } from '../../../src/core/blame/blame';
import { indexWorkspace } from '../../../src/core/anchors/anchoredWorkspace';
import { saveRun } from '../../../src/core/check/runStore';
import { copyWorkspace, examplesDir, git, initRepo, removeDir, snapshot } from '../../support/repos';

let dir: string;
let base: string;
beforeEach(() => {
  dir = copyWorkspace(examplesDir);
  base = initRepo(dir);
});
afterEach(() => removeDir(dir));

const options = (extra: Partial<BlameOptions> & { specId: string }): BlameOptions => ({
  workspaceDir: dir,
  loadIndex: (d) => indexWorkspace(d, { useCache: false }),
  ...extra,
});

async function blameError(promise: Promise<unknown>, code: string): Promise<BlameError> {
  let caught: unknown;
  await promise.catch((e: unknown) => (caught = e));
  assert.ok(caught instanceof BlameError, `expected BlameError ${code}, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  return caught;
}

void test('break-staleness.patch: blame finds the hunk in LruCache.get, made for cache-hit, without touching the tree', async () => {
  git(dir, 'apply', 'patches/break-staleness.patch');
  const before = snapshot(dir);
  const statusBefore = git(dir, 'status', '--porcelain');
  const progress: string[] = [];
  const result = await blameSpec(
    options({
      specId: 'no-stale-read',
      baselineRef: 'HEAD',
      onProgress: (p) => progress.push(`${p.applied}/${p.total}:${p.verdict}`),
    }),
  );
  assert.equal(result.baseline.commit, base);
  assert.equal(result.totalHunks, 2);
  assert.equal(result.minimal, true);
  assert.equal(result.brokenVerdict, 'fail');
  assert.equal(result.hunks.length, 1);
  const [hunk] = result.hunks;
  assert.equal(hunk!.file, 'src/cache.js');
  const patched = fs.readFileSync(path.join(dir, 'src/cache.js'), 'utf8').split('\n');
  const added = patched.findIndex((l) => l.includes('entry.expiresAt = this.now() + this.ttlMs;')) + 1;
  const location = `src/cache.js:${added - 1}-${added}`;
  assert.equal(hunk!.location, location);
  assert.match(hunk!.diff, /\+ {4}entry\.expiresAt = this\.now\(\) \+ this\.ttlMs;/);
  assert.deepEqual(hunk!.symbols, ['LruCache.get']);
  assert.deepEqual(hunk!.anchoredBy, ['cache-hit']);
  assert.deepEqual(result.explanation, [
    `the edit to \`LruCache.get\` (${location}), made for \`cache-hit\`, breaks \`no-stale-read\``,
  ]);
  // All hunks fail, none passes, then ddmin halves: the staleness hunk alone fails.
  assert.deepEqual(progress.slice(0, 3), ['2/2:fail', '0/2:pass', '1/2:fail']);
  assert.equal(result.runs, progress.length);

  assert.deepEqual(snapshot(dir), before);
  assert.equal(git(dir, 'status', '--porcelain'), statusBefore);
  assert.equal(git(dir, 'worktree', 'list').trim().split('\n').length, 1);
});

void test('the baseline defaults to the commit of the latest clean recorded run', async () => {
  const now = new Date().toISOString();
  await saveRun(dir, {
    id: '2026-11-30T00-00-00-000Z-test',
    startedAt: now,
    finishedAt: now,
    commit: base,
    clean: true,
    specIds: [],
    results: [],
  });
  git(dir, 'apply', 'patches/break-staleness.patch');
  const result = await blameSpec(options({ specId: 'no-stale-read' }));
  assert.equal(result.baseline.commit, base);
  assert.equal(result.baseline.runId, '2026-11-30T00-00-00-000Z-test');
  assert.deepEqual(
    result.hunks.map((h) => h.symbols),
    [['LruCache.get']],
  );
});

void test('a spec that still passes is not broken; one that failed on the baseline too is not either', async () => {
  git(dir, 'apply', 'patches/break-staleness.patch');
  const notBroken = await blameError(
    blameSpec(options({ specId: 'cache-hit', baselineRef: 'HEAD' })),
    'not-broken',
  );
  assert.match(notBroken.message, /cache-hit passes with every change applied/);
  const already = await blameError(
    blameSpec(options({ specId: 'no-secret-caching', baselineRef: 'HEAD' })),
    'fails-on-baseline',
  );
  assert.match(already.message, /does not pass on the baseline [0-9a-f]{12} either \(fail\)/);
});

void test('an empty diff, a missing baseline, an unknown spec: clear errors before any run', async () => {
  const empty = await blameError(
    blameSpec(options({ specId: 'no-stale-read', baselineRef: 'HEAD' })),
    'empty-diff',
  );
  assert.match(empty.message, /nothing changed between the baseline [0-9a-f]{12} and the working tree/);
  const missing = await blameError(
    blameSpec(options({ specId: 'no-stale-read', baselineRef: 'v9-nope' })),
    'baseline-missing',
  );
  assert.match(missing.message, /baseline v9-nope does not exist/);
  const none = await blameError(blameSpec(options({ specId: 'no-stale-read' })), 'no-baseline');
  assert.match(none.message, /pass --baseline-ref REF/);
  const unknown = await blameError(
    blameSpec(options({ specId: 'no-such-spec', baselineRef: 'HEAD' })),
    'unknown-spec',
  );
  assert.match(unknown.message, /unknown spec id 'no-such-spec' \(specs: response-shape, cache-hit/);
});

void test('the run budget bounds the probes; an abort stops blame and leaves no worktree behind', async () => {
  git(dir, 'apply', 'patches/break-staleness.patch');
  const bounded = await blameSpec(options({ specId: 'no-stale-read', baselineRef: 'HEAD', maxRuns: 2 }));
  assert.equal(bounded.runs, 2);
  assert.equal(bounded.minimal, false);
  assert.equal(bounded.hunks.length, 2);

  const before = snapshot(dir);
  const controller = new AbortController();
  const cancelled = blameSpec(
    options({
      specId: 'no-stale-read',
      baselineRef: 'HEAD',
      signal: controller.signal,
      onProgress: () => controller.abort(),
    }),
  );
  await blameError(cancelled, 'cancelled');
  assert.deepEqual(snapshot(dir), before);
  assert.equal(git(dir, 'worktree', 'list').trim().split('\n').length, 1);
});
