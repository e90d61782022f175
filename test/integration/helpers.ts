// Shared by the in-host suites: the extension's API, the fixture's files, and polling with a deadline (never
// a fixed sleep).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { WeaveApi } from '../../src/extension/main';

export const EXTENSION_ID = 'weave-dev.weave';

export async function weaveApi(): Promise<WeaveApi> {
  const ext = vscode.extensions.getExtension<WeaveApi | undefined>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed in this host`);
  const api = await ext.activate();
  assert.ok(api, 'activate() returned no API: no workspace folder?');
  return api;
}

export function workspaceUri(...segments: string[]): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'no workspace folder open');
  return vscode.Uri.joinPath(folder.uri, ...segments);
}

export async function readText(uri: vscode.Uri): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

/** 0-based line of the first line of `uri` containing `needle`, read from disk (not from the extension). */
export async function lineOf(uri: vscode.Uri, needle: string): Promise<number> {
  const line = (await readText(uri)).split('\n').findIndex((l) => l.includes(needle));
  assert.ok(line >= 0, `${needle} not found in ${uri.fsPath}`);
  return line;
}

export function weaveDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'weave');
}

export { until } from '../support/polling';

/** Replaces the first occurrence of `from` in a file through a WorkspaceEdit, then saves it (as a person would). */
export async function editAndSave(uri: vscode.Uri, from: string, to: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const offset = doc.getText().indexOf(from);
  assert.ok(offset >= 0, `${from} not in ${uri.fsPath}`);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, new vscode.Range(doc.positionAt(offset), doc.positionAt(offset + from.length)), to);
  assert.ok(await vscode.workspace.applyEdit(edit), 'edit was not applied');
  assert.ok(await doc.save(), 'save failed');
}
