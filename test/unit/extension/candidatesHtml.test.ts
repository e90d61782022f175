// The comparison page of "Run N agents" on a hand-made ranking (the core's own order, Pareto set and per-kind
// best): rows in rank order, a verdict's word in every cell (colour never alone), the disqualified candidate
// marked with why and without Apply, labels escaped, nothing but the page's own style allowed by the CSP.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  bestByKind,
  paretoSet,
  rankOrder,
  type CandidateRanking,
  type CandidateSummary,
} from '../../../src/core/agent/candidateRanking';
import { measureJudgement } from '../../../src/core/agent/judgement';
import { candidatesCsp, renderCandidatesHtml } from '../../../src/extension/views/candidatesHtml';
import type { SpecKind } from '../../../src/shared/specSchema';

const KINDS: Record<string, SpecKind> = { sec: 'security', api: 'interface' };

function cand(
  index: number,
  after: Record<string, 'pass' | 'fail'>,
  extra: Partial<CandidateSummary> = {},
): CandidateSummary {
  const specs = Object.entries(after).map(([id, verdict]) => ({
    id,
    kind: KINDS[id]!,
    before: id === 'sec' ? ('fail' as const) : ('pass' as const),
    after: verdict,
  }));
  const passed = specs.filter((s) => s.after === 'pass').length;
  return {
    index,
    label: `model-${index} (seed ${index})`,
    source: { kind: 'model', model: `model-${index}`, seed: index },
    runId: `r${index}`,
    runDir: '',
    trajectoryFile: '',
    patchFile: '',
    stopReason: 'finished',
    strict: passed === specs.length,
    specsPassed: passed,
    specs,
    broken: specs.filter((s) => s.before === 'pass' && s.after !== 'pass').map((s) => s.id),
    fixed: specs.filter((s) => s.before !== 'pass' && s.after === 'pass').map((s) => s.id),
    tampered: false,
    findings: [],
    patch: { files: ['src/a.js'], linesAdded: 2, linesRemoved: 1 },
    steps: 3,
    usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
    costUsd: null,
    durationMs: 1200,
    ...extra,
  };
}

function ranking(candidates: CandidateSummary[]): CandidateRanking {
  const order = rankOrder(candidates);
  const best = candidates.find((c) => c.index === order[0]);
  return {
    schema: 'weave-candidates/1',
    id: 'run-candidates',
    dir: '/ws/.weave/runs/agent/run-candidates',
    target: { kind: 'all' },
    specIds: ['sec', 'api'],
    before: { sec: 'fail', api: 'pass' },
    candidates,
    order,
    best: best && best.disqualified === undefined ? best.index : null,
    bestByKind: bestByKind(candidates, order),
    pareto: paretoSet(candidates, order),
    judgement: measureJudgement(candidates, undefined),
    concurrency: 2,
    durationMs: 5000,
  };
}

const rows = (html: string): Array<[string, string, string]> =>
  [...html.matchAll(/<tr class="candidate[^"]*" data-candidate="(\d+)" data-rank="(\d+)">(.*?)<\/tr>/g)].map(
    (m): [string, string, string] => [m[1]!, m[2]!, m[3]!],
  );

describe('the candidates comparison page', () => {
  const candidates = [
    cand(1, { sec: 'pass', api: 'fail' }),
    cand(2, { sec: 'pass', api: 'pass' }, { disqualified: 'refused (tampered): package.json scripts.test' }),
    cand(3, { sec: 'fail', api: 'pass' }, { label: '<b>odd</b> & "model"' }),
  ];
  const html = renderCandidatesHtml({
    ranking: ranking(candidates),
    endings: new Map([[1, 'Finished after 3 steps: sec fixed.']]),
  });

  test('draws the rows in rank order, the disqualified one last, marked with why and without Apply', () => {
    const drawn = rows(html);
    // cand-1 and cand-3 pass one spec each; cand-1 broke api, cand-3 broke nothing: cand-3 first. cand-2 is out.
    assert.deepEqual(
      drawn.map(([c, r]) => [c, r]),
      [
        ['3', '1'],
        ['1', '2'],
        ['2', '3'],
      ],
    );
    const out = drawn[2]![2];
    assert.match(out, /⊘ disqualified<\/span>: refused \(tampered\): package\.json scripts\.test/);
    assert.doesNotMatch(out, /weave\.agent\.applyCandidate/);
    const applyFirst = `command:weave.agent.applyCandidate?${encodeURIComponent(JSON.stringify([1]))}`;
    assert.ok(drawn[1]![2].includes(`href="${applyFirst}"`), 'cand-1 has no Apply link');
    assert.ok(out.includes(encodeURIComponent(JSON.stringify([2]))), 'the tamperer can still be reviewed');
  });

  test('every cell says its verdict in a symbol and a word; a broken constraint says so', () => {
    let cells = 0;
    for (const [, , row] of rows(html))
      for (const m of row.matchAll(/<td class="cell v-([\w-]+)[^"]*"[^>]*>([^<]*)<\/td>/g)) {
        cells++;
        assert.ok(m[2]!.includes(m[1]!), `a ${m[1]} cell reads "${m[2]}"`);
      }
    assert.equal(cells, 3 * 2, 'three candidates × two specs');
    assert.match(rows(html)[1]![2], /data-spec="api"[^>]*>✗ fail \(broken\)</);
    assert.match(
      html,
      /Constraints broken \(passed before, fail now\): <code>api<\/code>\. Fixed: <code>sec<\/code>\./,
    );
  });

  test('names the best per kind and the Pareto set when no usable candidate dominates', () => {
    assert.match(html, /<strong>security<\/strong>: cand-1 \(1\/1 passing\)/);
    assert.match(html, /<strong>interface<\/strong>: cand-3 \(1\/1 passing\)/);
    assert.match(html, /cand-3, cand-1: none of them does at least as well as another on every kind/);
    assert.match(html, /Best: <strong>cand-3<\/strong>/);
  });

  test('escapes what the candidates bring and allows nothing but its own style', () => {
    assert.ok(!html.includes('<b>odd</b>'));
    assert.match(html, /&lt;b&gt;odd&lt;\/b&gt; &amp; &quot;model&quot;/);
    assert.ok(html.includes(`content="${candidatesCsp()}"`));
    assert.match(candidatesCsp(), /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+';$/);
    assert.doesNotMatch(html, /<script/);
  });

  test('says when every candidate is disqualified, and what became of an Apply', () => {
    const none = renderCandidatesHtml({
      ranking: ranking([cand(1, { sec: 'pass', api: 'pass' }, { disqualified: 'refused: review' })]),
      endings: new Map(),
      decision: { candidate: 1, decision: 'failed' },
    });
    assert.match(none, /Every candidate is disqualified: there is nothing to apply\./);
    assert.match(none, /Pareto set<\/h2>\n<p class="pareto">empty: every candidate is disqualified\./);
    assert.match(none, /cand-1: not applied/);
  });

  test('the candidate column and the header stay in view while the grid scrolls', () => {
    // Every candidate's name cell (and the baseline's, and the header's) is the sticky "who" column.
    for (const [index, , cells] of rows(html))
      assert.match(cells, new RegExp(`<th scope="row" class="who">cand-${index}`));
    assert.match(html, /<th scope="row" class="who">before \(the baseline\)/);
    assert.match(html, /<th scope="col" class="who">candidate<\/th>/);
    assert.match(html, /table\.grid th\.who \{ position: sticky; left: 0;/);
    assert.match(html, /table\.grid thead \{ position: sticky; top: 0;/);
  });

  test('a usable candidate that breaks constraints gets a warning Apply that says how many', () => {
    const [, , first] = rows(html).find(([i]) => i === '1') ?? [];
    assert.match(first ?? '', /<a class="button warning" [^>]*>⚠ Apply cand-1 \(breaks 1\)<\/a>/);
    const [, , third] = rows(html).find(([i]) => i === '3') ?? [];
    assert.match(third ?? '', /<a class="button" [^>]*>Apply cand-3<\/a>/);
    assert.doesNotMatch(third ?? '', /warning/);
  });
});

describe('the comparison page with more than six specs', () => {
  const ids = ['s1', 's2', 'i1', 's3', 'p1', 'i2', 'p2', 'u1'];
  const kind: Record<string, SpecKind> = { s: 'security', i: 'interface', p: 'performance', u: 'functional' };
  const kindOf = (id: string): SpecKind => kind[id[0]!]!;
  const specsOf = (after: Record<string, 'pass' | 'fail' | 'blocked'>): CandidateSummary['specs'] =>
    ids.map((id) => ({ id, kind: kindOf(id), before: 'pass', after: after[id] ?? 'pass' }));
  const one = cand(1, {}, { specs: specsOf({ p1: 'blocked' }), specsPassed: 7, strict: false, broken: [] });
  const two = cand(2, {}, { specs: specsOf({ i2: 'fail' }), specsPassed: 7, strict: false, broken: ['i2'] });
  const base = ranking([one, two]);
  const html = renderCandidatesHtml({
    ranking: { ...base, specIds: ids, before: Object.fromEntries(ids.map((id) => [id, 'pass'])) },
    endings: new Map(),
  });

  test('groups the spec columns by kind, each kind named once over its specs, cells in the same order', () => {
    const groups = [
      ...html.matchAll(/<th scope="colgroup" colspan="(\d)" class="kind-group">([^<]*)<\/th>/g),
    ].map((m) => `${m[2]}/${m[1]}`);
    assert.deepEqual(groups, ['security (3)/3', 'interface (2)/2', 'performance (2)/2', 'functional (1)/1']);
    const order = ['s1', 's2', 's3', 'i1', 'i2', 'p1', 'p2', 'u1'];
    const [, , cells] = rows(html).find(([i]) => i === '2') ?? [];
    assert.deepEqual(
      [...(cells ?? '').matchAll(/data-spec="([^"]+)"/g)].map((m) => m[1]),
      order,
    );
    assert.match(cells ?? '', /data-spec="i2"[^>]*>✗ fail \(broken\)</);
  });

  test('a blocked spec reads blocked, not broken', () => {
    const [, , cells] = rows(html).find(([i]) => i === '1') ?? [];
    assert.match(cells ?? '', /data-spec="p1" title="p1: pass → blocked">[^<]* blocked<\/td>/);
    assert.doesNotMatch(cells ?? '', /broken/);
  });
});
