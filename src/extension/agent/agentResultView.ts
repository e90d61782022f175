// The latest agent run's result in an editor tab that stays open (unlike a notification) until the user
// applies or discards the proposed change. Apply writes the patch, then re-checks the specs and says so.
import path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRunResult } from '../../core/agent/agentRunResult';
import type { CheckAttempt } from '../checks';
import { countResults, statusText } from '../views/resultText';
import { WeaveDocuments } from '../weaveDocuments';
import {
  APPLY_RESULT_COMMAND,
  DISCARD_RESULT_COMMAND,
  OPEN_PATCH_COMMAND,
  renderResultHtml,
  SHOW_CHANGES_COMMAND,
  resultHeading,
  type ResultState,
} from '../views/agentResultHtml';
import {
  applyProposal,
  prepareProposal,
  showProposal,
  withoutFile,
  type Proposal,
  type ProposedFile,
  type ReviewDecision,
} from './reviewChanges';

export const RESULT_VIEW_TYPE = 'weave.agent.result';
/** Context key: an agent's change waits for Apply / Discard (enables the two palette commands). */
const PENDING_CONTEXT = 'weave.agentResultPending';

interface Shown {
  result: AgentRunResult;
  ending: string;
  proposal: Proposal | undefined;
  state: ResultState;
}

export class AgentResultView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private shown: Shown | undefined;
  private readonly decided = new vscode.EventEmitter<ReviewDecision>();
  /** Fires when the pending change is applied, discarded or fails to apply. */
  readonly onDidDecide = this.decided.event;

  constructor(
    private readonly folder: vscode.WorkspaceFolder,
    private readonly documents: WeaveDocuments,
    private readonly recheck: () => Thenable<CheckAttempt | undefined>,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** Shows a finished run; with a patch, also its diff, and waits for Apply / Discard. */
  async show(result: AgentRunResult, ending: string): Promise<void> {
    if (this.shown?.proposal) this.documents.forget(this.shown.proposal.query);
    const proposal =
      result.patch.trim() === '' ? undefined : await prepareProposal(this.folder, result, this.documents);
    this.shown = {
      result,
      ending,
      proposal,
      state: proposal ? { kind: 'pending' } : { kind: 'nothing-to-apply' },
    };
    // The diff takes the editor; the result (with Apply / Discard) opens beside it, so both stay in view.
    if (proposal) await showProposal(proposal);
    this.render();
    await vscode.commands.executeCommand('setContext', PENDING_CONTEXT, proposal !== undefined);
  }

  /** A change still waits for a decision: never decided, or refused by a conflict (Retry, Apply per file). */
  get pending(): boolean {
    const kind = this.shown?.state.kind;
    return kind === 'pending' || kind === 'conflict';
  }

  async showChanges(onlyPath?: unknown): Promise<void> {
    const proposal = this.shown?.proposal;
    if (!proposal) {
      void vscode.window.showInformationMessage('Weave: no agent change to review.');
      return;
    }
    await showProposal(proposal, typeof onlyPath === 'string' ? onlyPath : undefined);
  }

  /** Applies the whole change, or with `onlyPath` that file's part of it (the others stay pending). */
  async apply(onlyPath?: unknown): Promise<ReviewDecision | undefined> {
    const shown = this.shown;
    if (!shown?.proposal || !this.pending) {
      void vscode.window.showInformationMessage('Weave: no agent change waits to be applied.');
      return undefined;
    }
    const only = typeof onlyPath === 'string' ? onlyPath : undefined;
    const outcome = await applyProposal(this.folder, shown.proposal, only);
    this.log.info(
      `agent run ${shown.result.runId}: patch${only ? ` of ${only}` : ''} ${outcome.kind}${outcome.kind === 'applied' ? '' : `: ${outcome.message}`}`,
    );
    if (outcome.kind === 'conflict') {
      // The result stays: the user may revert their edit and Retry, apply the files that still apply, or read
      // the patch. Apply / Discard stay enabled in the tab and the palette.
      shown.state = { ...outcome };
      this.render();
      void this.offerAfterConflict(outcome.message);
      return 'conflict';
    }
    if (outcome.kind === 'refused') {
      void vscode.window.showErrorMessage(`Weave: ${outcome.message}`);
      shown.state = { kind: 'failed', message: outcome.message };
      await this.settle('failed');
      return 'failed';
    }
    if (only !== undefined && shown.proposal.files.some((f) => f.path !== only)) {
      shown.proposal = withoutFile(shown.proposal, only);
      shown.state = { kind: 'pending' };
      this.render();
      void vscode.window.showInformationMessage(
        `Weave: applied ${only}; ${shown.proposal.files.map((f) => f.path).join(', ')} still wait${shown.proposal.files.length === 1 ? 's' : ''} in the result tab.`,
      );
      return 'applied';
    }
    shown.state = { kind: 'applied' };
    await this.settle('applied');
    // Confirm with the same checks as everywhere else: diagnostics, Test Explorer and the panel follow.
    const checked = await this.recheck();
    if (this.shown === shown) {
      shown.state = {
        kind: 'applied',
        recheck: checked?.ran
          ? `Re-checked: ${statusText(countResults(checked.outcome.run.results, checked.outcome.report))}.`
          : `Not re-checked: ${checked?.message ?? 'the check did not run'}.`,
      };
      this.render();
    }
    return 'applied';
  }

  private async offerAfterConflict(message: string): Promise<void> {
    const retry = 'Retry';
    const openPatch = 'Open patch';
    const picked = await vscode.window.showWarningMessage(`Weave: ${message}`, retry, openPatch);
    if (picked === retry) await vscode.commands.executeCommand(APPLY_RESULT_COMMAND);
    if (picked === openPatch) await this.openPatch();
  }

  /** The change still pending as a read-only `.diff` document (never Untitled, never asking to be saved). */
  async openPatch(): Promise<vscode.TextDocument | undefined> {
    const shown = this.shown;
    if (!shown?.proposal) {
      void vscode.window.showInformationMessage('Weave: no agent change to open.');
      return undefined;
    }
    const uri = WeaveDocuments.shadowOf(
      vscode.Uri.file(shown.result.patchFile),
      `${shown.proposal.query}&side=patch`,
    );
    this.documents.set(uri, shown.proposal.patch);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true });
    return doc;
  }

  async discard(): Promise<ReviewDecision | undefined> {
    const shown = this.shown;
    if (!shown?.proposal || !this.pending) return undefined;
    shown.state = { kind: 'discarded' };
    this.log.info(`agent run ${shown.result.runId}: patch discarded`);
    await this.settle('discarded');
    return 'discarded';
  }

  private async settle(decision: ReviewDecision): Promise<void> {
    this.render();
    await vscode.commands.executeCommand('setContext', PENDING_CONTEXT, false);
    this.decided.fire(decision);
  }

  private render(): void {
    const shown = this.shown;
    if (!shown) return;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        RESULT_VIEW_TYPE,
        'Weave: agent result',
        {
          viewColumn: shown.proposal ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active,
          preserveFocus: false,
        },
        {
          enableScripts: false,
          enableCommandUris: [
            APPLY_RESULT_COMMAND,
            DISCARD_RESULT_COMMAND,
            SHOW_CHANGES_COMMAND,
            OPEN_PATCH_COMMAND,
          ],
          localResourceRoots: [],
          retainContextWhenHidden: false,
        },
      );
      this.panel.onDidDispose(() => (this.panel = undefined));
    }
    this.panel.title = `Weave: ${resultHeading(shown.result)}`;
    this.panel.webview.html = renderResultHtml({
      result: shown.result,
      ending: shown.ending,
      files: shown.proposal?.files.map((f) => ({ path: f.path, status: f.status })) ?? [],
      state: shown.state,
      trajectory: path.relative(this.folder.uri.fsPath, shown.result.trajectoryFile),
    });
  }

  /** What the result tab shows (for the in-host tests and scripts): the run, its ending, files and state. */
  current():
    | {
        runId: string;
        ending: string;
        state: ResultState['kind'];
        files: ProposedFile[];
        open: boolean;
        /** The refusal in words, while a conflict keeps the result. */
        conflict?: {
          message: string;
          conflicts: ReadonlyArray<{ path: string; reason: string }>;
          applicable: readonly string[];
        };
        /** The tab's HTML as rendered last (what a person sees). */
        html: string;
      }
    | undefined {
    const shown = this.shown;
    if (!shown) return undefined;
    return {
      runId: shown.result.runId,
      ending: shown.ending,
      state: shown.state.kind,
      files: shown.proposal?.files ?? [],
      open: this.panel !== undefined,
      ...(shown.state.kind === 'conflict'
        ? {
            conflict: {
              message: shown.state.message,
              conflicts: shown.state.conflicts,
              applicable: shown.state.applicable,
            },
          }
        : {}),
      html: this.panel?.webview.html ?? '',
    };
  }

  dispose(): void {
    this.panel?.dispose();
    this.decided.dispose();
  }
}
