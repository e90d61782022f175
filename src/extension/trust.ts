// Workspace trust: in an untrusted folder Weave shows and validates specs but executes nothing (no spec test,
// no git, no agent), because a spec's test command is arbitrary shell from the folder.
import * as vscode from 'vscode';
import { MISSING } from './commandTable';

export const UNTRUSTED_REASON = MISSING.trust;

/** A non-modal notice with a way to grant trust; resolves once the user picks or dismisses it. */
export async function explainUntrusted(): Promise<void> {
  const manage = 'Manage Workspace Trust';
  const picked = await vscode.window.showWarningMessage(UNTRUSTED_REASON, manage);
  if (picked === manage) await vscode.commands.executeCommand('workbench.trust.manage');
}
