// A multi-root workspace whose first folder ("notes") has no spec file and whose second ("fixture") has one:
// activation, the spec store, the panel's anchors and its spec file, and a check all use the fixture folder.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CheckAttempt } from '../../../src/extension/checks';
import { lineOf, weaveApi, weaveDiagnostics } from '../helpers';

function folderNamed(name: string): vscode.WorkspaceFolder {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.name === name);
  assert.ok(folder, `no workspace folder ${name}`);
  return folder;
}

suite('multi-root workspace', () => {
  test('the workspace has the folder without specs first', () => {
    assert.deepEqual(
      vscode.workspace.workspaceFolders?.map((f) => f.name),
      ['notes', 'fixture'],
    );
  });

  test('Weave works in the folder with the spec file', async () => {
    const api = await weaveApi();
    const fixture = folderNamed('fixture');
    assert.equal(api.folder.uri.toString(), fixture.uri.toString());
    assert.equal(
      api.store.specsUri.toString(),
      vscode.Uri.joinPath(fixture.uri, '.weave', 'specs.json').toString(),
    );
  });

  test('an anchor clicked in the panel opens the file of that folder, at the symbol', async () => {
    const api = await weaveApi();
    const math = vscode.Uri.joinPath(folderNamed('fixture').uri, 'src', 'math.js');
    await api.panel.openAnchor('src/math.js#clamp');
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.toString(), math.toString(), 'the anchor opened another folder’s file');
    assert.equal(editor.selection.start.line, await lineOf(math, 'function clamp('));
  });

  test('"check constraints" runs the fixture’s specs and puts the diagnostic in its file', async () => {
    const result = await vscode.commands.executeCommand<CheckAttempt>('weave.check');
    assert.ok(result.ran, result.ran ? '' : result.message);
    const math = vscode.Uri.joinPath(folderNamed('fixture').uri, 'src', 'math.js');
    assert.deepEqual(
      weaveDiagnostics(math).map((d) => d.code),
      ['clamp-bounds'],
    );
    assert.deepEqual(weaveDiagnostics(vscode.Uri.joinPath(folderNamed('notes').uri, 'src', 'math.js')), []);
  });
});
