// The latest agent run's result in an editor tab that stays open (unlike a notification) until the user
// applies or discards the proposed change. Apply writes the patch, then re-checks the specs and says so.
import path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRunResult } from '../../core/agent/agentRunResult';
import type { CheckAttempt } from '../checks';
import { countResults, statusText } from '../views/resultText';
import type { WeaveDocuments } from '../weaveDocuments';
import {
  APPLY_RESULT_COMMAND,
  DISCARD_RESULT_COMMAND,
  renderResultHtml,
  SHOW_CHANGES_COMMAND,
  type ResultState,
} from '../views/agentResultHtml';
import {
  applyProposal,
  prepareProposal,
  showProposal,
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

  get pending(): boolean {
    return this.shown?.state.kind === 'pending';
  }

  async showChanges(onlyPath?: unknown): Promise<void> {
    const proposal = this.shown?.proposal;
    if (!proposal) {
      void vscode.window.showInformationMessage('Weave: no agent change to review.');
      return;
    }
    await showProposal(proposal, typeof onlyPath === 'string' ? onlyPath : undefined);
  }

  async apply(): Promise<ReviewDecision | undefined> {
    const shown = this.shown;
    if (!shown?.proposal || shown.state.kind !== 'pending') {
      void vscode.window.showInformationMessage('Weave: no agent change waits to be applied.');
      return undefined;
    }
    const decision = await applyProposal(this.folder, shown.proposal);
    this.log.info(`agent run ${shown.result.runId}: patch ${decision}`);
    shown.state =
      decision === 'applied' ? { kind: 'applied' } : { kind: 'failed', message: 'see the error message' };
    await this.settle(decision);
    if (decision === 'applied') {
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
    }
    return decision;
  }

  async discard(): Promise<ReviewDecision | undefined> {
    const shown = this.shown;
    if (!shown?.proposal || shown.state.kind !== 'pending') return undefined;
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
          enableCommandUris: [APPLY_RESULT_COMMAND, DISCARD_RESULT_COMMAND, SHOW_CHANGES_COMMAND],
          localResourceRoots: [],
          retainContextWhenHidden: false,
        },
      );
      this.panel.onDidDispose(() => (this.panel = undefined));
    }
    this.panel.title = `Weave: agent result ${shown.result.runId}`;
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
    | { runId: string; ending: string; state: ResultState['kind']; files: ProposedFile[]; open: boolean }
    | undefined {
    const shown = this.shown;
    if (!shown) return undefined;
    return {
      runId: shown.result.runId,
      ending: shown.ending,
      state: shown.state.kind,
      files: shown.proposal?.files ?? [],
      open: this.panel !== undefined,
    };
  }

  dispose(): void {
    this.panel?.dispose();
    this.decided.dispose();
  }
}
