// "Weave: check constraints" on the fixture: diagnostics at the anchored code, with the right text; fixing the
// code clears them; breaking a passing spec shows it as broken against the clean baseline.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CheckAttempt } from '../../../src/extension/checks';
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

suite('check constraints', () => {
  fixtureFilesForSuite('src/math.js', '.weave/specs.json');
  // Edits a failed test must still undo, so the next test starts from the fixture's state.
  const teardownEdits: Array<() => Promise<void>> = [];
  teardown(async () => {
    for (const undo of teardownEdits.splice(0)) await undo();
  });

  test('a check puts the failing spec at its anchored function, with id, title, verdict and failure', async () => {
    const result = await vscode.commands.executeCommand<CheckAttempt>('weave.check');
    assert.equal(result.ran, true, result.ran ? '' : result.message);
    const diagnostics = weaveDiagnostics(math);
    assert.equal(
      diagnostics.length,
      1,
      `diagnostics on math.js: ${diagnostics.map((d) => d.message).join(' | ')}`,
    );
    const [d] = diagnostics;
    assert.ok(d);
    assert.equal(d.range.start.line, await lineOf(math, 'function clamp('));
    assert.equal(d.code, 'clamp-bounds');
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    assert.match(d.message, /^\[clamp-bounds\] clamp keeps values inside the bounds — fail: /);
    // The excerpt is the test's own assertion message, not the runner's bookkeeping.
    // TAP (`not ok 1 - …` then the message, Node 20's non-terminal default) or, from Node 23 on, the spec
    // reporter's message first (without its "AssertionError [ERR_ASSERTION]: " prefix).
    assert.match(
      d.message,
      /— fail: (not ok 1 - clamp keeps values inside the bounds\n.*)?clamp\(15, 0, 10\) must be 10/,
    );
    assert.doesNotMatch(d.message, /duration_ms|location:|ERR_ASSERTION|generatedMessage/);
  });

  test('the diagnostic links to the spec in specs.json and to the spec it interacts with', async () => {
    const [d] = weaveDiagnostics(math);
    assert.ok(d?.relatedInformation);
    const specsText = (await vscode.workspace.openTextDocument(specs)).getText().split('\n');
    const own = d.relatedInformation.find((r) => r.message.includes('spec clamp-bounds'));
    assert.ok(own, 'no link to the spec entry');
    assert.equal(own.location.uri.toString(), specs.toString());
    assert.match(specsText[own.location.range.start.line] ?? '', /"id": "clamp-bounds"/);
    const other = d.relatedInformation.find((r) => r.message.startsWith('interacts with add-works'));
    assert.ok(other, 'no link to add-works');
    assert.match(specsText[other.location.range.start.line] ?? '', /"id": "add-works"/);
    assert.match(other.message, /pass/);
  });

  test('passing specs have no diagnostics', () => {
    assert.deepEqual(weaveDiagnostics(workspaceUri('src', 'counter.js')), []);
    const onSpecs = weaveDiagnostics(specs);
    assert.deepEqual(
      onSpecs.map((d) => d.message),
      [],
    );
  });

  test('fixing the code and re-checking clears the diagnostic', async () => {
    await editAndSave(math, 'return Math.max(low, value);', 'return Math.min(high, Math.max(low, value));');
    const result = await vscode.commands.executeCommand<CheckAttempt>('weave.check');
    assert.equal(result.ran, true);
    assert.deepEqual(weaveDiagnostics(math), []);
  });

  test('breaking a passing spec reports it as broken against the clean baseline', async () => {
    // The first check ran on the committed (clean) tree, so it is the baseline: add-works passed there.
    await editAndSave(math, 'return a + b;', 'return a - b;');
    teardownEdits.push(() => editAndSave(math, 'return a - b;', 'return a + b;'));
    const result = await vscode.commands.executeCommand<CheckAttempt>('weave.check');
    assert.equal(result.ran, true);
    const broken = weaveDiagnostics(math).find((d) => d.code === 'add-works');
    assert.ok(broken, 'no diagnostic for add-works');
    assert.equal(broken.range.start.line, await lineOf(math, 'function add('));
    assert.match(broken.message, /^\[add-works\] add returns the sum — broken by changes since [0-9a-f]{7}/);
    // counter-increments depends on add-works: blocked, shown as information at its anchor.
    const blocked = weaveDiagnostics(workspaceUri('src', 'counter.js'));
    assert.equal(blocked[0]?.code, 'counter-increments');
    assert.equal(blocked[0]?.severity, vscode.DiagnosticSeverity.Information);
    assert.match(blocked[0]?.message ?? '', /^\[counter-increments\] .* — blocked/);
  });

  test('invalid specs get located diagnostics in specs.json as they are typed, and clear when fixed', async () => {
    const api = await weaveApi();
    const doc = await vscode.workspace.openTextDocument(specs);
    await vscode.window.showTextDocument(doc);
    const offset = doc.getText().indexOf('"kind": "interface"');
    const edit = new vscode.WorkspaceEdit();
    const range = new vscode.Range(
      doc.positionAt(offset),
      doc.positionAt(offset + '"kind": "interface"'.length),
    );
    edit.replace(specs, range, '"kind": "interfaces"');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const problem = await until('a diagnostic on the bad kind', () =>
      api.diagnosticsFor(specs).find((d) => /kind/.test(d.message)),
    );
    assert.equal(problem.range.start.line, doc.positionAt(offset).line);
    assert.ok(vscode.languages.getDiagnostics(specs).some((d) => d.message === problem.message));
    const undo = new vscode.WorkspaceEdit();
    undo.replace(
      specs,
      new vscode.Range(range.start, range.start.translate(0, '"kind": "interfaces"'.length)),
      '"kind": "interface"',
    );
    assert.ok(await vscode.workspace.applyEdit(undo));
    await until('the problem to clear', () =>
      api.diagnosticsFor(specs).some((d) => /kind/.test(d.message)) ? undefined : true,
    );
    await doc.save();
  });
});
