import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { Cell, MatrixResult, MatrixRun } from '../../../src/core/agent/matrix';
import { escapeHtml, renderMatrixHtml } from '../../../src/extension/views/matrixHtml';

function run(target: string, overrides: Partial<MatrixRun> = {}): MatrixRun {
  return {
    target,
    runId: `r-${target}`,
    stopReason: 'finished',
    steps: 3,
    durationMs: 1000,
    changedFiles: [],
    trajectoryFile: `/tmp/${target}.jsonl`,
    findings: [],
    ...overrides,
  };
}

// Three specs: solving `cache-hit` alone breaks `no-secret`; `no-secret` passes alone but not together.
function sampleMatrix(): MatrixResult {
  const row = (a: Cell, b: Cell, c: Cell): Record<string, Cell> => ({
    'cache-hit': a,
    'no-secret': b,
    ttl: c,
  });
  return {
    specIds: ['cache-hit', 'no-secret', 'ttl'],
    before: row('fail', 'pass', 'pass'),
    alone: {
      'cache-hit': row('pass', 'fail', 'pass'),
      'no-secret': row('fail', 'pass', 'pass'),
      ttl: row('fail', 'pass', 'error'),
    },
    together: row('pass', 'fail', 'not-run'),
    brokeBy: [{ solved: 'cache-hit', broke: 'no-secret' }],
    aloneNotTogether: ['no-secret'],
    inconclusive: [],
    unsolvedTogether: ['no-secret'],
    runs: [run('cache-hit'), run('no-secret'), run('ttl'), run('all')],
    durationMs: 12_345,
  };
}

/** The <tr> whose row header is `label`, as one string. */
function rowOf(html: string, label: string): string {
  const row = html.split('<tr').find((r) => r.includes(`<th scope="row">${label}</th>`));
  assert.ok(row, `no row ${label}`);
  return row;
}

describe('interaction matrix heatmap', () => {
  test('has a row per solved spec plus before and all together, and a column per spec', () => {
    const html = renderMatrixHtml(sampleMatrix());
    for (const label of ['before', 'cache-hit alone', 'no-secret alone', 'ttl alone', 'all together'])
      rowOf(html, label);
    for (const id of ['cache-hit', 'no-secret', 'ttl'])
      assert.ok(html.includes(`<th scope="col">${id}</th>`));
    assert.equal(rowOf(html, 'ttl alone').match(/<td /g)?.length, 3);
  });

  test('colours each cell by verdict, outlines the solved spec and marks "solving i broke j" with !', () => {
    const html = renderMatrixHtml(sampleMatrix());
    const cacheRow = rowOf(html, 'cache-hit alone');
    assert.match(cacheRow, /<td class="cell v-pass solved" title="cache-hit: pass">✓<\/td>/);
    assert.match(
      cacheRow,
      /<td class="cell v-fail broke" title="no-secret: fail \(broken by solving cache-hit\)">✗!<\/td>/,
    );
    // A spec failing after another run but already failing before is not flagged.
    assert.match(rowOf(html, 'no-secret alone'), /<td class="cell v-fail" title="cache-hit: fail">✗<\/td>/);
    assert.match(rowOf(html, 'ttl alone'), /<td class="cell v-error solved" title="ttl: error">E<\/td>/);
    assert.match(rowOf(html, 'all together'), /<td class="cell v-not-run" title="ttl: not-run">·<\/td>/);
    assert.equal(html.match(/!<\/td>/g)?.length, 1);
  });

  test('lists the flagged interactions, the unfinished runs and the review findings', () => {
    const matrix = sampleMatrix();
    matrix.runs[2] = run('ttl', {
      stopReason: 'step-budget',
      error: 'step budget of 3 spent',
      findings: [{ check: 'protected-file-changed', severity: 'error', message: 'edited test/ttl.test.js' }],
    });
    const html = renderMatrixHtml(matrix);
    const flags = html.slice(html.indexOf('<h2>Flagged interactions</h2>'));
    assert.match(flags, /<li>solving <code>cache-hit<\/code> broke <code>no-secret<\/code><\/li>/);
    assert.match(flags, /<li><code>no-secret<\/code>: satisfiable alone, not together<\/li>/);
    assert.match(
      html,
      /<li>run <code>ttl<\/code>: Did not finish: used all 3 steps of its step budget \(setting weave\.agent\.maxSteps\)\.<\/li>/,
    );
    assert.match(html, /<li>run <code>ttl<\/code>: protected-file-changed: edited test\/ttl\.test\.js<\/li>/);
    assert.match(html, /4 agent runs in 12\.3 s/);
  });

  test('says so when nothing is flagged', () => {
    const matrix = { ...sampleMatrix(), brokeBy: [], aloneNotTogether: [] };
    const html = renderMatrixHtml(matrix);
    assert.match(html, /<p>None: no spec broke another/);
    assert.doesNotMatch(html, /<ul class="flags">/);
  });

  test('a matrix whose runs all ran out of steps is inconclusive, and says which tool call kept failing', () => {
    const stuck = (target: string): MatrixRun => run(target, { stopReason: 'step-budget', steps: 40 });
    const matrix: MatrixResult = {
      ...sampleMatrix(),
      brokeBy: [],
      aloneNotTogether: [],
      runs: [stuck('cache-hit'), stuck('no-secret'), stuck('ttl'), stuck('all')],
    };
    const failures = [{ name: 'finish', summary: 'unexpected argument "notes"', count: 39 }];
    const html = renderMatrixHtml(matrix, (target) => (target === 'ttl' ? failures : []));
    assert.doesNotMatch(html, /None: no spec broke another/);
    assert.match(html, /Inconclusive:<\/strong> none of the 4 agent runs finished/);
    assert.match(
      html,
      /run <code>ttl<\/code>: Did not finish: used all 40 steps .*39 tool calls failed, 39× the same one: finish — unexpected argument &quot;notes&quot;/,
    );
  });

  test('when only some runs did not finish, there is no all-clear: it is inconclusive and names them', () => {
    const matrix: MatrixResult = {
      ...sampleMatrix(),
      brokeBy: [],
      aloneNotTogether: [],
      runs: [run('cache-hit'), run('no-secret', { stopReason: 'time-budget' }), run('ttl'), run('all')],
    };
    const html = renderMatrixHtml(matrix);
    assert.match(
      html,
      /Inconclusive:<\/strong> 1 of 3 solo runs did not solve their spec, so &quot;no spec broke another&quot; cannot be concluded from them\./,
    );
    assert.doesNotMatch(html, /None: no spec broke another/);
    assert.match(html, /<h2>Runs that did not finish<\/h2>\n<ul><li>run <code>no-secret<\/code>: /);
  });

  test('escapes every text it did not write itself', () => {
    const evil = '<img src=x onerror="alert(1)">';
    const matrix = sampleMatrix();
    matrix.runs[0] = run('cache-hit', {
      stopReason: 'model-error',
      error: `</li><script>alert('x')</script>`,
      findings: [{ check: 'assertion-weakened', severity: 'warning', message: evil }],
    });
    matrix.brokeBy = [{ solved: 'cache-hit', broke: evil }];
    const html = renderMatrixHtml(matrix);
    assert.doesNotMatch(html, /<script|<img/);
    assert.ok(html.includes('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;'));
    assert.ok(html.includes('&lt;/li&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;'));
    assert.equal(escapeHtml(`a&b<c>"d"'e'`), 'a&amp;b&lt;c&gt;&quot;d&quot;&#39;e&#39;');
  });

  test('loads and runs nothing: CSP default-src none, and only its own style block by hash', () => {
    const html = renderMatrixHtml(sampleMatrix());
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
    assert.ok(csp, 'no CSP');
    assert.match(csp, /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+';$/);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1];
    assert.ok(style !== undefined);
    const hash = createHash('sha256').update(style).digest('base64');
    assert.ok(csp.includes(`'sha256-${hash}'`), 'the style hash does not match the style block');
    assert.doesNotMatch(html, /<script|\ssrc=|\shref=|\son[a-z]+=/i);
  });
});
