// Runs, the run store and baselines on a real temp git repository: broken / fixed against the latest clean run
// and against --baseline-ref (run in a worktree, the user's tree left byte-identical).
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { compareToBaseline } from '../../../src/core/check/baseline';
import { checkWorkspace } from '../../../src/core/fullCheck/checkWorkspace';
import {
  MAX_STORED_RUNS,
  latestCleanRun,
  listRuns,
  newRunId,
  saveRun,
} from '../../../src/core/check/runStore';
import type { RunRecord, SpecResult, Verdict } from '../../../src/core/check/types';
import { SpecLoadError } from '../../../src/core/spec/problems';
import { gitIn, makeRepo, snapshot, writeFiles } from '../../support/gitRepo';

const cleanup: string[] = [];
after(async () => {
  await Promise.all(cleanup.map((d) => fs.rm(d, { recursive: true, force: true })));
});

const specs = {
  version: 1,
  specs: [
    {
      id: 'lib-good',
      title: 'lib is good',
      kind: 'functional',
      statement: 'lib.txt says good',
      test: { command: 'grep -q good lib.txt && echo "1 passed, 0 failed"', files: ['test-lib.sh'] },
    },
    {
      id: 'feature',
      title: 'feature exists',
      kind: 'functional',
      statement: 'feature.txt exists',
      test: { command: 'test -f feature.txt' },
    },
    {
      id: 'needs-lib',
      title: 'depends on lib',
      kind: 'interface',
      statement: 'x',
      test: { command: 'true' },
      dependsOn: ['lib-good'],
    },
  ],
};

async function workspace(): Promise<string> {
  const repo = await makeRepo({
    'app/.weave/specs.json': JSON.stringify(specs, null, 2),
    'app/lib.txt': 'good\n',
    'README.md': 'the workspace is app/\n',
  });
  cleanup.push(repo);
  return path.join(repo, 'app');
}

const verdicts = (results: SpecResult[]): Record<string, Verdict> =>
  Object.fromEntries(results.map((r) => [r.id, r.verdict]));

describe('checkWorkspace', () => {
  it('records runs and reports broken / fixed against the latest clean run', async () => {
    const ws = await workspace();
    const first = await checkWorkspace({ workspaceDir: ws });
    assert.equal(first.run.clean, true);
    assert.equal(first.run.commit, gitIn(ws, 'rev-parse', 'HEAD').trim());
    assert.deepEqual(verdicts(first.run.results), {
      'lib-good': 'pass',
      feature: 'fail',
      'needs-lib': 'pass',
    });
    assert.equal(first.report.baseline, null);
    // The first check leaves a clean tree clean: runs are ignored through the repository's exclude file
    // (scoped to the workspace, a subfolder here), not by a new untracked .weave/.gitignore.
    assert.equal(gitIn(ws, 'status', '--porcelain', '--untracked-files=all'), '', 'the tree stays clean');
    await assert.rejects(fs.access(path.join(ws, '.weave/.gitignore')));
    const exclude = path.resolve(ws, gitIn(ws, 'rev-parse', '--git-common-dir').trim(), 'info/exclude');
    assert.match(await fs.readFile(exclude, 'utf8'), /^\/app\/\.weave\/runs\/$/m);

    // Break lib, fix feature: uncommitted changes.
    await writeFiles(ws, { 'lib.txt': 'bad\n', 'feature.txt': 'here\n' });
    const second = await checkWorkspace({ workspaceDir: ws });
    assert.equal(second.run.clean, false);
    assert.deepEqual(verdicts(second.run.results), {
      'lib-good': 'fail',
      feature: 'pass',
      'needs-lib': 'blocked',
    });
    assert.deepEqual(second.report.baseline, { runId: first.run.id, commit: first.run.commit });
    assert.deepEqual(second.report.changes, {
      'lib-good': 'broken',
      feature: 'fixed',
      'needs-lib': 'broken',
    });
    assert.deepEqual(second.report.PASS_TO_FAIL, ['lib-good', 'needs-lib']);
    assert.deepEqual(second.report.FAIL_TO_PASS, ['feature']);

    // The dirty run is not a baseline: a third run still compares with the first.
    const third = await checkWorkspace({ workspaceDir: ws, record: false });
    assert.equal(third.report.baseline?.runId, first.run.id);
    assert.equal(third.savedTo, undefined);
    assert.deepEqual(
      (await listRuns(ws)).map((r) => r.id),
      [second.run.id, first.run.id],
    );
  });

  it('with baselineRef runs the specs in a worktree of REF and leaves the user tree byte-identical', async () => {
    const ws = await workspace();
    await writeFiles(ws, { 'lib.txt': 'bad\n', 'feature.txt': 'here\n', 'test-lib.sh': 'new test file\n' });
    const before = await snapshot(path.dirname(ws));
    const phases = new Set<string>();
    const result = await checkWorkspace({
      workspaceDir: ws,
      baselineRef: 'HEAD',
      record: false,
      onProgress: (e) => phases.add(e.phase),
    });
    assert.deepEqual(await snapshot(path.dirname(ws)), before);
    assert.deepEqual([...phases].sort(), ['baseline', 'current']);
    assert.deepEqual(result.report.baseline, {
      runId: null,
      commit: gitIn(ws, 'rev-parse', 'HEAD').trim(),
      ref: 'HEAD',
    });
    assert.deepEqual(verdicts(result.baselineRun?.results ?? []), {
      'lib-good': 'pass',
      feature: 'fail',
      'needs-lib': 'pass',
    });
    assert.deepEqual(result.report.changes, {
      'lib-good': 'broken',
      feature: 'fixed',
      'needs-lib': 'broken',
    });
    assert.equal(gitIn(ws, 'worktree', 'list', '--porcelain').match(/^worktree /gm)?.length, 1);
  });

  it('does not record a cancelled run', async () => {
    const ws = await workspace();
    const controller = new AbortController();
    controller.abort();
    const result = await checkWorkspace({ workspaceDir: ws, signal: controller.signal, baselineRef: 'HEAD' });
    assert.deepEqual(
      result.run.results.map((r) => r.verdict),
      ['skipped', 'skipped', 'skipped'],
    );
    assert.equal(result.savedTo, undefined);
    assert.equal(result.baselineRun, null);
    assert.deepEqual(await listRuns(ws), []);
  });

  it('throws SpecLoadError with located problems for a bad spec file', async () => {
    const ws = await workspace();
    await writeFiles(ws, { '.weave/specs.json': '{ "version": 1, "specs": [ { "id": "Bad Id" } ] }' });
    const error = await checkWorkspace({ workspaceDir: ws }).catch((e: unknown) => e);
    assert.ok(error instanceof SpecLoadError);
    assert.ok(error.problems.length > 0);
    assert.ok(error.problems.every((p) => p.line >= 1 && p.file.endsWith('specs.json')));
  });
});

function run(id: string, clean: boolean, results: Array<[string, Verdict]>): RunRecord {
  return {
    id,
    startedAt: '2026-11-30T00:00:00.000Z',
    finishedAt: '2026-11-30T00:00:01.000Z',
    commit: 'abc',
    clean,
    specIds: results.map(([i]) => i),
    results: results.map(([i, verdict]) => ({
      id: i,
      kind: 'functional',
      verdict,
      exitCode: 0,
      signal: null,
      durationMs: 1,
      evidence: 'runner',
      output: 'x'.repeat(40_000),
      truncatedBytes: 0,
    })),
  };
}

describe('run store', () => {
  it('keeps the newest runs, stores output excerpts, and finds the latest clean run covering the specs', async () => {
    const ws = await workspace();
    for (let i = 0; i < MAX_STORED_RUNS + 3; i++) {
      const id = `2026-11-30T00-00-${String(i).padStart(2, '0')}-000Z-0000`;
      await saveRun(
        ws,
        run(id, i % 2 === 0, [['a', 'pass'], ...(i === 50 ? [] : [['b', 'fail'] as [string, Verdict]])]),
      );
    }
    const runs = await listRuns(ws);
    assert.equal(runs.length, MAX_STORED_RUNS);
    assert.equal(runs[0]?.id, '2026-11-30T00-00-52-000Z-0000');
    assert.ok((runs[0]?.results[0]?.output.length ?? 0) < 20_000);
    assert.ok((runs[0]?.results[0]?.truncatedBytes ?? 0) > 20_000);
    // Run 52 is clean and covers a and b.
    assert.equal((await latestCleanRun(ws, ['a', 'b']))?.id, '2026-11-30T00-00-52-000Z-0000');
    await fs.writeFile(path.join(ws, '.weave/runs/zzzz-broken.json'), '{ not json');
    assert.equal((await listRuns(ws)).length, MAX_STORED_RUNS, 'unreadable files are ignored');
    assert.match(newRunId(new Date('2026-11-30T05:40:20.123Z')), /^2026-11-30T05-40-20-123Z-[0-9a-f]{4}$/);
  });
});

describe('compareToBaseline', () => {
  it('counts error, blocked and flaky as failing, skipped and new specs in no list', () => {
    const base = run('b', true, [
      ['p-e', 'pass'],
      ['f-p', 'error'],
      ['p-b', 'pass'],
      ['b-b', 'blocked'],
      ['p-s', 'pass'],
      ['p-fl', 'pass'],
    ]);
    const now = run('c', false, [
      ['p-e', 'error'],
      ['f-p', 'pass'],
      ['p-b', 'blocked'],
      ['b-b', 'fail'],
      ['p-s', 'skipped'],
      ['p-fl', 'flaky'],
      ['new', 'pass'],
    ]);
    const report = compareToBaseline(now, base);
    assert.deepEqual(report.changes, {
      'p-e': 'broken',
      'f-p': 'fixed',
      'p-b': 'broken',
      'b-b': 'still-failing',
      'p-s': 'other',
      'p-fl': 'broken',
      new: 'new',
    });
    assert.deepEqual(report.PASS_TO_FAIL, ['p-e', 'p-b', 'p-fl']);
    assert.deepEqual(report.FAIL_TO_PASS, ['f-p']);
    assert.deepEqual(report.FAIL_TO_FAIL, ['b-b']);
    assert.deepEqual(report.PASS_TO_PASS, []);
    const none = compareToBaseline(now, null);
    assert.equal(none.baseline, null);
    assert.ok(Object.values(none.changes).every((c) => c === 'new'));
  });
});
