// One wording for what a matrix concludes (issue #25 item 5): the CLI's table and the editor's tab both print
// matrixConclusion's sentence. The case the issue found: every run finished and changed nothing, so the spec that
// failed before still fails alone — the tab gave the all-clear ("None: no spec broke another …") while the CLI
// said "Inconclusive: 1 of 8 solo runs did not solve their spec".
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AgentRunResult } from '../../../src/core/agent/agentRunResult';
import { matrixFrom, type MatrixResult } from '../../../src/core/agent/matrix';
import { matrixConclusion } from '../../../src/core/agent/matrixConclusion';
import type { SpecResult } from '../../../src/core/check';
import { formatMatrix } from '../../../src/cli/output/matrixTable';
import { escapeHtml, renderMatrixHtml } from '../../../src/extension/views/matrixHtml';

const IDS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const verdicts = (failing: readonly string[]): SpecResult[] =>
  IDS.map((id) => ({ id, verdict: failing.includes(id) ? 'fail' : 'pass' }) as SpecResult);

function run(target: AgentRunResult['target'], after: SpecResult[], stopReason = 'finished'): AgentRunResult {
  return {
    target,
    stopReason,
    after,
    runId: 'r',
    steps: 2,
    durationMs: 1,
    changedFiles: [],
    trajectoryFile: 't',
    findings: [],
  } as unknown as AgentRunResult;
}

/** Eight specs, `a` failing before; every run finishes having changed nothing, so `a` still fails everywhere. */
function unchangedMatrix(): MatrixResult {
  const before = verdicts(['a']);
  return matrixFrom(
    IDS,
    before,
    [...IDS.map((id) => run({ kind: 'spec', id }, before)), run({ kind: 'all' }, before)],
    10,
  );
}

describe('matrixConclusion', () => {
  test('runs that finished without solving their spec make the matrix inconclusive, in both faces alike', () => {
    const matrix = unchangedMatrix();
    const c = matrixConclusion(matrix);
    assert.equal(c.kind, 'inconclusive');
    assert.equal(
      c.sentence,
      'Inconclusive: 1 of 8 solo runs did not solve their spec, so "no spec broke another" cannot be concluded ' +
        'from them; the all-together run did not make every spec pass, so "every spec satisfiable alone also ' +
        'holds together" cannot be concluded from it.',
    );
    assert.deepEqual(
      c.silentRuns.map((r) => r.target),
      ['a', 'all'],
    );
    const table = formatMatrix(matrix);
    const html = renderMatrixHtml(matrix);
    assert.ok(table.includes(c.sentence), table);
    assert.ok(html.includes(`<strong>Inconclusive:</strong> ${escapeHtml(c.text)}`), html);
    for (const face of [table, html]) assert.doesNotMatch(face, /None: no spec broke another/);
    assert.match(html, /<li>run <code>a<\/code>: finished without making a pass<\/li>/);
  });

  test('gives the all-clear only when every run finished and solved its target', () => {
    const matrix = matrixFrom(
      IDS,
      verdicts(['a']),
      [...IDS.map((id) => run({ kind: 'spec', id }, verdicts([]))), run({ kind: 'all' }, verdicts([]))],
      10,
    );
    const c = matrixConclusion(matrix);
    assert.equal(c.kind, 'none');
    assert.match(c.sentence, /^None: no spec broke another when solved alone/);
    assert.ok(formatMatrix(matrix).includes(c.sentence));
    assert.ok(renderMatrixHtml(matrix).includes(`<p>${escapeHtml(c.sentence)}</p>`));
  });

  test('counts the flagged interactions, and names the runs that say nothing beside them', () => {
    const matrix = matrixFrom(
      IDS,
      verdicts(['a']),
      [
        run({ kind: 'spec', id: 'a' }, verdicts(['b'])),
        ...IDS.slice(1).map((id) => run({ kind: 'spec', id }, verdicts(['a']))),
        run({ kind: 'all' }, verdicts([]), 'step-budget'),
      ],
      10,
    );
    const c = matrixConclusion(matrix);
    assert.equal(c.kind, 'flagged');
    assert.equal(
      c.sentence,
      'Flagged: 1 interaction; 1 of 9 runs did not solve their target, so their rows say nothing.',
    );
  });

  test('a matrix none of whose runs finished says so', () => {
    const before = verdicts(['a']);
    const matrix = matrixFrom(
      IDS,
      before,
      [
        ...IDS.map((id) => run({ kind: 'spec', id }, before, 'model-error')),
        run({ kind: 'all' }, before, 'model-error'),
      ],
      10,
    );
    assert.match(
      matrixConclusion(matrix).sentence,
      /^Inconclusive: none of the 9 agent runs finished, so the matrix/,
    );
  });
});
