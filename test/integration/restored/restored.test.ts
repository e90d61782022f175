// Reopening a folder (or reloading the window) restores the last run: the harness recorded two runs with the real
// CLI before this window opened (clean, then with add() broken), and every surface must show the newest run's
// verdicts at once, marked restored with its age — the store, the status bar, Problems, the Test Explorer and the
// side panel — instead of "unchecked" beside an outdated Test Explorer. Nothing is run to get there.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { RunRecord } from '../../../src/core/check/types';
import {
  checkCounts,
  panelCheckView,
  panelSummaryText,
  statusBarText,
} from '../../../src/shared/checkCounts';
import { lineOf, until, weaveApi, weaveDiagnostics, workspaceUri } from '../helpers';

const math = workspaceUri('src', 'math.js');

/** The newest run in .weave/runs/, read straight from the file the CLI wrote. */
function newestStoredRun(): RunRecord {
  const dir = workspaceUri('.weave', 'runs').fsPath;
  const names = fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort();
  assert.equal(names.length, 2, `stored runs: ${names.join(', ')}`);
  return JSON.parse(fs.readFileSync(path.join(dir, names.at(-1) ?? ''), 'utf8')) as RunRecord;
}

suite('the last run comes back when the folder opens', () => {
  test('store, status bar, Problems, Test Explorer and panel show the stored run, marked restored', async () => {
    const api = await weaveApi();
    assert.equal(await api.restored, true, 'the stored run was not restored');
    const stored = newestStoredRun();
    const expected = Object.fromEntries(stored.results.map((r) => [r.id, r.verdict]));
    assert.deepEqual(expected, {
      'add-works': 'fail',
      'clamp-bounds': 'fail',
      'counter-increments': 'blocked',
    });

    // The store: the stored verdicts, the change against the clean run, the run's id and that it was restored.
    const known = api.results.knownResults();
    assert.deepEqual(Object.fromEntries(known.results.map((r) => [r.id, r.verdict])), expected);
    assert.equal(known.changes['add-works'], 'broken');
    assert.deepEqual(api.results.lastRun, {
      runId: stored.id,
      finishedAt: stored.finishedAt,
      origin: 'restored',
    });
    assert.equal(api.checks.isRunning, false, 'restoring ran a check');

    // The status bar: the counts of that run and its age.
    const status = api.statusBar();
    assert.match(status.text, /^\$\(beaker\) Weave 0\/3 · 1 broken · 2 failing · (just now|\d+ min ago)$/);
    assert.match(status.tooltip, /restored from `\.weave\/runs\/`/);
    assert.match(status.tooltip, /broken: add-works\nfail: clamp-bounds\nblocked: counter-increments/);

    // Problems: the broken and the failing spec at their anchors in math.js, the blocked one as information.
    const atMath = weaveDiagnostics(math);
    const broken = atMath.find((d) => d.code === 'add-works');
    assert.ok(broken, `diagnostics in math.js: ${atMath.map((d) => d.message).join(' | ')}`);
    assert.equal(broken.severity, vscode.DiagnosticSeverity.Error);
    assert.match(broken.message, /^\[add-works\] add returns the sum — broken by changes since [0-9a-f]{7}/);
    assert.equal(broken.range.start.line, await lineOf(math, 'function add('));
    assert.ok(
      atMath.some((d) => d.code === 'clamp-bounds' && d.severity === vscode.DiagnosticSeverity.Error),
    );
    const blocked = vscode.languages
      .getDiagnostics()
      .flatMap(([, list]) => list)
      .find((d) => d.source === 'weave' && d.code === 'counter-increments');
    assert.equal(blocked?.severity, vscode.DiagnosticSeverity.Information);

    // The Test Explorer: a run of its own with the same verdicts.
    await until('the restored run to reach the Test Explorer', () =>
      api.testResults().finishedRuns > 0 ? true : undefined,
    );
    assert.deepEqual(Object.fromEntries(api.testResults().states), {
      'add-works': 'failed',
      'clamp-bounds': 'failed',
      'counter-increments': 'skipped',
    });

    // The side panel: the same verdicts and changes, and whose run they are.
    await until('the panel to show the restored verdicts', () =>
      api.panelState()?.lastRun?.origin === 'restored' ? true : undefined,
    );
    const panel = api.panelState();
    assert.deepEqual(
      Object.fromEntries(Object.entries(panel?.verdicts ?? {}).map(([id, v]) => [id, v.verdict])),
      expected,
    );
    assert.equal(panel?.changes['add-works'], 'broken');
    assert.equal(panel?.lastRun?.finishedAt, stored.finishedAt);
  });

  test('the next check replaces the restored verdicts everywhere and is no longer "restored"', async () => {
    const api = await weaveApi();
    // Mid-check, at every step of the check: the status bar says what the panel's summary counts (the restored run
    // neither mixed in nor named), from the panel's own state.
    const disagreements: string[] = [];
    let midCheck = 0;
    const watch = api.results.onDidChangeActivity(() => {
      const panel = api.panelState();
      if (!panel?.progress) return;
      midCheck++;
      const counts = checkCounts(panelCheckView(panel));
      const status = api.statusBar().text;
      if (status !== `$(sync~spin) ${statusBarText(counts, new Date())}` || /ago/.test(status))
        disagreements.push(`${status} | ${panelSummaryText(counts, new Date())}`);
    });
    const result = await api.checks.check().finally(() => watch.dispose());
    assert.ok(midCheck > 0, 'no mid-check state seen');
    assert.deepEqual(disagreements, []);
    assert.ok(result.ran, result.ran ? '' : result.message);
    assert.equal(api.results.lastRun?.origin, 'check');
    assert.equal(api.results.lastRun?.runId, result.outcome.run.id);
    assert.doesNotMatch(api.statusBar().text, /ago/);
    assert.equal(api.panelState()?.lastRun?.origin, 'check');
  });
});
