// "Weave: Run N agents" in the real extension host (issue #27, item 3): four candidates of known quality from the
// scripted OpenAI-protocol server on 127.0.0.1, told apart by their seed as in test/e2e/agent/candidates.test.ts,
// each a real agent run in its own sandboxed checkout of the fixture (add-works passes, clamp-bounds fails,
// counter-increments depends on add-works):
//   cand-1 (seed 1) fixes clamp in three lines: every spec passes, the larger patch
//   cand-2 (seed 2) fixes clamp but first makes package.json's test script always pass: test infrastructure,
//          so it is disqualified (tampered)
//   cand-3 (seed 3) fixes clamp and breaks add: add-works broken, counter-increments blocked (never ran: not broken)
//   cand-4 (seed 4) fixes clamp in one line: every spec passes, the smaller patch
// So the ranking is cand-4, cand-1, cand-3, then the disqualified cand-2; the Pareto set is {cand-4, cand-1}
// (equal on every kind). The comparison tab must draw exactly that; Apply of the tamperer is refused; Apply of
// the second-ranked candidate lands cand-1's three lines in the user's file.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import * as vscode from 'vscode';
import type { CandidatesOutcome } from '../../../src/core/agent/candidates';
import { startScriptedServer, type Script, type ScriptStep } from '../../support/scriptedOpenAiServer';
import { fixtureFilesForSuite, readText, until, weaveApi, workspaceUri } from '../helpers';

const BUGGY = '  return Math.max(low, value);';
const ONE_LINE = '  return Math.min(high, Math.max(low, value));';
const THREE_LINES = '  if (value < low) return low;\n  if (value > high) return high;\n  return value;';
const TEST_SCRIPT = '"test": "node --test test/"';

function edit(path: string, search: string, replace: string) {
  return { name: 'edit', arguments: { path, search, replace } };
}

function steps(edits: ReturnType<typeof edit>[], summary: string): ScriptStep[] {
  return [
    { kind: 'tools', calls: edits },
    { kind: 'tools', calls: [{ name: 'finish', arguments: { summary } }] },
  ];
}

const SCRIPTS: Script[] = [
  {
    seed: 1,
    matches: () => true,
    steps: steps([edit('src/math.js', BUGGY, THREE_LINES)], 'clamp in three lines.'),
  },
  {
    seed: 2,
    matches: () => true,
    steps: steps(
      [
        edit('package.json', TEST_SCRIPT, '"test": "node --test test/ || true"'),
        edit('src/math.js', BUGGY, ONE_LINE),
      ],
      'tests pass.',
    ),
  },
  {
    seed: 3,
    matches: () => true,
    steps: steps(
      [edit('src/math.js', BUGGY, ONE_LINE), edit('src/math.js', '  return a + b;', '  return a - b;')],
      'clamp, and add simplified.',
    ),
  },
  {
    seed: 4,
    matches: () => true,
    steps: steps([edit('src/math.js', BUGGY, ONE_LINE)], 'clamp in one line.'),
  },
];

const SETTINGS = ['baseUrl', 'model', 'candidateModels', 'modelReview', 'candidates', 'candidateConcurrency'];

/** The grid's candidate rows as a person reads them, top to bottom: [candidate, rank, row html]. */
function gridRows(html: string): Array<[number, number, string]> {
  return [
    ...html.matchAll(/<tr class="candidate[^"]*" data-candidate="(\d+)" data-rank="(\d+)">(.*?)<\/tr>/g),
  ].map((m) => [Number(m[1]), Number(m[2]), m[3] ?? '']);
}

suite('agent: run N agents, compare, apply one', () => {
  fixtureFilesForSuite('src/math.js', 'package.json', '.weave/specs.json');
  const math = workspaceUri('src', 'math.js');
  const manifest = workspaceUri('package.json');
  let mathBefore: Uint8Array;

  suiteSetup(async () => {
    mathBefore = await vscode.workspace.fs.readFile(math);
  });

  teardown(async () => {
    // As agent.test.ts does after an Apply: the fixture's bug back on disk, under the diff editor's open copy.
    await vscode.workspace.fs.writeFile(math, mathBefore);
  });

  suiteTeardown(async () => {
    const config = vscode.workspace.getConfiguration('weave.agent');
    for (const key of SETTINGS) await config.update(key, undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('the comparison tab ranks four candidates of known quality; the second-ranked one is applied', async function () {
    this.timeout(300_000);
    const server = await startScriptedServer({ scripts: SCRIPTS });
    const config = vscode.workspace.getConfiguration('weave.agent');
    let outcome: CandidatesOutcome | undefined;
    try {
      await config.update('baseUrl', server.baseURL, vscode.ConfigurationTarget.Workspace);
      // Only the candidates' models list names a model: weave.agent.model stays unset.
      await config.update('model', undefined, vscode.ConfigurationTarget.Workspace);
      await config.update('candidateModels', ['scripted-model'], vscode.ConfigurationTarget.Workspace);
      await config.update('modelReview', false, vscode.ConfigurationTarget.Workspace);
      await config.update('candidates', 4, vscode.ConfigurationTarget.Workspace);
      await config.update('candidateConcurrency', 2, vscode.ConfigurationTarget.Workspace);
      outcome = await vscode.commands.executeCommand<CandidatesOutcome>('weave.agent.runCandidates');
    } finally {
      await server.close();
    }
    assert.ok(outcome, 'Run N agents returned nothing');
    const seeds = new Set(server.chatRequests().map((r) => (r.body as { seed?: number }).seed));
    assert.deepEqual(seeds, new Set([1, 2, 3, 4]), 'each candidate asked with its own seed');
    assert.deepEqual(new Set(server.chatRequests().map((r) => r.body?.model)), new Set(['scripted-model']));
    const { ranking } = outcome;
    for (const r of outcome.results) assert.equal(r.stopReason, 'finished', r.error);
    assert.deepEqual(ranking.order, [4, 1, 3, 2]);
    assert.equal(ranking.best, 4);
    assert.deepEqual(ranking.pareto, [4, 1]);
    assert.match(ranking.candidates[1]?.disqualified ?? '', /tampered/);
    assert.deepEqual(ranking.candidates[2]?.broken, ['add-works']);

    // What a person sees: the tab, its rows in rank order, the tamperer marked out and without Apply.
    const api = await weaveApi();
    const shown = api.candidateResults.current();
    assert.ok(shown?.open, 'no comparison tab');
    const tab = await until('the comparison tab among the editor tabs', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find(
          (t) =>
            t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('weave.agent.candidates'),
        ),
    );
    assert.equal(tab.label, 'Weave: 4 agents compared');
    const rows = gridRows(shown.html);
    assert.deepEqual(
      rows.map(([candidate, rank]) => [candidate, rank]),
      [
        [4, 1],
        [1, 2],
        [3, 3],
        [2, 4],
      ],
    );
    const row = new Map(rows.map(([candidate, , html]) => [candidate, html]));
    const applyLink = (k: number) =>
      `command:weave.agent.applyCandidate?${encodeURIComponent(JSON.stringify([k]))}`;
    assert.match(row.get(4) ?? '', /badge">best<.*badge">Pareto</);
    assert.match(row.get(1) ?? '', /badge">Pareto</);
    assert.match(row.get(2) ?? '', /⊘ disqualified<\/span>: refused[^<]*tampered/);
    assert.ok(!(row.get(2) ?? '').includes(applyLink(2)), 'the tamperer offers Apply');
    for (const k of [4, 1, 3])
      assert.ok((row.get(k) ?? '').includes(applyLink(k)), `cand-${k} offers no Apply`);
    assert.match(row.get(3) ?? '', /data-spec="add-works"[^>]*>✗ fail \(broken\)</);
    assert.match(row.get(3) ?? '', /data-spec="counter-increments"[^>]*>B blocked<\/td>/);
    // cand-3 breaks a constraint: its Apply is a warning that says so; the best's is the plain one.
    assert.match(row.get(3) ?? '', /<a class="button warning" [^>]*>⚠ Apply cand-3 \(breaks 1\)</);
    assert.match(row.get(4) ?? '', /<a class="button" [^>]*>Apply cand-4</);
    // The candidate column is the sticky one, in every row.
    for (const k of [4, 1, 3, 2]) assert.match(row.get(k) ?? '', /<th scope="row" class="who">cand-/);
    assert.match(row.get(4) ?? '', /data-spec="clamp-bounds"[^>]*>✓ pass</);
    assert.match(
      shown.html,
      /<li data-kind="reliability"><strong>reliability<\/strong>: cand-4 \(1\/1 passing\)/,
    );

    // Review: the candidate's diff against the user's file, its proposal a read-only weave: document.
    const proposal = await vscode.commands.executeCommand<{
      files: Array<{ path: string; resource: vscode.Uri[] }>;
    }>('weave.agent.showCandidateChanges', 4);
    assert.deepEqual(
      proposal?.files.map((f) => f.path),
      ['src/math.js'],
    );
    const [, left, right] = proposal?.files[0]?.resource ?? [];
    assert.equal(left?.toString(), math.toString(), 'the left side is the user file');
    assert.equal(right?.scheme, 'weave');
    assert.ok((await vscode.workspace.openTextDocument(right as vscode.Uri)).getText().includes(ONE_LINE));

    const mathText = await readText(math);
    const manifestBefore = await readText(manifest);
    assert.ok(mathText.includes(BUGGY), 'a candidate changed the user file before Apply');
    // The tamperer is refused by the agent result tab's rules, even when asked for by index.
    assert.equal(await vscode.commands.executeCommand('weave.agent.applyCandidate', 2), 'failed');
    assert.equal(await readText(math), mathText);
    assert.equal(await readText(manifest), manifestBefore);
    assert.equal(api.agentResults.current()?.state, 'failed');

    const second = shown.order[1];
    assert.equal(second, 1);
    assert.equal(await vscode.commands.executeCommand('weave.agent.applyCandidate', second), 'applied');
    const after = await readText(math);
    assert.ok(after.includes(THREE_LINES), 'cand-1’s change is not on disk');
    assert.ok(!after.includes(BUGGY) && !after.includes(ONE_LINE), 'not only cand-1’s change is on disk');
    assert.ok(after.includes('  return a + b;'), 'cand-3’s change leaked');
    assert.equal(await readText(manifest), manifestBefore, 'cand-2’s package.json leaked');
    assert.deepEqual(api.candidateResults.current()?.decision, { candidate: 1, decision: 'applied' });
    assert.match(api.candidateResults.current()?.html ?? '', /cand-1: applied to your files/);
    assert.equal(api.agentResults.current()?.state, 'applied');
  });

  test('"Stop agent runs" stops every candidate: the held ones end cancelled, the queued one never asks', async function () {
    this.timeout(300_000);
    // Every conversation's first request is held open: two candidates wait on the model, the third is queued.
    const held: Script[] = [1, 2, 3].map((seed) => ({
      seed,
      matches: () => true,
      steps: [{ kind: 'hold' }],
    }));
    const server = await startScriptedServer({ scripts: held });
    const config = vscode.workspace.getConfiguration('weave.agent');
    const checkoutsBefore = new Set(await sandboxCheckouts());
    let outcome: CandidatesOutcome | undefined;
    try {
      await config.update('baseUrl', server.baseURL, vscode.ConfigurationTarget.Workspace);
      await config.update('candidateModels', ['scripted-model'], vscode.ConfigurationTarget.Workspace);
      await config.update('modelReview', false, vscode.ConfigurationTarget.Workspace);
      await config.update('candidates', 3, vscode.ConfigurationTarget.Workspace);
      await config.update('candidateConcurrency', 2, vscode.ConfigurationTarget.Workspace);
      const running = vscode.commands.executeCommand<CandidatesOutcome>('weave.agent.runCandidates');
      await until(
        'two candidates waiting on the model',
        () => server.chatRequests().length >= 2 || undefined,
      );
      assert.equal(
        await vscode.commands.executeCommand('weave.agent.stop'),
        1,
        'one run (of three candidates)',
      );
      outcome = await running;
      await until('the held requests closed by the client', () => server.openSockets() === 0);
    } finally {
      await server.close();
    }
    assert.ok(outcome, 'Run N agents returned nothing');
    assert.deepEqual(
      outcome.results.map((r) => r.stopReason),
      ['cancelled', 'cancelled', 'cancelled'],
    );
    assert.equal(server.chatRequests().length, 2, 'the queued candidate asked the model after the stop');
    assert.deepEqual(
      (await sandboxCheckouts()).filter((d) => !checkoutsBefore.has(d)),
      [],
      'a candidate checkout was left behind',
    );
    assert.ok((await readText(math)).includes(BUGGY), 'a stopped candidate changed the user file');
    assert.equal(await vscode.commands.executeCommand('weave.agent.stop'), 0, 'nothing is left to stop');
  });
});

/** The standalone checkouts (sandbox/checkout.ts makes them as weave-sandbox-* in the temp folder). */
async function sandboxCheckouts(): Promise<string[]> {
  const names = await fs.readdir(os.tmpdir());
  return names.filter((n) => n.startsWith('weave-sandbox-'));
}
