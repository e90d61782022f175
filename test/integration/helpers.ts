// Shared by the in-host suites: the extension's API, the fixture's files, and polling with a deadline (never
// a fixed sleep).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import type { WeaveApi } from '../../src/extension/main';
import { until } from '../support/polling';

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

export { until };

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

/**
 * Gives the suite these workspace files (paths relative to the folder) as the fixture has them, before its first
 * test and again after its last, whatever its tests edited or a failed test left behind; a path the fixture does
 * not have is deleted. So a suite file needs no other to run first, and leaves nothing for the next one.
 */
export function fixtureFilesForSuite(...paths: string[]): void {
  suiteSetup(() => restoreFixtureFiles(paths));
  suiteTeardown(() => restoreFixtureFiles(paths));
}

async function restoreFixtureFiles(paths: string[]): Promise<void> {
  const cwd = workspaceUri().fsPath;
  // The fixture is the first commit (a suite may commit on top of it).
  const fixture = execFileSync('git', ['rev-list', '--max-parents=0', 'HEAD'], {
    cwd,
    encoding: 'utf8',
  }).trim();
  for (const relative of paths) {
    const uri = workspaceUri(...relative.split('/'));
    let committed: string | undefined;
    try {
      committed = execFileSync('git', ['show', `${fixture}:${relative}`], {
        cwd,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    } catch {
      committed = undefined;
    }
    if (committed === undefined) {
      await vscode.workspace.fs.delete(uri, { recursive: true }).then(undefined, () => undefined);
      continue;
    }
    await setFileText(uri, committed);
  }
  // The next test reads the specs through Weave (the Test Explorer, diagnostics): wait until Weave re-read them.
  if (paths.includes('.weave/specs.json')) {
    const specs = await readText(workspaceUri('.weave', 'specs.json'));
    const { store } = await weaveApi();
    await until('Weave to re-read the restored specs.json', () =>
      store.current === undefined || store.current.text === specs ? true : undefined,
    );
  }
}

/**
 * Writes `text` through the editor (as editAndSave does), so the editor's copy and the disk never disagree: a
 * write behind an open document's back can make the next save of that document fail as a conflict.
 */
async function setFileText(uri: vscode.Uri, text: string): Promise<void> {
  const onDisk = await readText(uri).catch(() => undefined);
  if (onDisk === undefined) {
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    return;
  }
  const doc = await vscode.workspace.openTextDocument(uri);
  // A test may have written the file directly: let the open document catch up with the disk first.
  if (!doc.isDirty)
    await until(`the editor of ${uri.fsPath} to show the file on disk`, () => doc.getText() === onDisk);
  if (doc.getText() === text && !doc.isDirty) return;
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), text);
  assert.ok(await vscode.workspace.applyEdit(edit), `could not restore ${uri.fsPath}`);
  assert.ok(await doc.save(), `could not save ${uri.fsPath}`);
}
