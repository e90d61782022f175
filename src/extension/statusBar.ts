// "Weave 7/9 · 1 broken" in the status bar; a click opens the Weave side panel. In an untrusted folder it says
// that nothing runs, and why, in its tooltip.
import * as vscode from 'vscode';
import type { CheckOutcome, CheckService } from './checks';
import type { ResultsStore } from './results';
import { countResults, statusText, verdictSummary } from '../core/check/resultText';
import type { LoadedSpecs, SpecStore } from './specStore';
import { UNTRUSTED_REASON } from './trust';

export const OPEN_PANEL_COMMAND = 'workbench.view.extension.weave';

export class WeaveStatusBar implements vscode.Disposable {
  readonly item = vscode.window.createStatusBarItem('weave.status', vscode.StatusBarAlignment.Left, 50);
  private readonly disposables: vscode.Disposable[] = [];
  private specCount: number | undefined;
  private specsInvalid = false;

  constructor(
    store: SpecStore,
    private readonly checks: CheckService,
    private readonly results: ResultsStore,
  ) {
    this.item.name = 'Weave';
    this.item.command = OPEN_PANEL_COMMAND;
    this.disposables.push(
      this.item,
      store.onDidChange((loaded) => this.onSpecs(loaded)),
      results.onDidChange(() => this.render()),
      results.onDidChangeActivity(() => this.render()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.render()),
    );
    this.render();
    this.item.show();
  }

  private onSpecs(loaded: LoadedSpecs): void {
    this.specsInvalid = !loaded.result.ok;
    if (loaded.result.ok) this.specCount = loaded.result.specFile.specs.length;
    this.render();
  }

  render(): void {
    const outcome: CheckOutcome | undefined = this.results.last;
    const known = this.results.knownResults();
    const counts = outcome ? countResults(known.results, known) : undefined;
    const tooltip = new vscode.MarkdownString(undefined, true);
    let text: string;
    if (outcome && counts) {
      text = statusText(counts);
      tooltip.appendMarkdown(
        `**Weave** — last check ${new Date(outcome.run.finishedAt).toLocaleTimeString()}\n\n`,
      );
      tooltip.appendCodeblock(verdictSummary(known.results), 'text');
    } else {
      text = this.specCount === undefined ? 'Weave' : `Weave ${this.specCount} specs`;
      tooltip.appendMarkdown('**Weave** — not checked yet: run *Weave: check constraints*.\n\n');
    }
    if (this.specsInvalid)
      tooltip.appendMarkdown('\n\n$(error) `.weave/specs.json` has problems (see Problems).');
    if (!vscode.workspace.isTrusted) {
      text = `$(shield) ${text} · restricted`;
      tooltip.appendMarkdown(`\n\n$(shield) ${UNTRUSTED_REASON}`);
    } else if (this.checks.isRunning) {
      const { done, total } = this.results.activity;
      text = `$(sync~spin) ${text}${total > 0 ? ` · checking ${done}/${total}` : ''}`;
    } else {
      text = `$(beaker) ${text}`;
    }
    tooltip.appendMarkdown('\n\nClick to open the Weave panel.');
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.backgroundColor =
      counts && counts.broken > 0 ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
