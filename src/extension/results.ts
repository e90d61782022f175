// The one store of check results: every spec's latest verdict and change across checks (a check of one spec
// keeps the others'), each verdict as soon as its spec finishes, a cancelled check's finished verdicts, the last
// stored run restored when the window opens, and what is queued or running right now. Diagnostics, the Test
// Explorer, the status bar and the side panel all subscribe to it, so they can never disagree or go stale on their
// own. The rules are resultsState.ts's (plain data); this class holds the state and tells the subscribers.
import * as vscode from 'vscode';
import { isBroken, type Change, type SpecResult } from '../core/check';
import type { CheckOutcome } from './checkOutcome';
import {
  knownOf,
  NO_RESULTS,
  withLiveResult,
  withCheckBegun,
  withRestored,
  withRun,
  type LastRun,
  type ResultsState,
  type RunOrigin,
} from './resultsState';

/** One recorded check: the outcome, where it came from, and which specs it newly broke. */
export interface ResultsUpdate {
  outcome: CheckOutcome;
  origin: RunOrigin;
  newlyBroken: string[];
  /** Only the anchors of an outcome already sent arrived (the verdicts never wait for them): place, do not recount. */
  anchorsOnly?: true;
}

/** A spec's verdict as it finished, while its check still runs. */
export interface FinishedSpec {
  result: SpecResult;
  change: Change | undefined;
}

/** What is happening right now: specs waiting for a slot, specs whose test runs, and how far the check is. */
export interface Activity {
  queued: readonly string[];
  running: readonly string[];
  done: number;
  total: number;
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

const IDLE: Activity = { queued: [], running: [], done: 0, total: 0 };

export class ResultsStore implements vscode.Disposable {
  private latest: CheckOutcome | undefined;
  /** What every surface shows: the recorded runs plus the live verdicts of the check in progress. */
  private state: ResultsState = NO_RESULTS;
  /** The recorded runs alone: "newly broken" is judged against these, not against this check's live verdicts. */
  private settled: ResultsState = NO_RESULTS;
  /** The spec ids in file order, of the latest check (or the one running): what "known" is filtered by. */
  private specIds: readonly string[] = [];
  private current: Activity = IDLE;
  private readonly changed = new vscode.EventEmitter<ResultsUpdate>();
  /** Fires after every recorded check (partial, cancelled and restored ones included: `outcome.run.specIds`). */
  readonly onDidChange = this.changed.event;
  private readonly activityChanged = new vscode.EventEmitter<Activity>();
  /** Fires when what runs changes, and after each live verdict (read them with knownResults()). */
  readonly onDidChangeActivity = this.activityChanged.event;
  private readonly specFinished = new vscode.EventEmitter<FinishedSpec>();
  /** Fires as each spec of a running check finishes, before the check ends. */
  readonly onDidFinishSpec = this.specFinished.event;

  /** The latest completed check (or restored run), if any. */
  get last(): CheckOutcome | undefined {
    return this.latest;
  }

  /** Which run the shown verdicts come from, when it finished, and whether it was restored or cancelled. */
  get lastRun(): LastRun | undefined {
    return this.state.lastRun;
  }

  get activity(): Activity {
    return this.current;
  }

  /** Latest known result of every spec still in the file, in file order, with its change against a baseline. */
  knownResults(): ReturnType<typeof knownOf> {
    return knownOf(this.state, this.specIds);
  }

  /** Latest known result of each of `specIds` (the spec file's, in its order; never-checked ones left out). */
  knownOf(specIds: readonly string[]): ReturnType<typeof knownOf> {
    return knownOf(this.state, specIds);
  }

  /** Spec ids whose latest known result is a failure of any kind (what "check affected" must re-check). */
  violatedIds(): string[] {
    return this.knownResults()
      .results.filter((r) => r.verdict !== 'pass' && r.verdict !== 'skipped')
      .map((r) => r.id);
  }

  /**
   * A check begins: its spec file's ids (file order) are what the live verdicts are shown for, and a restored
   * run's verdicts of the specs it runs make way for its live ones (never one count of two runs).
   */
  beginCheck(specIds: readonly string[], running: readonly string[]): void {
    this.specIds = specIds;
    this.state = withCheckBegun(this.state, running);
    this.activityChanged.fire(this.current);
  }

  /** The spec file changed (a spec added or removed): counts are of the specs it holds now. */
  followSpecFile(specIds: readonly string[]): void {
    if (sameIds(specIds, this.specIds)) return;
    this.specIds = specIds;
    this.activityChanged.fire(this.current);
  }

  /** A spec of the running check finished: every surface shows its verdict now. */
  noteFinished(result: SpecResult, change: Change | undefined): void {
    this.state = withLiveResult(this.state, result, change);
    this.specFinished.fire({ result, change });
  }

  record(outcome: CheckOutcome, origin: RunOrigin = 'check'): ResultsUpdate {
    const before = knownOf(this.settled, this.specIds);
    const wasBroken = new Set(before.results.filter((r) => isBroken(r, before)).map((r) => r.id));
    this.latest = outcome;
    this.specIds = outcome.specFile.specs.map((s) => s.id);
    this.settled = this.state = withRun(this.settled, outcome.run, outcome.report, origin);
    const newlyBroken = outcome.run.results
      .filter((r) => isBroken(r, outcome.report) && !wasBroken.has(r.id))
      .map((r) => r.id);
    const update = { outcome, origin, newlyBroken };
    this.changed.fire(update);
    return update;
  }

  /**
   * Anchors that were resolved after `outcome` was recorded or restored (the verdicts never wait for them): every
   * surface places its diagnostics and items at them now. Ignored when a newer check was recorded meanwhile.
   */
  updateAnchors(outcome: CheckOutcome, anchors: CheckOutcome['anchors'], anchorsMs: number): void {
    if (this.latest !== outcome) return;
    const origin = this.state.lastRun?.origin ?? 'check';
    this.latest = { ...outcome, anchors, anchorsMs };
    this.changed.fire({ outcome: this.latest, origin, newlyBroken: [], anchorsOnly: true });
  }

  /** The last stored run, shown as restored unless a check recorded something first; false when it was not. */
  restore(outcome: CheckOutcome): boolean {
    // A check under way wins: its live verdicts are newer than any stored run.
    if (this.current !== IDLE) return false;
    const restored = withRestored(this.state, { run: outcome.run, report: outcome.report });
    if (restored === this.state) return false;
    this.latest = outcome;
    this.specIds = outcome.specFile.specs.map((s) => s.id);
    this.settled = this.state = restored;
    this.changed.fire({ outcome, origin: 'restored', newlyBroken: [] });
    return true;
  }

  setActivity(activity: Activity | undefined): void {
    this.current = activity ?? IDLE;
    this.activityChanged.fire(this.current);
  }

  dispose(): void {
    this.changed.dispose();
    this.activityChanged.dispose();
    this.specFinished.dispose();
  }
}
