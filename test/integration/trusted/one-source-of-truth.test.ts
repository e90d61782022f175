// One source of truth for results: a palette check is a Test Explorer run too, "check affected" after a revert
// clears the stale "broken", "Explain broken spec" puts blame's answer at the breaking edit, and specs.json is
// JSON with comments whose syntax errors are reported once.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import type { CheckAttempt } from '../../../src/extension/checks';
import type { BlameResult } from '../../../src/core/blame/blame';
import type { TestState } from '../../../src/extension/testRunRecord';
import {
  editAndSave,
  fixtureFilesForSuite,
  lineOf,
  until,
  weaveApi,
  weaveDiagnostics,
  workspaceUri,
} from '../helpers';

const math = workspaceUri('src', 'math.js');
const specs = workspaceUri('.weave', 'specs.json');

/** What the Test Explorer must say for a check's result. */
function expectedState(result: Extract<CheckAttempt, { ran: true }>, id: string): TestState | undefined {
  const r = result.outcome.run.results.find((x) => x.id === id);
  if (!r) return undefined;
  const broken = result.outcome.report.changes[id] === 'broken';
  if (r.verdict === 'pass' && !broken) return 'passed';
  if (r.verdict === 'error') return 'errored';
  if (r.verdict === 'blocked' || r.verdict === 'skipped') return 'skipped';
  return 'failed';
}

async function checkFromPalette(command = 'weave.check'): Promise<Extract<CheckAttempt, { ran: true }>> {
  const api = await weaveApi();
  const runsBefore = api.testResults().finishedRuns;
  const result = await vscode.commands.executeCommand<CheckAttempt>(command);
  assert.ok(result.ran, result.ran ? '' : result.message);
  await until('the check to appear as a Test Explorer run', () =>
    api.testResults().finishedRuns > runsBefore ? true : undefined,
  );
  return result;
}

suite('one source of truth for results', () => {
  fixtureFilesForSuite('src/math.js', '.weave/specs.json');
  const undo: Array<() => Promise<void>> = [];
  teardown(async () => {
    for (const step of undo.splice(0).reverse()) await step();
  });

  test('a palette check is a Test Explorer run with the verdicts the diagnostics and the store show', async () => {
    const api = await weaveApi();
    const result = await checkFromPalette();
    const states = api.testResults().states;
    const known = api.results.knownResults();
    for (const r of result.outcome.run.results) {
      assert.equal(states.get(r.id), expectedState(result, r.id), `Test Explorer state of ${r.id}`);
      assert.equal(known.results.find((k) => k.id === r.id)?.verdict, r.verdict, `store verdict of ${r.id}`);
      const diagnosed = weaveDiagnostics(math).some((d) => d.code === r.id);
      const violated = states.get(r.id) === 'failed' || states.get(r.id) === 'errored';
      if (r.id !== 'counter-increments') assert.equal(diagnosed, violated, `diagnostic of ${r.id}`);
    }
  });

  test('after reverting a breaking edit, "check affected" clears the stale broken everywhere', async () => {
    const api = await weaveApi();
    // The suite starts from the committed file: then, after the revert, no file differs from HEAD and only the
    // stale verdict can bring add-works into "check affected".
    await editAndSave(math, 'return a + b;', 'return a - b;');
    undo.push(() => editAndSave(math, 'return a - b;', 'return a + b;').catch(() => undefined));
    const broken = await checkFromPalette('weave.checkAffected');
    assert.deepEqual(broken.newlyBroken, ['add-works']);
    assert.equal(api.testResults().states.get('add-works'), 'failed');
    assert.ok(weaveDiagnostics(math).some((d) => d.code === 'add-works'));

    // Revert: no changed file points at add-works any more, yet it must be re-checked.
    await editAndSave(math, 'return a - b;', 'return a + b;');
    undo.pop();
    const changed = execFileSync('git', ['status', '--porcelain', '--', 'src', 'test'], {
      cwd: workspaceUri().fsPath,
      encoding: 'utf8',
    });
    assert.equal(changed, '', 'the code differs from HEAD');
    const reverted = await checkFromPalette('weave.checkAffected');
    assert.ok(reverted.outcome.run.specIds.includes('add-works'), reverted.outcome.run.specIds.join(', '));
    assert.equal(reverted.newlyBroken.length, 0);
    assert.equal(api.testResults().states.get('add-works'), 'passed');
    assert.ok(!weaveDiagnostics(math).some((d) => d.code === 'add-works'), 'the broken diagnostic stayed');
    const known = api.results.knownResults();
    assert.equal(known.results.find((r) => r.id === 'add-works')?.verdict, 'pass');
    assert.notEqual(known.changes['add-works'], 'broken');
  });

  test('"Explain broken spec" is a quick fix that puts blame\'s answer at the breaking edit', async () => {
    await editAndSave(math, 'return a + b;', 'return a - b;');
    undo.push(() => editAndSave(math, 'return a - b;', 'return a + b;'));
    await checkFromPalette();
    const diagnostic = weaveDiagnostics(math).find((d) => d.code === 'add-works');
    assert.ok(diagnostic, 'add-works is not diagnosed as broken');

    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      math,
      diagnostic.range,
    );
    const explain = actions.find((a) => a.title === 'Explain why add-works broke');
    assert.ok(explain?.command, `quick fixes: ${actions.map((a) => a.title).join(', ') || 'none'}`);
    assert.equal(explain.kind?.value, vscode.CodeActionKind.QuickFix.value);
    // clamp-bounds never passed (the fixture's bug): there is no "broke" to explain, so no such quick fix.
    const clamp = weaveDiagnostics(math).find((d) => d.code === 'clamp-bounds');
    assert.ok(clamp, 'clamp-bounds is not diagnosed');
    const onClamp = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      math,
      clamp.range,
    );
    assert.deepEqual(
      onClamp.filter((a) => a.title.startsWith('Explain why')).map((a) => a.title),
      [],
      'a spec that never passed is offered "Explain why … broke"',
    );

    const blame = await vscode.commands.executeCommand<BlameResult | undefined>(
      explain.command.command,
      ...(explain.command.arguments ?? []),
    );
    assert.ok(blame, 'blame returned nothing');
    assert.deepEqual(
      blame.hunks.map((h) => h.file),
      ['src/math.js'],
    );
    const editLine = await lineOf(math, 'return a - b;');
    const atHunk = vscode.languages.getDiagnostics(math).filter((d) => d.source === 'weave blame');
    assert.equal(atHunk.length, 1, atHunk.map((d) => d.message).join(' | '));
    const [hunk] = atHunk;
    assert.ok(hunk);
    assert.ok(
      hunk.range.start.line <= editLine && editLine <= hunk.range.end.line,
      `blame diagnostic at lines ${hunk.range.start.line}-${hunk.range.end.line}, the edit is on ${editLine}`,
    );
    assert.match(hunk.message, /^\[add-works\] the edit to .*src\/math\.js.* breaks add-works \(since /);
    assert.doesNotMatch(hunk.message, /`/, 'raw Markdown backticks in a plain-text diagnostic');
    const anchor = hunk.relatedInformation?.find((r) => r.message.startsWith('anchor of add-works'));
    assert.equal(anchor?.location.uri.toString(), math.toString());
    assert.equal(anchor?.location.range.start.line, await lineOf(math, 'function add('));
    assert.ok(hunk.relatedInformation?.some((r) => r.location.uri.toString() === specs.toString()));
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), math.toString());
  });

  test('specs.json opens as JSON with comments, and a syntax error is reported once', async () => {
    const doc = await vscode.workspace.openTextDocument(specs);
    assert.equal(doc.languageId, 'jsonc');
    const api = await weaveApi();
    const editor = await vscode.window.showTextDocument(doc);
    const original = doc.getText();
    const at = original.indexOf('"specs"');
    await editor.edit((e) => e.insert(doc.positionAt(at), '"broken": ,\n  '));
    try {
      // Weave still reports what only it knows; VS Code's JSON service owns the syntax error.
      await until('Weave to re-parse the edited file', () =>
        api.store.current?.text.includes('"broken": ,') ? true : undefined,
      );
      assert.ok(api.store.current && !api.store.current.result.ok);
      const weaveSyntax = api.diagnosticsFor(specs).filter((d) => /syntax error/.test(d.message));
      assert.deepEqual(
        weaveSyntax.map((d) => d.message),
        [],
      );
    } finally {
      await editor.edit((e) =>
        e.replace(new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), original),
      );
      await doc.save();
    }
  });
});
