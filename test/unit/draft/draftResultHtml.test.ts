// The draft result tab: kept drafts with their test files, the rejections, and Accept all / Choose / Reject as
// command links while pending; the decision in words afterwards; a hash-only CSP and escaped text.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import type { DraftResult } from '../../../src/core/draft/runDraft';
import { draftCsp, renderDraftHtml } from '../../../src/extension/draft/draftResultHtml';

function result(): DraftResult {
  return {
    runId: '2026-12-02T05-00-00-000Z-ab12-draft',
    kept: [
      {
        spec: {
          id: 'add-sums-two',
          title: 'add <sums>',
          kind: 'functional',
          statement: 'Given 2 and 3, add shall return 5.',
          test: { command: 'node --test test/drafts/add.test.js', files: ['test/drafts/add.test.js'] },
          anchors: ['src/math.js#add'],
          dependsOn: [],
          interactsWith: [],
        },
        specInput: {} as never,
        testFiles: [{ path: 'test/drafts/add.test.js', content: "test('2 + 3 is 5', () => {});\n" }],
        verification: {
          verdict: 'pass',
          goal: false,
          runner: 'node:test',
          tests: 1,
          repeats: ['pass', 'pass'],
          mutantsTried: 3,
          mutantsKilled: 1,
          killedExample: 'src/math.js:4 + → -',
        },
      },
    ],
    rejected: [{ id: 'weak', stage: 'vacuous', reason: 'kills no mutant\nmore' }],
    review: {
      uncoveredGoalParts: [],
      missingEdges: [],
      contradictions: [],
      model: { ok: false, skipped: true },
    },
    stopReason: 'finished',
    steps: 2,
    usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
    durationMs: 1200,
    trajectoryFile: '/ws/.weave/runs/draft/x/trajectory.jsonl',
    resultFile: '/ws/.weave/runs/draft/x/result.json',
  } as DraftResult;
}

describe('draft result page', () => {
  test('pending drafts offer Accept all, Choose and Reject as command links, with each draft and rejection', () => {
    const html = renderDraftHtml(result(), { kind: 'pending' });
    const all = `command:weave.draft.accept?${encodeURIComponent(JSON.stringify(['all']))}`;
    assert.ok(html.includes(`href="${all}">Accept all (1)</a>`), 'no Accept all link');
    assert.match(html, /href="command:weave\.draft\.accept">Choose drafts…<\/a>/);
    assert.match(html, /href="command:weave\.draft\.reject">Reject all<\/a>/);
    assert.match(html, /<code>add-sums-two<\/code> — add &lt;sums&gt;/);
    assert.match(html, /New test file <code>test\/drafts\/add\.test\.js<\/code>/);
    assert.match(html, /kills the mutant <code>src\/math\.js:4 \+ → -<\/code>/);
    assert.match(html, /<strong>weak<\/strong> \(vacuous\): kills no mutant<\/li>/);
    assert.doesNotMatch(html, /<script/);
  });

  test('after a decision the links are gone and the page says what happened', () => {
    const accepted = renderDraftHtml(result(), { kind: 'accepted', specIds: ['add-sums-two'] });
    assert.doesNotMatch(accepted, /command:weave\.draft/);
    assert.match(
      accepted,
      /Accepted: <code>add-sums-two<\/code>, written to <code>\.weave\/specs\.json<\/code>/,
    );
    assert.match(
      renderDraftHtml(result(), { kind: 'rejected' }),
      /Rejected: <code>\.weave\/specs\.json<\/code> and your files are unchanged/,
    );
  });

  test('the CSP allows exactly the page style, nothing else', () => {
    const html = renderDraftHtml(result(), { kind: 'pending' });
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    const hash = createHash('sha256').update(style).digest('base64');
    assert.equal(draftCsp(), `default-src 'none'; style-src 'sha256-${hash}';`);
  });
});
