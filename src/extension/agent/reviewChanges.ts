// Review of an agent's patch in the editor: each changed file's proposed version is a read-only `weave:`
// document with the file's own path (so the multi-file diff shows `src/math.js`, not a temp path marked as
// renamed), diffed against the user's file. The user's files change only on Apply.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRunResult } from '../../core/agent/agentRunResult';
import { applyRefusal } from '../../core/agent/applyPolicy';
import { parseUnifiedDiff, type FileDiff } from '../../core/agent/unifiedDiff';
import { splitPatchByFile } from '../../core/agent/patchConflicts';
import { applyPatchToWorkspace, PatchApplyError } from '../../core/agent/workspacePatch';
import { WeaveDocuments } from '../weaveDocuments';

/** 'conflict': refused because the user's files changed; the result stays pending (Retry, Apply per file). */
export type ReviewDecision = 'applied' | 'discarded' | 'failed' | 'conflict';

export type ApplyOutcome =
  | { kind: 'applied' }
  /** Never applicable (tampering, review violations), or the file is not part of the change. */
  | { kind: 'refused'; message: string }
  | {
      kind: 'conflict';
      message: string;
      conflicts: ReadonlyArray<{ path: string; reason: string }>;
      applicable: readonly string[];
    };

export interface ProposedFile {
  /** Workspace-relative path (the new one for a rename). */
  path: string;
  status: FileDiff['status'];
  /** [label, left, right] as `vscode.changes` takes them. */
  resource: [vscode.Uri, vscode.Uri, vscode.Uri];
}

export interface Proposal {
  runId: string;
  patch: string;
  files: ProposedFile[];
  /** The query that marks this run's `weave:` documents. */
  query: string;
  /** Why this result may never be applied (tampering, review violations), when so. */
  refusal?: string;
}

/** Computes every changed file's proposed content (patch applied to copies in a scratch folder, then removed). */
export async function prepareProposal(
  folder: vscode.WorkspaceFolder,
  result: AgentRunResult,
  documents: WeaveDocuments,
  /** Marks the documents: another view of the same run (the candidates tab) keeps its own copies. */
  query = `agent=${encodeURIComponent(result.runId)}`,
): Promise<Proposal> {
  const diffs = parseUnifiedDiff(result.patch);
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-agent-review-'));
  try {
    // Copy only the files the patch touches, then apply the patch to the copies (patch(1) semantics).
    for (const f of diffs) {
      if (!f.oldPath) continue;
      await fs.mkdir(path.dirname(path.join(scratch, f.oldPath)), { recursive: true });
      await fs
        .copyFile(path.join(folder.uri.fsPath, f.oldPath), path.join(scratch, f.oldPath))
        .catch(() => undefined);
    }
    await applyPatchToWorkspace(scratch, result.patch);
    const files: ProposedFile[] = [];
    for (const f of diffs) {
      const oldUri = f.oldPath ? vscode.Uri.joinPath(folder.uri, f.oldPath) : undefined;
      const newUri = vscode.Uri.joinPath(folder.uri, f.newPath ?? f.path);
      const after = f.newPath ? await fs.readFile(path.join(scratch, f.newPath), 'utf8').catch(() => '') : '';
      const right = WeaveDocuments.shadowOf(newUri, query);
      documents.set(right, after);
      let left = oldUri;
      if (!left || f.status === 'added') {
        left = WeaveDocuments.shadowOf(newUri, `${query}&side=empty`);
        documents.set(left, '');
      }
      files.push({ path: f.path, status: f.status, resource: [newUri, left, right] });
    }
    const refusal = applyRefusal(result);
    return { runId: result.runId, patch: result.patch, files, query, ...(refusal ? { refusal } : {}) };
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** The multi-file diff of the whole proposal, or of one file's change. */
export async function showProposal(
  proposal: Proposal,
  onlyPath?: string,
  title = 'Weave agent',
): Promise<void> {
  const files = onlyPath ? proposal.files.filter((f) => f.path === onlyPath) : proposal.files;
  const [single] = files;
  if (onlyPath && single) {
    await vscode.commands.executeCommand(
      'vscode.diff',
      single.resource[1],
      single.resource[2],
      `${single.path} (agent's proposal)`,
      { preview: true },
    );
    return;
  }
  await vscode.commands.executeCommand(
    'vscode.changes',
    // VS Code adds the file count itself ("… (1 file)"): a count here too read "1 file (1 file)".
    `${title}: proposed changes`,
    files.map((f) => f.resource),
  );
}

/** The patch of the files the proposal still holds except `path` (after that file was applied on its own). */
export function withoutFile(proposal: Proposal, path: string): Proposal {
  return {
    ...proposal,
    patch: splitPatchByFile(proposal.patch)
      .filter((f) => f.path !== path)
      .map((f) => f.patch)
      .join(''),
    files: proposal.files.filter((f) => f.path !== path),
  };
}

/** Applies the whole proposal, or only `onlyPath`'s part of it; says in words why not when it is refused. */
export async function applyProposal(
  folder: vscode.WorkspaceFolder,
  proposal: Proposal,
  onlyPath?: string,
): Promise<ApplyOutcome> {
  // Tampered runs and review violations are never applied (core/agent/applyPolicy.ts): no override.
  if (proposal.refusal !== undefined) return { kind: 'refused', message: proposal.refusal };
  let patch = proposal.patch;
  if (onlyPath !== undefined) {
    const part = splitPatchByFile(proposal.patch).find((f) => f.path === onlyPath);
    if (!part) return { kind: 'refused', message: `${onlyPath} is not part of the agent's change.` };
    patch = part.patch;
  }
  try {
    await applyPatchToWorkspace(folder.uri.fsPath, patch);
    return { kind: 'applied' };
  } catch (error) {
    if (!(error instanceof PatchApplyError)) throw error;
    if (error.conflicts.length === 0) return { kind: 'refused', message: error.message };
    return {
      kind: 'conflict',
      message: error.message,
      conflicts: error.conflicts,
      applicable: error.applicable,
    };
  }
}
