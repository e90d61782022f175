// Review of an agent's patch in the editor: a multi-file diff (vscode.changes) between the user's files and
// temp copies with the patch applied, then Apply / Discard. The user's files change only on Apply.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRunResult } from '../../core/agent/runAgent';
import { applyAgentResult } from '../../core/agent/applyPolicy';
import { applyPatchToWorkspace, PatchApplyError } from '../../core/agent/workspacePatch';
import { parseUnifiedDiff } from '../../core/agent/unifiedDiff';

export type ReviewDecision = 'applied' | 'discarded' | 'failed';

/**
 * `autoDecision` answers the Apply / Discard question without showing it: a notification cannot be clicked
 * by the in-host tests or by scripts driving `weave.agent.runAll`. People never pass it.
 */
export async function reviewAndApply(
  folder: vscode.WorkspaceFolder,
  result: AgentRunResult,
  autoDecision?: 'apply' | 'discard',
): Promise<ReviewDecision> {
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-agent-review-'));
  try {
    const before = path.join(scratch, 'before');
    const after = path.join(scratch, 'after');
    const files = parseUnifiedDiff(result.patch);
    // Copy only the files the patch touches, then apply the patch to the copies (a plain folder: patch(1) semantics).
    for (const f of files) {
      for (const rel of [f.oldPath, f.newPath]) {
        if (!rel) continue;
        const source = path.join(folder.uri.fsPath, rel);
        for (const root of [before, after]) {
          await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
          await fs.copyFile(source, path.join(root, rel)).catch(() => undefined);
        }
      }
    }
    await applyPatchToWorkspace(after, result.patch);
    const empty = path.join(scratch, 'empty');
    await fs.writeFile(empty, '');
    const resources = files.map((f) => {
      const label = vscode.Uri.joinPath(folder.uri, f.path);
      const left = f.oldPath ? vscode.Uri.file(path.join(before, f.oldPath)) : vscode.Uri.file(empty);
      const right = f.newPath ? vscode.Uri.file(path.join(after, f.newPath)) : vscode.Uri.file(empty);
      return [label, left, right] as [vscode.Uri, vscode.Uri, vscode.Uri];
    });
    await vscode.commands.executeCommand(
      'vscode.changes',
      `Weave agent: ${result.changedFiles.length} file(s)`,
      resources,
    );

    const apply = 'Apply';
    const discard = 'Discard';
    const picked =
      autoDecision === undefined
        ? await vscode.window.showInformationMessage(
            `Apply the agent's change to ${result.changedFiles.join(', ')}?`,
            { modal: false },
            apply,
            discard,
          )
        : autoDecision === 'apply'
          ? apply
          : discard;
    if (picked !== apply) return 'discarded';
    try {
      await applyAgentResult(folder.uri.fsPath, result);
      return 'applied';
    } catch (error) {
      const message = error instanceof PatchApplyError ? error.message : String(error);
      void vscode.window.showErrorMessage(`Weave: ${message}`);
      return 'failed';
    }
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}
