// Which workspace folder Weave works in. Activation decides once, here; everything that needs a folder (the spec
// store, the panel's anchors and spec file, the agent, export) is handed this one, never `workspaceFolders[0]`.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { SPEC_FILE_RELATIVE_PATH } from '../core/spec';

/** The first folder with a spec file, else the first folder (so "init specs" has somewhere to write). */
export function chooseWeaveFolder(): vscode.WorkspaceFolder | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  // One synchronous stat per folder keeps activation free of awaits.
  return (
    folders.find((f) => fs.existsSync(vscode.Uri.joinPath(f.uri, SPEC_FILE_RELATIVE_PATH).fsPath)) ??
    folders[0]
  );
}
