// The comparison tab of "Weave: Run N agents": the ranking drawn by views/candidatesHtml.ts, each candidate's
// multi-file diff against the user's files (read-only `weave:` documents, reviewChanges.ts), and Apply. Apply
// hands the chosen candidate to the agent result tab (agentResultView.ts) and applies it there, so one code path
// holds the refusal rules (applyPolicy.ts: a disqualified candidate is refused there too, not only hidden here),
// the conflict handling (Retry, Apply per file, Open patch) and the re-check afterwards.
import * as vscode from 'vscode';
import type { CandidatesOutcome } from '../../core/agent/candidates';
import type { CandidateSummary } from '../../core/agent/candidateRanking';
import {
  APPLY_CANDIDATE_COMMAND,
  renderCandidatesHtml,
  SHOW_CANDIDATE_COMMAND,
  type CandidateDecision,
} from '../views/candidatesHtml';
import type { WeaveDocuments } from '../weaveDocuments';
import type { AgentResultView } from './agentResultView';
import { prepareProposal, showProposal, type Proposal, type ReviewDecision } from './reviewChanges';

export const CANDIDATES_VIEW_TYPE = 'weave.agent.candidates';

interface Shown {
  outcome: CandidatesOutcome;
  endings: ReadonlyMap<number, string>;
  proposals: Map<number, Proposal>;
  decision?: CandidateDecision;
}

export class CandidatesView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private shown: Shown | undefined;

  constructor(
    private readonly folder: vscode.WorkspaceFolder,
    private readonly documents: WeaveDocuments,
    private readonly results: AgentResultView,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  async show(outcome: CandidatesOutcome, endings: ReadonlyMap<number, string>): Promise<void> {
    for (const p of this.shown?.proposals.values() ?? []) this.documents.forget(p.query);
    this.shown = { outcome, endings, proposals: new Map() };
    this.render();
  }

  /** The candidate's multi-file diff (its proposed files as `weave:` documents against the user's files). */
  async showChanges(candidate?: unknown): Promise<Proposal | undefined> {
    const chosen = await this.choose(candidate, 'Review which candidate’s change?', () => true);
    if (!chosen) return undefined;
    if (chosen.summary.patch.files.length === 0) {
      void vscode.window.showInformationMessage(`Weave: cand-${chosen.summary.index} changed nothing.`);
      return undefined;
    }
    const proposal = await this.proposalOf(chosen.shown, chosen.summary.index);
    await showProposal(proposal, undefined, `Weave cand-${chosen.summary.index}`);
    return proposal;
  }

  /** Applies a candidate through the agent result tab (the same refusals and conflict handling as Run agent). */
  async apply(candidate?: unknown): Promise<ReviewDecision | undefined> {
    const chosen = await this.choose(
      candidate,
      'Apply which candidate?',
      (c) => c.disqualified === undefined && c.patch.files.length > 0,
    );
    if (!chosen) return undefined;
    const { shown, summary } = chosen;
    const result = shown.outcome.results[summary.index - 1];
    if (!result || result.patch.trim() === '') {
      void vscode.window.showInformationMessage(`Weave: cand-${summary.index} changed nothing to apply.`);
      return undefined;
    }
    const ending = `cand-${summary.index} of ${shown.outcome.ranking.candidates.length}: ${shown.endings.get(summary.index) ?? ''}`;
    await this.results.show(result, ending);
    const decision = (await this.results.apply()) ?? 'failed';
    this.log.info(`candidates ${shown.outcome.ranking.id}: cand-${summary.index} ${decision}`);
    if (this.shown === shown) {
      shown.decision = { candidate: summary.index, decision };
      this.render();
    }
    return decision;
  }

  /** A candidate given by index (the tab's links, scripts) or picked from a QuickPick of those `eligible`. */
  private async choose(
    candidate: unknown,
    title: string,
    eligible: (c: CandidateSummary) => boolean,
  ): Promise<{ shown: Shown; summary: CandidateSummary } | undefined> {
    const shown = this.shown;
    if (!shown) {
      void vscode.window.showInformationMessage('Weave: no candidates yet: run “Weave: Run N agents” first.');
      return undefined;
    }
    const { ranking } = shown.outcome;
    const byIndex = new Map(ranking.candidates.map((c) => [c.index, c]));
    if (candidate !== undefined) {
      const summary = typeof candidate === 'number' ? byIndex.get(candidate) : undefined;
      if (!summary) {
        void vscode.window.showErrorMessage(`Weave: there is no candidate ${String(candidate)}.`);
        return undefined;
      }
      return { shown, summary };
    }
    const items = ranking.order
      .map((i) => byIndex.get(i)!)
      .filter(eligible)
      .map((c) => ({
        label: `cand-${c.index}`,
        description: c.label,
        detail: `${c.specsPassed}/${c.specs.length} specs pass${c.broken.length > 0 ? `, breaks ${c.broken.join(', ')}` : ''}`,
        summary: c,
      }));
    if (items.length === 0) {
      void vscode.window.showInformationMessage('Weave: no candidate qualifies.');
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(items, { title });
    return picked ? { shown, summary: picked.summary } : undefined;
  }

  private async proposalOf(shown: Shown, index: number): Promise<Proposal> {
    const known = shown.proposals.get(index);
    if (known) return known;
    const result = shown.outcome.results[index - 1]!;
    const query = `candidates=${encodeURIComponent(shown.outcome.ranking.id)}&cand=${index}`;
    const proposal = await prepareProposal(this.folder, result, this.documents, query);
    shown.proposals.set(index, proposal);
    return proposal;
  }

  private render(): void {
    const shown = this.shown;
    if (!shown) return;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        CANDIDATES_VIEW_TYPE,
        'Weave: agents compared',
        { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
        {
          enableScripts: false,
          enableCommandUris: [APPLY_CANDIDATE_COMMAND, SHOW_CANDIDATE_COMMAND],
          localResourceRoots: [],
          retainContextWhenHidden: false,
        },
      );
      this.panel.onDidDispose(() => (this.panel = undefined));
    }
    this.panel.title = `Weave: ${shown.outcome.ranking.candidates.length} agents compared`;
    this.panel.webview.html = renderCandidatesHtml({
      ranking: shown.outcome.ranking,
      endings: shown.endings,
      ...(shown.decision ? { decision: shown.decision } : {}),
    });
  }

  /** What the tab shows (for the in-host tests and scripts). */
  current():
    | {
        id: string;
        order: number[];
        best: number | null;
        pareto: number[];
        disqualified: Record<number, string>;
        decision?: CandidateDecision;
        open: boolean;
        /** The tab's HTML as rendered last (what a person sees). */
        html: string;
      }
    | undefined {
    const shown = this.shown;
    if (!shown) return undefined;
    const { ranking } = shown.outcome;
    return {
      id: ranking.id,
      order: ranking.order,
      best: ranking.best,
      pareto: ranking.pareto,
      disqualified: Object.fromEntries(
        ranking.candidates.flatMap((c) => (c.disqualified ? [[c.index, c.disqualified]] : [])),
      ),
      ...(shown.decision ? { decision: shown.decision } : {}),
      open: this.panel !== undefined,
      html: this.panel?.webview.html ?? '',
    };
  }

  dispose(): void {
    this.panel?.dispose();
    for (const p of this.shown?.proposals.values() ?? []) this.documents.forget(p.query);
  }
}
