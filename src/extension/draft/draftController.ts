// "Weave: draft specs" in VS Code: the core's synthesis agent (src/core/draft) with the agent's model settings and
// key, a cancellable progress notification, then the result in an editor tab like the agent's (draftResultHtml.ts:
// every kept draft with its statement, verification and test file, the rejected ones with their reasons, the set
// review) that stays until the drafts are accepted or rejected — never an Untitled document asking to be saved.
// A multi-select QuickPick offers the choice right away; dismissed, the tab keeps Accept all / Choose drafts /
// Reject all (also "Weave: Accept drafted specs" / "Weave: Reject drafted specs"). Only accepted drafts reach
// specs.json (comments kept) and the disk.
import * as vscode from 'vscode';
import { acceptDrafts, AcceptError } from '../../core/draft/accept';
import { runDraft, type DraftResult } from '../../core/draft/runDraft';
import type { KeptDraft } from '../../core/draft/types';
import { agentRunLimits, prepareAgentModel } from '../agent/agentCommands';
import type { SpecStore } from '../specStore';
import {
  ACCEPT_DRAFTS_COMMAND,
  REJECT_DRAFTS_COMMAND,
  renderDraftHtml,
  type DraftState,
} from './draftResultHtml';

export const DRAFT_RESULT_VIEW_TYPE = 'weave.draft.result';
/** Context key: drafts wait to be accepted or rejected (enables the two palette commands). */
const PENDING_CONTEXT = 'weave.draftPending';

/**
 * Optional argument of `weave.draft` for tests and scripts (the palette passes nothing): `accept` answers the
 * review without showing the QuickPick ('all' kept drafts, 'none', a list of ids, or 'later': leave them in the
 * result tab); `goal` overrides the goal.
 */
export interface DraftArgs {
  goal?: string;
  accept?: 'all' | 'none' | 'later' | string[];
}

export interface DraftOutcome {
  result: DraftResult;
  accepted: string[];
  /** What the result tab shows after the command: 'pending' waits for Accept / Reject. */
  state: DraftState['kind'];
}

export class DraftController implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private shown: { result: DraftResult; state: DraftState } | undefined;

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
    this.shown = { result, state: result.kept.length > 0 ? { kind: 'pending' } : { kind: 'nothing-kept' } };
    await this.render();
    if (result.kept.length === 0 || args.accept === 'later') return this.outcome([]);
    if (args.accept === 'none') return this.reject().then(() => this.outcome([]));
    return this.accept(args.accept ?? 'choose').then((accepted) => this.outcome(accepted));
  }

  /**
   * `weave.draft.accept`: 'all' kept drafts, a list of ids, or (from the palette or the tab) a QuickPick; a
   * dismissed QuickPick leaves them pending. Returns the ids written to specs.json.
   */
  async accept(answer: unknown = 'choose'): Promise<string[]> {
    const shown = this.shown;
    if (!shown || shown.state.kind !== 'pending') {
      void vscode.window.showInformationMessage('Weave: no drafted specs wait to be accepted.');
      return [];
    }
    const kept = shown.result.kept;
    let chosen: KeptDraft[] | undefined;
    if (answer === 'all') chosen = kept;
    else if (Array.isArray(answer)) chosen = kept.filter((k) => answer.includes(k.spec.id));
    else chosen = await this.choose(kept);
    if (chosen === undefined) return [];
    if (chosen.length === 0) {
      await this.reject();
      return [];
    }
    try {
      const accepted = await acceptDrafts(this.store.folder.uri.fsPath, chosen);
      await this.store.reload();
      vscode.window.setStatusBarMessage(
        `Weave: added ${accepted.specIds.join(', ')} to .weave/specs.json`,
        5000,
      );
      await this.settle({ kind: 'accepted', specIds: accepted.specIds });
      return accepted.specIds;
    } catch (error) {
      if (!(error instanceof AcceptError)) throw error;
      void vscode.window.showErrorMessage(`Weave: ${error.message}`);
      await this.settle({ kind: 'failed', message: error.message });
      return [];
    }
  }

  /** `weave.draft.reject`: nothing reaches specs.json or the disk. */
  async reject(): Promise<void> {
    if (this.shown?.state.kind !== 'pending') return;
    this.log.info(`draft ${this.shown.result.runId}: rejected`);
    await this.settle({ kind: 'rejected' });
  }

  /** What the result tab shows (for the in-host tests): the run, its state and whether the tab is open. */
  current(): { runId: string; state: DraftState['kind']; open: boolean; html: string } | undefined {
    if (!this.shown) return undefined;
    return {
      runId: this.shown.result.runId,
      state: this.shown.state.kind,
      open: this.panel !== undefined,
      html: this.panel?.webview.html ?? '',
    };
  }

  private outcome(accepted: string[]): DraftOutcome | undefined {
    return this.shown && { result: this.shown.result, accepted, state: this.shown.state.kind };
  }

  private async settle(state: DraftState): Promise<void> {
    if (!this.shown) return;
    this.shown.state = state;
    await this.render();
  }

  private async render(): Promise<void> {
    const shown = this.shown;
    if (!shown) return;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        DRAFT_RESULT_VIEW_TYPE,
        'Weave: drafted specs',
        { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
        {
          enableScripts: false,
          enableCommandUris: [ACCEPT_DRAFTS_COMMAND, REJECT_DRAFTS_COMMAND],
          localResourceRoots: [],
          retainContextWhenHidden: false,
        },
      );
      this.panel.onDidDispose(() => (this.panel = undefined));
    }
    this.panel.title = `Weave: drafted specs ${shown.result.runId}`;
    this.panel.webview.html = renderDraftHtml(shown.result, shown.state);
    await vscode.commands.executeCommand('setContext', PENDING_CONTEXT, shown.state.kind === 'pending');
  }

  /** The QuickPick of kept drafts; undefined when dismissed (the drafts stay pending in the tab). */
  private async choose(kept: KeptDraft[]): Promise<KeptDraft[] | undefined> {
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
    return picked?.map((p) => p.draft);
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
