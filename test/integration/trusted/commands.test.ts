// The other commands of the table: the spec graph view and "init specs" on a folder that has specs.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CheckAttempt } from '../../../src/extension/checks';
import { fixtureFilesForSuite, readText, until, weaveApi, workspaceUri } from '../helpers';

suite('graph and init commands', () => {
  fixtureFilesForSuite('.weave/specs.json');
  test('"show spec graph" opens the graph as a named webview tab, not an unsaved document', async () => {
    const untitledBefore = vscode.workspace.textDocuments.filter((d) => d.isUntitled).length;
    const panel = await vscode.commands.executeCommand<vscode.WebviewPanel | undefined>('weave.showGraph');
    assert.ok(panel, 'no graph view');
    assert.equal(panel.viewType, 'weave.graph');
    assert.equal(panel.title, 'Weave: spec graph');
    assert.ok(panel.webview.options.enableScripts);
    assert.match(panel.webview.html, /default-src 'none'/);
    assert.match(panel.webview.html, /<script nonce="[0-9a-f]{32}" src="[^"]*graphView\.js"/);
    assert.equal(vscode.workspace.textDocuments.filter((d) => d.isUntitled).length, untitledBefore);
    // A second call reveals the same tab instead of opening another.
    assert.equal(await vscode.commands.executeCommand('weave.showGraph'), panel);
    panel.dispose();
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
      const result = await vscode.commands.executeCommand<CheckAttempt>('weave.check');
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
