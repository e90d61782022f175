// The other commands of the table: the spec graph document and "init specs" on a folder that has specs.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CheckResult } from '../../../src/extension/checks';
import { readText, until, weaveApi, workspaceUri } from '../helpers';

suite('graph and init commands', () => {
  test('"show spec graph" opens a Mermaid graph of the specs with their edges and verdicts', async () => {
    const doc = await vscode.commands.executeCommand<vscode.TextDocument | undefined>('weave.showGraph');
    assert.ok(doc, 'no graph document was opened');
    assert.equal(doc.languageId, 'markdown');
    const editor = await until('the graph document in an editor', () =>
      vscode.window.visibleTextEditors.find((e) => e.document === doc),
    );
    const text = editor.document.getText();
    assert.match(text, /```mermaid\ngraph LR/);
    assert.match(text, /s_counter_increments -->\|depends on\| s_add_works/);
    assert.match(
      text,
      /s_clamp_bounds -.-\|interacts\| s_add_works|s_add_works -.-\|interacts\| s_clamp_bounds/,
    );
    assert.match(text, /class s_clamp_bounds fail/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('"init specs" on a folder that has specs opens them and changes nothing', async () => {
    const specs = workspaceUri('.weave', 'specs.json');
    const before = await readText(specs);
    await vscode.commands.executeCommand('weave.init');
    await until('specs.json in the editor', () =>
      vscode.window.activeTextEditor?.document.uri.toString() === specs.toString() ? true : undefined,
    );
    assert.equal(await readText(specs), before);
  });

  test('a check with unsaved changes in specs.json runs nothing and asks to save', async () => {
    const specs = workspaceUri('.weave', 'specs.json');
    const api = await weaveApi();
    const previous = api.lastRun()?.run.id;
    const doc = await vscode.workspace.openTextDocument(specs);
    const title = 'add returns the sum';
    const offset = doc.getText().indexOf(title);
    const range = new vscode.Range(doc.positionAt(offset), doc.positionAt(offset + title.length));
    const edit = new vscode.WorkspaceEdit();
    edit.replace(specs, range, 'add returns the total');
    assert.ok(await vscode.workspace.applyEdit(edit));
    try {
      const result = await vscode.commands.executeCommand<CheckResult>('weave.check');
      assert.equal(result.ran, false);
      assert.ok(!result.ran && result.reason === 'unsaved-specs');
      assert.equal(api.lastRun()?.run.id, previous);
    } finally {
      const undo = new vscode.WorkspaceEdit();
      undo.replace(
        specs,
        new vscode.Range(range.start, range.start.translate(0, 'add returns the total'.length)),
        title,
      );
      assert.ok(await vscode.workspace.applyEdit(undo));
      await doc.save();
    }
  });
});
