// Applies the panel's add / update / remove messages to `.weave/specs.json`: re-validated against the file as
// it is now (the webview validated against what it last saw), applied as one WorkspaceEdit on the document the
// user sees (so it is undoable and keeps unsaved changes), then saved so the engine and the CLI see it too.
import * as vscode from 'vscode';
import { parse } from 'jsonc-parser';
import type { ToExtension } from '../../shared/protocol';
import { validateSpecDraft, type SpecNeighbour } from '../../shared/specDraft';
import {
  addSpecEdit,
  removeSpecEdit,
  SpecEditError,
  updateSpecEdit,
  type SpecTextEdit,
} from '../../core/spec';

export type SpecEditMessage = ToExtension<'addSpec' | 'updateSpec' | 'removeSpec'>;

/** What the panel writes when the folder has no spec file yet. */
const NEW_SPEC_FILE = '{\n  "version": 1,\n  "goal": "",\n  "specs": []\n}\n';

/** Throws SpecEditError (a message for the user) when the edit cannot be made; specs.json is then untouched. */
export async function applySpecEditMessage(message: SpecEditMessage, specFile: vscode.Uri): Promise<void> {
  if (!(await exists(specFile))) {
    const create = new vscode.WorkspaceEdit();
    create.createFile(specFile, { ignoreIfExists: true, contents: new TextEncoder().encode(NEW_SPEC_FILE) });
    if (!(await vscode.workspace.applyEdit(create))) throw new Error(`could not create ${specFile.fsPath}`);
  }
  const document = await vscode.workspace.openTextDocument(specFile);
  const change = specEditFor(message, document.getText());
  const edit = new vscode.WorkspaceEdit();
  const range = new vscode.Range(
    document.positionAt(change.offset),
    document.positionAt(change.offset + change.length),
  );
  edit.replace(specFile, range, change.content);
  if (!(await vscode.workspace.applyEdit(edit)))
    throw new Error('VS Code did not apply the edit to specs.json');
  if (!(await document.save())) throw new Error('specs.json was edited but could not be saved');
}

function specEditFor(message: SpecEditMessage, text: string): SpecTextEdit {
  if (message.type === 'removeSpec') return removeSpecEdit(text, message.id);
  const originalId = message.type === 'updateSpec' ? message.id : undefined;
  const checked = validateSpecDraft(message.spec, specNeighbours(text), originalId);
  if (!checked.ok) throw new SpecEditError(checked.issues.map((i) => `${i.field}: ${i.message}`).join('; '));
  return originalId === undefined
    ? addSpecEdit(text, checked.spec)
    : updateSpecEdit(text, originalId, checked.spec);
}

/** The specs as the file has them now (not as last loaded): the rules must see what the edit lands on. */
function specNeighbours(text: string): SpecNeighbour[] {
  const root: unknown = parse(text, [], { allowTrailingComma: true });
  const specs = typeof root === 'object' && root !== null ? (root as { specs?: unknown }).specs : undefined;
  if (!Array.isArray(specs)) return [];
  return specs.flatMap((s: unknown) => {
    if (typeof s !== 'object' || s === null) return [];
    const { id, dependsOn, anchors } = s as { id?: unknown; dependsOn?: unknown; anchors?: unknown };
    if (typeof id !== 'string') return [];
    const strings = (v: unknown): string[] =>
      Array.isArray(v) ? v.filter((d): d is string => typeof d === 'string') : [];
    return [{ id, dependsOn: strings(dependsOn), anchors: strings(anchors) }];
  });
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
