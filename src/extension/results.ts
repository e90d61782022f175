// The one store of check results: every spec's latest verdict and change across checks (a check of one spec
// keeps the others'), plus what is queued or running right now. Diagnostics, the Test Explorer, the status bar
// and the side panel all subscribe to it, so they can never disagree or go stale on their own.
import * as vscode from 'vscode';
import type { Change, SpecResult } from '../core/check/types';
import type { CheckOutcome } from './checks';
import { isBroken } from '../core/check/resultText';

/** One recorded check: the outcome, and which specs it newly broke (passing or unknown before, broken now). */
export interface ResultsUpdate {
  outcome: CheckOutcome;
  newlyBroken: string[];
}

/** What is happening right now: specs waiting for a slot, specs whose test runs, and how far the check is. */
export interface Activity {
  queued: readonly string[];
  running: readonly string[];
  done: number;
  total: number;
}

const IDLE: Activity = { queued: [], running: [], done: 0, total: 0 };

export class ResultsStore implements vscode.Disposable {
  private latest: CheckOutcome | undefined;
  private readonly resultBySpec = new Map<string, SpecResult>();
  private readonly changeBySpec = new Map<string, Change>();
  private current: Activity = IDLE;
  private readonly changed = new vscode.EventEmitter<ResultsUpdate>();
  /** Fires after every recorded check (partial ones included: `outcome.run.specIds` says which specs ran). */
  readonly onDidChange = this.changed.event;
  private readonly activityChanged = new vscode.EventEmitter<Activity>();
  readonly onDidChangeActivity = this.activityChanged.event;

  /** The latest completed check, if any. */
  get last(): CheckOutcome | undefined {
    return this.latest;
  }

  get activity(): Activity {
    return this.current;
  }

  /** Latest known result of every spec still in the file, in file order, with its change against a baseline. */
  knownResults(): { results: SpecResult[]; changes: Record<string, Change> } {
    const ids = this.latest?.specFile.specs.map((s) => s.id) ?? [];
    const results = ids
      .map((id) => this.resultBySpec.get(id))
      .filter((r): r is SpecResult => r !== undefined);
    const changes: Record<string, Change> = {};
    for (const r of results) {
      const change = this.changeBySpec.get(r.id);
      if (change) changes[r.id] = change;
    }
    return { results, changes };
  }

  /** Spec ids whose latest known result is a failure of any kind (what "check affected" must re-check). */
  violatedIds(): string[] {
    return this.knownResults()
      .results.filter((r) => r.verdict !== 'pass' && r.verdict !== 'skipped')
      .map((r) => r.id);
  }

  record(outcome: CheckOutcome): ResultsUpdate {
    const before = this.knownResults();
    const wasBroken = new Set(before.results.filter((r) => isBroken(r, before)).map((r) => r.id));
    this.latest = outcome;
    for (const r of outcome.run.results) this.resultBySpec.set(r.id, r);
    for (const r of outcome.run.results) {
      const change = outcome.report.changes[r.id];
      if (change) this.changeBySpec.set(r.id, change);
      else this.changeBySpec.delete(r.id);
    }
    const newlyBroken = outcome.run.results
      .filter((r) => isBroken(r, outcome.report) && !wasBroken.has(r.id))
      .map((r) => r.id);
    const update = { outcome, newlyBroken };
    this.changed.fire(update);
    return update;
  }

  setActivity(activity: Activity | undefined): void {
    this.current = activity ?? IDLE;
    this.activityChanged.fire(this.current);
  }

  dispose(): void {
    this.changed.dispose();
    this.activityChanged.dispose();
  }
}
