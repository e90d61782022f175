// "Weave 5/11 · 1 broken · 4 failing" in the status bar, counted by checkCounts (src/shared) from the same CheckView
// as the side panel's summary (live during a check; a restored run says its age); the tooltip lists each group. A click opens the Weave side panel. In an
// untrusted folder it says that nothing runs, and why, in its tooltip.
import * as vscode from 'vscode';
import type { CheckService } from './checks';
import type { ResultsStore } from './results';
import { ageText, isBroken } from '../core/check';
import { checkCounts, statusBarText } from '../shared/checkCounts';
import { currentCheck } from './checkView';
import { EXPLAIN_COMMAND } from './explainBroken';
import { verdictSummary } from './views/resultText';
import type { LastRun } from './resultsState';
import type { LoadedSpecs, SpecStore } from './specStore';
import { UNTRUSTED_REASON } from './trust';

export const OPEN_PANEL_COMMAND = 'workbench.view.extension.weave';
/** A restored run's age is shown in the text, so it is rendered again every minute. */
const AGE_REFRESH_MS = 60_000;

export class WeaveStatusBar implements vscode.Disposable {
  readonly item = vscode.window.createStatusBarItem('weave.status', vscode.StatusBarAlignment.Left, 50);
  private readonly disposables: vscode.Disposable[] = [];
  private specsInvalid = false;
  /**
   * Specs the last check newly broke: the item names them ("$(flame) no-stale-read broken now") and a click
   * explains the first, until a check runs again or they pass. The warning toast alone could go unseen (it slides
   * into the notification centre after a few seconds, or never shows while the centre is open).
   */
  private newlyBroken: string[] = [];

  constructor(
    private readonly store: SpecStore,
    private readonly checks: CheckService,
    private readonly results: ResultsStore,
  ) {
    this.item.name = 'Weave';
    this.item.command = OPEN_PANEL_COMMAND;
    this.disposables.push(
      this.item,
      store.onDidChange((loaded) => this.onSpecs(loaded)),
      results.onDidChange((update) => {
        if (update.newlyBroken.length > 0) this.newlyBroken = update.newlyBroken;
        this.render();
      }),
      results.onDidChangeActivity((activity) => {
        // A check runs specs again: its own verdicts (and toast) take over.
        if (activity.running.length > 0 || activity.queued.length > 0) this.newlyBroken = [];
        this.render();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.render()),
    );
    const ageTimer = setInterval(() => {
      if (this.results.lastRun?.origin === 'restored') this.render();
    }, AGE_REFRESH_MS);
    this.disposables.push(new vscode.Disposable(() => clearInterval(ageTimer)));
    this.render();
    this.item.show();
  }

  private onSpecs(loaded: LoadedSpecs): void {
    this.specsInvalid = !loaded.result.ok;
    this.render();
  }

  render(): void {
    // The side panel's summary counts the same CheckView (checkView.ts) with the same function.
    const check = currentCheck(this.store, this.checks, this.results);
    const known = { results: check.results, changes: check.knownChanges };
    const running = check.progress !== null;
    const counts = checkCounts(check);
    const tooltip = new vscode.MarkdownString(undefined, true);
    let text: string;
    if (check.results.length > 0 || running) {
      text = statusBarText(counts, new Date());
      tooltip.appendMarkdown(`**Weave** — ${lastRunText(this.results.lastRun, this.checks.isRunning)}\n\n`);
      // The verdicts counted: a spec the check runs again is listed as checking, not with its old verdict.
      const busy = new Set([...check.running, ...check.queued]);
      const lines = [
        verdictSummary(
          check.results.filter((r) => !busy.has(r.id)),
          known,
        ),
        busy.size > 0 ? `checking: ${[...busy].join(', ')}` : '',
      ].filter((l) => l !== '');
      if (lines.length > 0) tooltip.appendCodeblock(lines.join('\n'), 'text');
    } else {
      text = check.specIds.length === 0 ? 'Weave' : `Weave ${check.specIds.length} specs`;
      tooltip.appendMarkdown('**Weave** — not checked yet: run *Weave: check constraints*.\n\n');
    }
    if (this.specsInvalid)
      tooltip.appendMarkdown('\n\n$(error) `.weave/specs.json` has problems (see Problems).');
    if (!vscode.workspace.isTrusted) {
      text = `$(shield) ${text} · restricted`;
      tooltip.appendMarkdown(`\n\n$(shield) ${UNTRUSTED_REASON}`);
    } else if (running) {
      text = `$(sync~spin) ${text}`;
    } else {
      text = `$(beaker) ${text}`;
    }
    const brokenNow = this.stillBroken(known);
    if (brokenNow.length > 0 && !running) {
      text += ` · $(flame) ${brokenNow.join(', ')} broken now`;
      tooltip.appendMarkdown(
        `\n\n$(flame) ${brokenNow.join(', ')} passed in the baseline and ${brokenNow.length === 1 ? 'is' : 'are'} broken now. Click to find the edit that broke ${brokenNow[0]}.`,
      );
      this.item.command = {
        title: 'Explain broken spec',
        command: EXPLAIN_COMMAND,
        arguments: [brokenNow[0]],
      };
    } else {
      tooltip.appendMarkdown('\n\nClick to open the Weave panel.');
      this.item.command = OPEN_PANEL_COMMAND;
    }
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.backgroundColor =
      counts.broken > 0 ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  }

  /** The newly broken specs that are broken still (a later check may have fixed one). */
  private stillBroken(
    known: Pick<ReturnType<ResultsStore['knownResults']>, 'results' | 'changes'>,
  ): string[] {
    return this.newlyBroken.filter((id) => {
      const result = known.results.find((r) => r.id === id);
      return result !== undefined && isBroken(result, known);
    });
  }

  /** What the item shows (the in-host tests read it: VS Code gives extensions no read access to the bar). */
  get shown(): { text: string; tooltip: string } {
    const tooltip = this.item.tooltip;
    return { text: this.item.text, tooltip: typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? '') };
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** "last check 12 min ago", "last run 2 h ago, restored from .weave/runs/ …", "check cancelled …", "checking…". */
function lastRunText(lastRun: LastRun | undefined, running: boolean): string {
  if (running) return 'checking: verdicts appear as each spec finishes';
  if (!lastRun) return 'checking';
  const age = ageText(lastRun.finishedAt, new Date());
  if (lastRun.origin === 'restored')
    return `last run ${age}, restored from \`.weave/runs/\`: run *Weave: check constraints* for today's verdicts`;
  if (lastRun.origin === 'cancelled')
    return `check cancelled ${age}: what finished is shown, the rest not run`;
  return `last check ${age}`;
}
