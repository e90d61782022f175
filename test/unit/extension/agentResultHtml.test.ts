import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { AgentRunResult } from '../../../src/core/agent/agentRunResult';
import { renderResultHtml, resultCsp, type ResultState } from '../../../src/extension/views/agentResultHtml';

function result(overrides: Partial<AgentRunResult> = {}): AgentRunResult {
  return {
    runId: '2026-12-01T08-00-00-000Z-ab12-all',
    target: { kind: 'all' },
    stopReason: 'finished',
    finishSummary: 'fixed',
    steps: 4,
    usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120 },
    durationMs: 2500,
    patch: 'diff --git a/src/client.js b/src/client.js\n',
    changedFiles: ['src/client.js'],
    before: [],
    after: [],
    verdicts: [{ id: 'no-secret-caching', before: 'fail', after: 'pass' }],
    findings: [],
    sandboxed: true,
    tamperedSpecs: [],
    testInfrastructure: [],
    runDir: '/ws/.weave/runs/agent/x',
    trajectoryFile: '/ws/.weave/runs/agent/x/trajectory.jsonl',
    patchFile: '/ws/.weave/runs/agent/x/patch.diff',
    ...overrides,
  };
}

function page(state: ResultState, overrides: Partial<AgentRunResult> = {}): string {
  return renderResultHtml({
    result: result(overrides),
    ending: 'Finished after 4 steps: fixed',
    files: [{ path: 'src/client.js', status: 'modified' }],
    state,
    trajectory: '.weave/runs/agent/x/trajectory.jsonl',
  });
}

describe('agent result page', () => {
  test('a pending change offers Apply, Discard and the diff as command links, with the real path', () => {
    const html = page({ kind: 'pending' });
    assert.match(html, /href="command:weave\.agent\.applyResult">Apply to 1 file<\/a>/);
    assert.match(html, /href="command:weave\.agent\.discardResult">Discard<\/a>/);
    const fileLink = `command:weave.agent.showChanges?${encodeURIComponent(JSON.stringify(['src/client.js']))}`;
    assert.ok(html.includes(`href="${fileLink}"`), 'no diff link for src/client.js');
    assert.match(html, /<code>src\/client\.js<\/code>/);
    assert.doesNotMatch(html, /\/tmp\//);
    assert.match(html, /<td class="v-fail">fail<\/td><td class="v-pass">pass<\/td>/);
  });

  test('once decided, the actions are gone and the page says what happened', () => {
    const applied = page({ kind: 'applied', recheck: 'Re-checked: Weave 8/8.' });
    assert.doesNotMatch(applied, /weave\.agent\.applyResult/);
    assert.match(applied, /Applied to your files\. Re-checked: Weave 8\/8\./);
    assert.match(page({ kind: 'discarded' }), /Discarded: your files are unchanged\./);
    assert.match(page({ kind: 'nothing-to-apply' }), /changed nothing/);
  });

  test('a run that did not finish is marked, and model text is escaped', () => {
    const html = page(
      { kind: 'nothing-to-apply' },
      {
        stopReason: 'step-budget',
        findings: [
          { check: 'protected-file-changed', severity: 'error', message: '<img src=x onerror=alert(1)>' },
        ],
      },
    );
    assert.match(html, /class="ending unfinished"/);
    assert.doesNotMatch(html, /<img/);
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
  });

  test('each attempt is shown as tampering, escaped', () => {
    const html = page(
      { kind: 'nothing-to-apply' },
      {
        attempts: [
          { kind: 'process-left', target: 'pid 7: <sleep>', spec: 'sec', at: '2026-12-07T15:00:00.000Z' },
        ],
      },
    );
    assert.match(
      html,
      /<strong>Tampered<\/strong>: attempt \(process-left\) — sec: left pid 7: &lt;sleep&gt; running/,
    );
    assert.doesNotMatch(page({ kind: 'pending' }), /attempt \(/);
  });

  test('runs no script and loads nothing: CSP default-src none, its style block by hash', () => {
    const html = page({ kind: 'pending' });
    assert.doesNotMatch(html, /<script/);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    const hash = createHash('sha256').update(style).digest('base64');
    assert.equal(resultCsp(), `default-src 'none'; style-src 'sha256-${hash}';`);
    assert.ok(html.includes(resultCsp()));
  });

  test('the heading is the goal and the start time, not the raw run id', () => {
    const html = page({ kind: 'pending' });
    assert.match(html, /<h1>Make every spec pass · 2026-12-01 08:00 UTC<\/h1>/);
    assert.match(html, /<title>Make every spec pass · 2026-12-01 08:00 UTC<\/title>/);
    assert.doesNotMatch(/<h1>[\s\S]*?<\/h1>/.exec(html)?.[0] ?? '', /ab12/);
    // The run id stays findable, once, in the small print.
    assert.match(html, /run <code class="run-id">2026-12-01T08-00-00-000Z-ab12-all<\/code>/);
    const one = page({ kind: 'pending' }, { target: { kind: 'spec', id: 'no-<stale>' }, runId: 'odd' });
    assert.match(one, /<h1>Make no-&lt;stale&gt; pass<\/h1>/);
  });

  test('the decision (Apply, Discard) sits in a sticky bar above the verdicts', () => {
    const html = page({ kind: 'pending' });
    const bar = html.indexOf('<div class="decision-bar">');
    assert.ok(bar >= 0, 'no decision bar');
    assert.ok(html.indexOf('Apply to 1 file', bar) > bar, 'Apply is not inside the bar');
    assert.ok(bar < html.indexOf('<h2>Verdicts</h2>'));
    assert.match(html, /\.decision-bar \{ position: sticky; top: 0;/);
  });
});
