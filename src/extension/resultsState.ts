// The state every editor surface shows (diagnostics, Test Explorer, status bar, side panel), as plain data and
// pure functions, without 'vscode', so the rules are unit-tested with node:test: a finished check's verdicts
// replace those of the specs it ran, each verdict also arrives live as its spec finishes, a cancelled check keeps
// what finished and says "not run" for the rest, and the last stored run comes back when a window opens (only
// into an empty state: a check that finished first wins). ResultsStore (results.ts) holds one of these.
import {
  isBroken,
  type BaselineReport,
  type Change,
  type RunRecord,
  type SpecResult,
  type StoredRun,
} from '../core/check';

/** Where the latest verdicts came from: a check of this window, one that was cancelled, or .weave/runs/. */
export type RunOrigin = 'check' | 'cancelled' | 'restored';

export interface LastRun {
  runId: string;
  finishedAt: string;
  origin: RunOrigin;
}

export interface ResultsState {
  readonly results: ReadonlyMap<string, SpecResult>;
  /** Changes against the baseline, only where they describe the verdict shown (see shownChange). */
  readonly changes: ReadonlyMap<string, Change>;
  readonly baseline: BaselineReport['baseline'];
  /** The latest run whose verdicts were recorded (undefined: nothing checked nor restored yet). */
  readonly lastRun: LastRun | undefined;
}

export const NO_RESULTS: ResultsState = {
  results: new Map(),
  changes: new Map(),
  baseline: null,
  lastRun: undefined,
};

/** What a cancelled check says of a spec whose test it never ran. */
export const NOT_RUN_REASON = 'not run: the check was cancelled first';

/**
 * A run's verdicts over the known ones: the specs it ran take its verdicts (a cancelled run's skipped specs say
 * "not run"), the others keep theirs.
 */
export function withRun(
  state: ResultsState,
  run: RunRecord,
  report: BaselineReport,
  origin: RunOrigin,
): ResultsState {
  const results = new Map(state.results);
  const changes = new Map(state.changes);
  for (const r of run.results) {
    const result = origin === 'cancelled' && r.verdict === 'skipped' ? { ...r, reason: NOT_RUN_REASON } : r;
    results.set(r.id, result);
    setChange(changes, result, report.changes[r.id]);
  }
  return {
    results,
    changes,
    baseline: report.baseline,
    lastRun: { runId: run.id, finishedAt: run.finishedAt, origin },
  };
}

/** One spec's verdict as it finishes, before its check ends (change: against the recorded baseline, if known). */
export function withLiveResult(
  state: ResultsState,
  result: SpecResult,
  change: Change | undefined,
): ResultsState {
  const results = new Map(state.results).set(result.id, result);
  const changes = new Map(state.changes);
  setChange(changes, result, change);
  return { ...state, results, changes };
}

/**
 * The stored runs (oldest first, lastRunsOf's) folded into one run and its report, as if one check had run them
 * all: each spec with its newest verdict and the change it had then; the newest run names the whole.
 */
export function mergeStoredRuns(stored: readonly StoredRun[]): StoredRun | undefined {
  const newest = stored.at(-1);
  if (!newest) return undefined;
  const results = new Map<string, SpecResult>();
  const changes: Record<string, Change> = {};
  for (const { run, report } of stored) {
    for (const r of run.results) {
      results.set(r.id, r);
      const change = report.changes[r.id];
      if (change) changes[r.id] = change;
      else delete changes[r.id];
    }
  }
  const merged = [...results.values()];
  return {
    run: { ...newest.run, specIds: merged.map((r) => r.id), results: merged },
    report: { ...newest.report, changes },
  };
}

/** The restored run, unless something was recorded already (a check that finished first is newer). */
export function withRestored(state: ResultsState, restored: StoredRun): ResultsState {
  if (state.lastRun !== undefined || state.results.size > 0) return state;
  return withRun(state, restored.run, restored.report, 'restored');
}

/**
 * A check begins over a restored run: the verdicts of the specs it runs are dropped (they show as queued, then
 * live), so no count mixes the stored run and this one. A check's own earlier verdicts stay until replaced.
 */
export function withCheckBegun(state: ResultsState, running: readonly string[]): ResultsState {
  if (state.lastRun?.origin !== 'restored') return state;
  const results = new Map(state.results);
  const changes = new Map(state.changes);
  for (const id of running) {
    results.delete(id);
    changes.delete(id);
  }
  return { ...state, results, changes };
}

/** The known results of `specIds` (file order; specs never checked are left out) and their changes. */
export function knownOf(
  state: ResultsState,
  specIds: readonly string[],
): { results: SpecResult[]; changes: Record<string, Change>; baseline: BaselineReport['baseline'] } {
  const results = specIds.map((id) => state.results.get(id)).filter((r): r is SpecResult => r !== undefined);
  const changes: Record<string, Change> = {};
  for (const r of results) {
    const change = state.changes.get(r.id);
    if (change) changes[r.id] = change;
  }
  return { results, changes, baseline: state.baseline };
}

/**
 * "broken" only where the verdict is one (a blocked, not-run or flaky spec is not broken even when the report's
 * pass/fail comparison says so), so every surface that reads the change agrees with the status bar.
 */
function setChange(changes: Map<string, Change>, result: SpecResult, change: Change | undefined): void {
  const shown =
    change === 'broken' && !isBroken(result, { changes: { [result.id]: change } }) ? 'other' : change;
  if (shown) changes.set(result.id, shown);
  else changes.delete(result.id);
}
