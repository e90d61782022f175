// The other commands of the table: the spec graph document and "init specs" on a folder that has specs.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { readText, until, workspaceUri } from '../helpers';

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
});
