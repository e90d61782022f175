// The verified ranking's rules on hand-made candidates: the order (usable first, strict, specs passed, then the
// tie-breaks: fewer broken constraints, smaller patch, earlier candidate), the Pareto set when none dominates,
// the best per kind, what a tampered run counts as, the judgement measures, and `--apply best` parsing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentRunResult } from '../../../src/core/agent/agentRunResult';
import {
  bestByKind,
  paretoSet,
  patchLineCounts,
  rankOrder,
  summarizeCandidate,
  type CandidateSummary,
} from '../../../src/core/agent/candidateRanking';
import { judgePick, measureJudgement } from '../../../src/core/agent/judgement';
import { takeApplyBest } from '../../../src/cli/commands/agentCandidates';
import type { SpecFile, SpecKind } from '../../../src/shared/specSchema';

const KINDS: Record<string, SpecKind> = { sec: 'security', perf: 'performance', api: 'interface' };

function cand(
  index: number,
  after: Record<string, 'pass' | 'fail' | 'tampered'>,
  extra: Partial<CandidateSummary> = {},
): CandidateSummary {
  const specs = Object.entries(after).map(([id, verdict]) => ({
    id,
    kind: KINDS[id]!,
    before: 'pass' as const,
    after: verdict,
  }));
  const passed = specs.filter((s) => s.after === 'pass').length;
  return {
    index,
    label: `c${index}`,
    source: { kind: 'model', model: 'm', seed: index },
    runId: `r${index}`,
    runDir: '',
    trajectoryFile: '',
    patchFile: '',
    stopReason: 'finished',
    strict: passed === specs.length,
    specsPassed: passed,
    specs,
    broken: specs.filter((s) => s.after === 'fail').map((s) => s.id),
    fixed: [],
    tampered: false,
    findings: [],
    patch: { files: ['a.js'], linesAdded: 1, linesRemoved: 0 },
    steps: 1,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    costUsd: null,
    durationMs: 1,
    ...extra,
  };
}

describe('candidate ranking', () => {
  it('puts usable before disqualified, then strict, then specs passed', () => {
    const all = cand(1, { sec: 'pass', perf: 'pass', api: 'pass' }, { disqualified: 'refused (tampered)' });
    const two = cand(2, { sec: 'pass', perf: 'fail', api: 'pass' });
    const strict = cand(3, { sec: 'pass', perf: 'pass', api: 'pass' });
    const one = cand(4, { sec: 'fail', perf: 'fail', api: 'pass' });
    assert.deepEqual(rankOrder([all, two, strict, one]), [3, 2, 4, 1]);
  });

  it('breaks ties by fewer broken constraints, then the smaller patch, then the earlier candidate', () => {
    // Same number of passes; cand-1 broke one constraint the others did not have passing before.
    const brokeOne = cand(1, { sec: 'pass', perf: 'fail' });
    const failedAlready = cand(2, { sec: 'pass', perf: 'fail' }, { broken: [] });
    const bigPatch = cand(
      3,
      { sec: 'pass', perf: 'fail' },
      {
        broken: [],
        patch: { files: [], linesAdded: 30, linesRemoved: 4 },
      },
    );
    const sameAsTwo = cand(4, { sec: 'pass', perf: 'fail' }, { broken: [] });
    assert.deepEqual(rankOrder([brokeOne, failedAlready, bigPatch, sameAsTwo]), [2, 4, 3, 1]);
  });

  it('the Pareto set holds every candidate no other usable one dominates, in rank order', () => {
    const secure = cand(1, { sec: 'pass', perf: 'fail', api: 'pass' });
    const fast = cand(2, { sec: 'fail', perf: 'pass', api: 'pass' });
    const worse = cand(3, { sec: 'fail', perf: 'pass', api: 'fail' });
    const cheater = cand(4, { sec: 'pass', perf: 'pass', api: 'pass' }, { disqualified: 'x' });
    const list = [secure, fast, worse, cheater];
    const order = rankOrder(list);
    assert.deepEqual(paretoSet(list, order), [1, 2], 'secure and fast trade off; worse is dominated by fast');
    const best = bestByKind(list, order);
    assert.deepEqual(best.security, { candidate: 1, passed: 1, total: 1 });
    assert.deepEqual(best.performance, { candidate: 2, passed: 1, total: 1 }, 'the disqualified one never');
    assert.deepEqual(best.interface, { candidate: 1, passed: 1, total: 1 }, 'rank order among equals');
  });

  it('a run whose specs tampered counts them tampered (not passing, not broken) and is disqualified', () => {
    const specFile = {
      version: 1,
      goal: 'g',
      specs: [
        { id: 'sec', kind: 'security', test: { files: [] } },
        { id: 'perf', kind: 'performance', test: { files: [] } },
      ],
    } as unknown as SpecFile;
    const result = {
      runId: 'r',
      stopReason: 'finished',
      steps: 3,
      usage: { promptTokens: 1_000_000, completionTokens: 500_000, totalTokens: 1_500_000 },
      durationMs: 5,
      patch: 'diff --git a/a.js b/a.js\n--- a/a.js\n+++ b/a.js\n@@ -1 +1,2 @@\n-x\n+y\n+z\n',
      changedFiles: ['a.js'],
      verdicts: [
        { id: 'sec', before: 'fail', after: 'pass' },
        { id: 'perf', before: 'pass', after: 'pass' },
      ],
      after: [],
      findings: [],
      tamperedSpecs: ['perf'],
      testInfrastructure: [],
      runDir: 'd',
      trajectoryFile: 't',
      patchFile: 'p',
    } as unknown as AgentRunResult;
    const c = summarizeCandidate(specFile, result, {
      index: 1,
      label: 'm',
      source: { kind: 'model', model: 'm' },
      price: { input: 2, output: 8 },
    });
    assert.deepEqual(
      c.specs.map((s) => s.after),
      ['pass', 'tampered'],
    );
    assert.equal(c.specsPassed, 1);
    assert.equal(c.strict, false);
    assert.deepEqual(c.broken, []);
    assert.deepEqual(c.fixed, ['sec']);
    assert.ok(c.tampered);
    assert.match(c.disqualified ?? '', /tampered: perf/);
    assert.equal(c.costUsd, 2 + 4);
    assert.deepEqual(c.patch, { files: ['a.js'], linesAdded: 2, linesRemoved: 1 });
  });

  it('a spec that passed before and is blocked, skipped or not run now is not a broken constraint; fail and error are', () => {
    const ids = ['blk', 'skp', 'gone', 'f', 'e'];
    const specFile = {
      version: 1,
      goal: 'g',
      specs: ids.map((id) => ({ id, kind: 'functional', test: { files: [] } })),
    } as unknown as SpecFile;
    const after: Record<string, string> = { blk: 'blocked', skp: 'skipped', f: 'fail', e: 'error' };
    const result = {
      runId: 'r',
      stopReason: 'finished',
      steps: 1,
      usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
      durationMs: 5,
      patch: '',
      changedFiles: [],
      // 'gone' has no verdict after the change: not run.
      verdicts: ids
        .map((id) => ({ id, before: 'pass', after: after[id] ?? 'not-run' }))
        .filter((v) => v.id !== 'gone'),
      after: [],
      findings: [],
      tamperedSpecs: [],
      testInfrastructure: [],
      runDir: 'd',
      trajectoryFile: 't',
      patchFile: 'p',
    } as unknown as AgentRunResult;
    const c = summarizeCandidate(specFile, result, {
      index: 1,
      label: 'm',
      source: { kind: 'model', model: 'm' },
    });
    assert.deepEqual(
      c.specs.map((s) => `${s.id}:${s.after}`),
      ['blk:blocked', 'skp:skipped', 'gone:not-run', 'f:fail', 'e:error'],
    );
    assert.deepEqual(c.broken, ['f', 'e']);
  });

  it('a run with an attempt (a refused protected edit) is disqualified and ranks below honest ones, all passing', () => {
    const specFile = {
      version: 1,
      goal: 'g',
      specs: [{ id: 'sec', kind: 'security', test: { files: ['test/sec.test.js'] } }],
    } as unknown as SpecFile;
    const base = {
      runId: 'r',
      stopReason: 'finished',
      steps: 1,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      durationMs: 1,
      patch: 'diff --git a/a.js b/a.js\n--- a/a.js\n+++ b/a.js\n@@ -1 +1 @@\n-x\n+y\n',
      changedFiles: ['a.js'],
      verdicts: [{ id: 'sec', before: 'fail', after: 'pass' }],
      after: [],
      findings: [],
      tamperedSpecs: [],
      testInfrastructure: [],
      runDir: 'd',
      trajectoryFile: 't',
      patchFile: 'p',
    } as unknown as AgentRunResult;
    const attempt = {
      kind: 'protected-edit-refused' as const,
      target: 'test/sec.test.js',
      spec: 'sec',
      at: '2026-12-07T15:00:00.000Z',
    };
    const meta = (index: number) => ({ index, label: 'm', source: { kind: 'model' as const, model: 'm' } });
    const tried = summarizeCandidate(specFile, { ...base, attempts: [attempt] }, meta(1));
    const honest = summarizeCandidate(specFile, base, meta(2));
    assert.ok(tried.tampered);
    assert.match(
      tried.disqualified ?? '',
      /refused \(tampered\).*refused its edit of protected test\/sec\.test\.js/,
    );
    assert.equal(honest.disqualified, undefined);
    assert.deepEqual(rankOrder([tried, honest]), [2, 1]);
  });

  it('counts added and removed lines, not the file headers', () => {
    assert.deepEqual(patchLineCounts('--- a/x\n+++ b/x\n@@\n-a\n+b\n context\n'), {
      linesAdded: 1,
      linesRemoved: 1,
    });
  });
});

describe('judgement', () => {
  it('review precision and recall per model against the tests', () => {
    const withReview = (c: CandidateSummary, said: Array<'satisfied' | 'violated' | 'unclear'>) => ({
      ...c,
      specs: c.specs.map((s, i) => ({ ...s, review: said[i]! })),
    });
    const a = withReview(cand(1, { sec: 'fail', perf: 'pass', api: 'pass' }), [
      'satisfied',
      'satisfied',
      'unclear',
    ]);
    const b = withReview(cand(2, { sec: 'pass', perf: 'pass', api: 'fail' }), [
      'satisfied',
      'violated',
      'violated',
    ]);
    const noReview = cand(3, { sec: 'pass', perf: 'pass', api: 'pass' });
    const j = measureJudgement([a, b, noReview]);
    // "satisfied" 3 times: perf of a and sec of b were real passes, sec of a was not; api of a and perf of b
    // passed without being called satisfied.
    assert.deepEqual(j.review.m, {
      reviews: 2,
      truePositives: 2,
      falsePositives: 1,
      falseNegatives: 2,
      precision: 2 / 3,
      recall: 2 / 4,
    });
    assert.deepEqual(j.finishClaims, { finished: 3, finishedAndStrict: 1 });
  });

  it('a self-pick is compared with the first candidate and the verified best; a disqualified pick passes none', () => {
    const first = cand(1, { sec: 'fail', perf: 'pass', api: 'pass' });
    const best = cand(2, { sec: 'pass', perf: 'pass', api: 'pass' });
    const cheat = cand(3, { sec: 'pass', perf: 'pass', api: 'pass' }, { disqualified: 'tampered' });
    const list = [first, best, cheat];
    const order = rankOrder(list);
    assert.deepEqual(judgePick(list, order, 2), { vsFirst: 'beats', vsBest: 'equal', regret: 0 });
    assert.deepEqual(judgePick(list, order, 1), { vsFirst: 'equal', vsBest: 'loses', regret: 1 });
    assert.deepEqual(judgePick(list, order, 3), { vsFirst: 'loses', vsBest: 'loses', regret: 3 });
  });
});

describe('--apply best', () => {
  it('is taken out of the arguments in both spellings, and nothing else is', () => {
    assert.deepEqual(takeApplyBest(['--all', '--apply', 'best', '--json']), {
      applyBest: true,
      rest: ['--all', '--json'],
    });
    assert.deepEqual(takeApplyBest(['--apply=best']), { applyBest: true, rest: [] });
    assert.deepEqual(takeApplyBest(['--apply', '--json']), { applyBest: false, rest: ['--apply', '--json'] });
  });
});
