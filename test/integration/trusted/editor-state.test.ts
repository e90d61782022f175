// One state in every surface while a check runs and when it is cancelled: each verdict shows in the store, the
// panel, the status count and the Test Explorer as its spec finishes (a `gate` spec holds the check open until the
// test lets it finish); a cancelled check keeps the finished verdicts and says "not run" for the rest everywhere;
// the status bar words "broken" and "failing" apart and lists each spec in one group; and a flaky spec confirmed
// by weave.check.retries is "flaky" in the editor, not "broken" (with retries 0 it is broken: the setting matters).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { CheckAttempt } from '../../../src/extension/checks';
import {
  editAndSave,
  fixtureFilesForSuite,
  readText,
  until,
  weaveApi,
  weaveDiagnostics,
  workspaceUri,
} from '../helpers';

const specsUri = workspaceUri('.weave', 'specs.json');
const math = workspaceUri('src', 'math.js');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-editor-state-'));
/** The gate spec's test waits until this file exists: the test decides when the check can end. */
const gateFile = path.join(scratch, 'gate-open');
/** wobbly passes when this file exists (and removes it), else creates it and fails: it alternates. */
const wobblyFile = path.join(scratch, 'wobbly-pass-next');

interface SpecEntry {
  id: string;
  title: string;
  kind: string;
  statement: string;
  test: { command: string; files?: string[] };
  anchors?: string[];
  dependsOn?: string[];
  interactsWith?: string[];
}

/** Steps that undo what a test changed, run after it (last first). */
const undo: Array<() => Thenable<unknown> | void> = [];

/** Replaces specs.json's text through the editor and saves it. */
async function writeSpecs(text: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(specsUri);
  if (doc.getText() === text && !doc.isDirty) return;
  const edit = new vscode.WorkspaceEdit();
  edit.replace(specsUri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
  assert.ok(await vscode.workspace.applyEdit(edit));
  // On a loaded machine a save can be given up when a save participant times out: it is asked again.
  for (let attempt = 0; attempt < 3 && doc.isDirty; attempt++) await doc.save();
  assert.equal(doc.isDirty, false, 'specs.json could not be saved');
}

/** The fixture's specs plus `extra`, written through the editor and saved (and put back after the test). */
async function withExtraSpecs(...extra: SpecEntry[]): Promise<void> {
  const text = await readText(specsUri);
  undo.push(() => writeSpecs(text));
  const file = JSON.parse(text) as { specs: SpecEntry[] };
  file.specs.push(...extra);
  await writeSpecs(JSON.stringify(file, null, 2));
  const { store } = await weaveApi();
  await until('Weave to read the extra specs', () =>
    extra.every((s) => store.valid?.result.ok && store.valid.result.specFile.specs.some((x) => x.id === s.id))
      ? true
      : undefined,
  );
}

const gateSpec: SpecEntry = {
  id: 'gate',
  title: 'waits for the test to open the gate',
  kind: 'functional',
  statement: 'The gate opens.',
  test: {
    command: `while [ ! -f '${gateFile}' ]; do sleep 0.05; done; node --test test/add.test.js`,
    files: ['test/add.test.js'],
  },
};

const wobblySpec: SpecEntry = {
  id: 'wobbly',
  title: 'passes and fails on the same tree',
  kind: 'reliability',
  statement: 'It passes every other time.',
  test: {
    command: `if [ -f '${wobblyFile}' ]; then rm '${wobblyFile}'; node --test test/add.test.js; else touch '${wobblyFile}'; exit 1; fi`,
  },
};

function git(...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=Weave Tests', '-c', 'user.email=tests@weave.invalid', ...args],
    {
      cwd: workspaceUri().fsPath,
      encoding: 'utf8',
    },
  );
}

/** Verdicts the store knows, by id. */
async function knownVerdicts(): Promise<Record<string, string>> {
  const api = await weaveApi();
  return Object.fromEntries(api.results.knownResults().results.map((r) => [r.id, r.verdict]));
}

suite('one state in every surface: live, cancelled, status wording, flaky', () => {
  fixtureFilesForSuite('.weave/specs.json', 'src/math.js');
  teardown(async () => {
    fs.rmSync(gateFile, { force: true });
    for (const step of undo.splice(0).reverse()) await step();
  });
  suiteTeardown(() => fs.rmSync(scratch, { recursive: true, force: true }));

  test('each verdict shows in the store, the panel, the status count and the Test Explorer as its spec finishes', async () => {
    const api = await weaveApi();
    await withExtraSpecs(gateSpec);
    const done = vscode.commands.executeCommand<CheckAttempt>('weave.check');
    // The other three finish while the gate holds the check open.
    await until('the fixture specs to finish while gate runs', () => {
      const { done: finished, running } = api.results.activity;
      return finished === 3 && running.includes('gate') ? true : undefined;
    });
    const verdicts = await knownVerdicts();
    assert.deepEqual(
      { a: verdicts['add-works'], c: verdicts['clamp-bounds'], n: verdicts['counter-increments'] },
      { a: 'pass', c: 'fail', n: 'pass' },
    );
    // The panel shows them, and gate as running.
    await until('the panel to show the finished verdicts', () => {
      const panel = api.panelState();
      return panel?.verdicts['add-works']?.verdict === 'pass' &&
        panel.verdicts['clamp-bounds']?.verdict === 'fail' &&
        panel.running.includes('gate')
        ? true
        : undefined;
    });
    // The status count: 2 of the 4 specs pass, 1 fails, while the fourth is checked.
    await until('the status bar to count the finished specs', () =>
      /Weave 2\/4 · 1 failing · checking 3\/4$/.test(api.statusBar().text) ? true : undefined,
    );
    // The Test Explorer's run in progress has the verdicts already.
    await until('the Test Explorer run to show the finished verdicts', () => {
      const states = api.testResults().inProgress;
      return states.get('add-works') === 'passed' && states.get('clamp-bounds') === 'failed'
        ? true
        : undefined;
    });
    assert.equal(api.testResults().inProgress.get('gate'), undefined, 'gate has no verdict yet');

    fs.writeFileSync(gateFile, '');
    const result = await done;
    assert.ok(result.ran, result.ran ? '' : result.message);
    assert.equal((await knownVerdicts()).gate, 'pass');
  });

  test('a cancelled check keeps the finished verdicts and says "not run" for the rest, in every surface', async () => {
    const api = await weaveApi();
    await withExtraSpecs(gateSpec);
    const runsBefore = api.testResults().finishedRuns;
    const abort = new AbortController();
    const done = api.checks.check({ signal: abort.signal });
    await until('the fixture specs to finish while gate runs', () => {
      const running = api.results.activity.running;
      return api.results.activity.done === 3 && running.includes('gate') ? true : undefined;
    });
    abort.abort();
    const result = await done;
    assert.equal(result.ran, false);
    assert.ok(!result.ran && result.reason === 'cancelled' && result.partial, 'no partial outcome');

    const known = Object.fromEntries(api.results.knownResults().results.map((r) => [r.id, r]));
    assert.equal(known['add-works']?.verdict, 'pass');
    assert.equal(known['clamp-bounds']?.verdict, 'fail');
    assert.equal(known.gate?.verdict, 'skipped');
    assert.match(known.gate?.reason ?? '', /^not run/);
    assert.equal(api.results.lastRun?.origin, 'cancelled');
    assert.match(api.statusBar().text, /Weave 2\/4 · 1 failing · 1 not run$/);
    assert.match(api.statusBar().tooltip, /not run: gate/);
    const panel = api.panelState();
    assert.equal(panel?.verdicts.gate?.verdict, 'skipped');
    assert.equal(panel?.verdicts['add-works']?.verdict, 'pass');
    assert.equal(panel?.lastRun?.origin, 'cancelled');
    await until('the Test Explorer run of the cancelled check to end', () =>
      api.testResults().finishedRuns > runsBefore ? true : undefined,
    );
    const states = api.testResults().states;
    assert.equal(states.get('add-works'), 'passed', 'a finished verdict was thrown away');
    assert.equal(states.get('clamp-bounds'), 'failed');
    assert.equal(states.get('gate'), 'skipped');
    assert.ok(
      weaveDiagnostics(math).some((d) => d.code === 'clamp-bounds'),
      'the finished failure lost its diagnostic',
    );
  });

  test('the status bar says "1 broken · 2 failing" and lists the broken spec under broken only', async () => {
    const api = await weaveApi();
    // A clean baseline first (the committed fixture), then a breaking edit.
    const clean = await api.checks.check();
    assert.ok(clean.ran && clean.outcome.run.clean, 'the baseline run is not clean');
    await editAndSave(math, 'return a + b;', 'return a - b;');
    undo.push(() => editAndSave(math, 'return a - b;', 'return a + b;'));
    const broken = await api.checks.check();
    assert.ok(broken.ran);
    const { text, tooltip } = api.statusBar();
    // The counts, then the newly broken spec named until the next check (#39: the news is seen without the
    // notification centre).
    assert.match(text, /Weave 0\/3 · 1 broken · 2 failing · \$\(flame\) add-works broken now$/);
    assert.match(tooltip, /broken: add-works\n/);
    assert.match(tooltip, /fail: clamp-bounds\n/);
    assert.match(tooltip, /blocked: counter-increments/);
    assert.doesNotMatch(tooltip, /fail: [^\n]*add-works/, 'the broken spec is listed under fail too');
  });

  test('weave.check.retries confirms a new failure: a flaky spec is "flaky", not broken (0 retries: broken)', async () => {
    const api = await weaveApi();
    await withExtraSpecs(wobblySpec);
    // Commit the spec so the tree is clean and its passing run becomes the baseline.
    git('add', '.weave/specs.json');
    git('commit', '-q', '-m', 'wobbly spec');
    undo.push(() => void git('reset', '-q', 'HEAD~1'));
    fs.writeFileSync(wobblyFile, '');
    // A full check: nothing else is left broken from an earlier test, so "broken" below can only be wobbly.
    const baseline = await api.checks.check();
    assert.ok(baseline.ran && baseline.outcome.run.clean);
    assert.equal(baseline.outcome.run.results.find((r) => r.id === 'wobbly')?.verdict, 'pass');
    assert.doesNotMatch(api.statusBar().text, /broken/);

    // It fails, and passes when run again (the default: one retry).
    const flaky = await api.checks.check({ only: ['wobbly'] });
    assert.ok(flaky.ran);
    assert.equal(flaky.outcome.run.results[0]?.verdict, 'flaky');
    assert.deepEqual(flaky.newlyBroken, []);
    assert.doesNotMatch(api.statusBar().text, /broken/);
    assert.match(api.statusBar().text, /1 flaky/);
    assert.match(api.statusBar().tooltip, /flaky: wobbly/);
    assert.equal(api.panelState()?.verdicts.wobbly?.verdict, 'flaky');
    assert.notEqual(api.panelState()?.changes.wobbly, 'broken');
    const diagnostic = weaveDiagnostics(specsUri).find((d) => d.code === 'wobbly');
    assert.match(diagnostic?.message ?? '', /flaky \(failed, then passed when run again \(fail, pass\)\)/);

    // Without retries the same failure is believed: broken.
    const settings = vscode.workspace.getConfiguration('weave');
    await settings.update('check.retries', 0, vscode.ConfigurationTarget.Global);
    undo.push(() => settings.update('check.retries', undefined, vscode.ConfigurationTarget.Global));
    // A passing clean run again (the flaky one is the newest clean run, and counts as failing there).
    fs.writeFileSync(wobblyFile, '');
    const passing = await api.checks.check({ only: ['wobbly'] });
    assert.ok(passing.ran && passing.outcome.run.clean);
    assert.equal(passing.outcome.run.results[0]?.verdict, 'pass');
    const believed = await api.checks.check({ only: ['wobbly'] });
    assert.ok(believed.ran);
    assert.equal(believed.outcome.run.results[0]?.verdict, 'fail');
    assert.deepEqual(believed.newlyBroken, ['wobbly']);
    assert.match(api.statusBar().text, /1 broken/);
  });
});
