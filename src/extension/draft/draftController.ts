// "Weave: draft specs" in VS Code: the core's synthesis agent (src/core/draft) with the agent's model settings and
// key, a cancellable progress notification, then a review: a Markdown document with every kept draft (statement,
// its test file as a diff, its verification), the rejected ones with their reasons and the set review, and a
// multi-select QuickPick to accept drafts. Only accepted drafts reach specs.json (comments kept) and the disk.
import * as vscode from 'vscode';
import { acceptDrafts, AcceptError } from '../../core/draft/accept';
import { runDraft, type DraftResult } from '../../core/draft/runDraft';
import type { KeptDraft } from '../../core/draft/types';
import { agentRunLimits, prepareAgentModel } from '../agent/agentCommands';
import type { SpecStore } from '../specStore';

/**
 * Optional argument of `weave.draft` for tests and scripts (the palette passes nothing): `accept` answers the
 * review without showing the QuickPick ('all' kept drafts, 'none', or a list of ids); `goal` overrides the goal.
 */
export interface DraftArgs {
  goal?: string;
  accept?: 'all' | 'none' | string[];
}

export interface DraftOutcome {
  result: DraftResult;
  accepted: string[];
}

export class DraftController {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly store: SpecStore,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  async run(args: DraftArgs = {}): Promise<DraftOutcome | undefined> {
    const prepared = await prepareAgentModel(this.context, { store: this.store, log: this.log });
    if (!prepared) return undefined;
    const { settings } = prepared;
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Weave: drafting specs', cancellable: true },
      (progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        return runDraft({
          workspaceDir: this.store.folder.uri.fsPath,
          client: prepared.client,
          ...(args.goal !== undefined ? { goal: args.goal } : {}),
          ...agentRunLimits(prepared),
          modelReview: settings.modelReview,
          signal: abort.signal,
          onProgress: (e) => {
            const text = e.type === 'step' ? `step ${e.step}/${e.maxSteps}` : e.message.split('\n')[0]!;
            this.log.info(`draft: ${text}`);
            progress.report({ message: text });
          },
        });
      },
    );
    if (result.error) this.log.warn(`draft: ${result.error}`);
    const doc = await vscode.workspace.openTextDocument({
      language: 'markdown',
      content: draftReview(result),
    });
    await vscode.window.showTextDocument(doc, { preview: true });
    const chosen = await this.choose(result.kept, args.accept);
    if (chosen.length === 0) return { result, accepted: [] };
    try {
      const accepted = await acceptDrafts(this.store.folder.uri.fsPath, chosen);
      await this.store.reload();
      vscode.window.setStatusBarMessage(
        `Weave: added ${accepted.specIds.join(', ')} to .weave/specs.json`,
        5000,
      );
      return { result, accepted: accepted.specIds };
    } catch (error) {
      if (!(error instanceof AcceptError)) throw error;
      void vscode.window.showErrorMessage(`Weave: ${error.message}`);
      return { result, accepted: [] };
    }
  }

  private async choose(kept: KeptDraft[], answer: DraftArgs['accept']): Promise<KeptDraft[]> {
    if (answer === 'all') return kept;
    if (answer === 'none' || kept.length === 0) return [];
    if (Array.isArray(answer)) return kept.filter((k) => answer.includes(k.spec.id));
    const picked = await vscode.window.showQuickPick(
      kept.map((k) => ({
        label: k.spec.id,
        description: k.verification.goal ? 'goal (fails now by an assertion)' : 'constraint (passes)',
        detail: k.spec.statement,
        picked: true,
        draft: k,
      })),
      {
        canPickMany: true,
        title: 'Weave: accept which drafts? (the others are rejected)',
        ignoreFocusOut: true,
      },
    );
    return picked?.map((p) => p.draft) ?? [];
  }
}

/** The review document: every kept draft with its test file diff and verification, then the rejections. */
export function draftReview(result: DraftResult): string {
  const out: string[] = ['# Weave: drafted specs', ''];
  out.push(
    `${result.kept.length} kept, ${result.rejected.length} rejected (stopped: ${result.stopReason}).`,
    '',
  );
  for (const k of result.kept) {
    const v = k.verification;
    out.push(`## ${k.spec.id} — ${k.spec.title}`, '');
    out.push(
      `*${k.spec.kind}${v.goal ? ', a goal: its test fails by an assertion on the current code' : ', a constraint: its test passes'}*`,
      '',
    );
    out.push(`> ${k.spec.statement}`, '');
    out.push(
      `Verification: ${v.tests} test(s) by ${v.runner}, verdicts ${v.repeats.join(' / ')}` +
        (v.killedExample ? `, kills the mutant ${v.killedExample}` : '') +
        `. Test: \`${k.spec.test.command}\`; anchors: ${k.spec.anchors.join(', ')}.`,
      '',
    );
    for (const t of k.testFiles) {
      out.push(
        '```diff',
        `--- /dev/null`,
        `+++ b/${t.path}`,
        ...t.content
          .replace(/\n$/, '')
          .split('\n')
          .map((l) => `+${l}`),
        '```',
        '',
      );
    }
  }
  if (result.rejected.length > 0) {
    out.push('## Rejected', '');
    for (const r of result.rejected) out.push(`- **${r.id}** (${r.stage}): ${r.reason.split('\n')[0]}`);
    out.push('');
  }
  const review = result.review;
  out.push('## Review of the set', '');
  for (const g of review.uncoveredGoalParts) out.push(`- goal not covered (${g.source}): ${g.text}`);
  for (const e of review.missingEdges)
    out.push(`- undeclared interaction ${e.a} ↔ ${e.b} (${e.source}): ${e.why}`);
  for (const c of review.contradictions) out.push(`- contradiction ${c.a} ↔ ${c.b} (${c.source}): ${c.why}`);
  if (review.uncoveredGoalParts.length + review.missingEdges.length + review.contradictions.length === 0)
    out.push('- nothing to report');
  return out.join('\n') + '\n';
}
