// The one CheckView (src/shared/checkCounts.ts) the status bar and the side panel both count from: the specs the
// spec file holds now (its last valid parse), their latest verdicts and changes from the ResultsStore, and what the
// check in progress runs. Built in one place, so the two surfaces never read different sources (the status bar once
// counted the store's specs and old verdicts while the panel counted the file's specs and the live check).
import type { CheckView } from '../shared/checkCounts';
import type { Change, SpecResult } from '../core/check';
import type { CheckService } from './checks';
import type { ResultsStore } from './results';
import type { SpecStore } from './specStore';

/** The CheckView, with the known results it was made from (the panel's rows and the tooltip list them). */
export interface CurrentCheck extends CheckView {
  results: SpecResult[];
  knownChanges: Record<string, Change>;
}

export function currentCheck(store: SpecStore, checks: CheckService, results: ResultsStore): CurrentCheck {
  const valid = store.valid?.result;
  const specIds = valid?.ok ? valid.specFile.specs.map((s) => s.id) : [];
  const known = results.knownOf(specIds);
  const activity = results.activity;
  const running = checks.isRunning;
  return {
    specIds,
    verdicts: Object.fromEntries(known.results.map((r) => [r.id, r])),
    changes: known.changes,
    running: running ? [...activity.running] : [],
    queued: running ? [...activity.queued] : [],
    progress: running ? { done: activity.done, total: activity.total } : null,
    lastRun: results.lastRun
      ? { finishedAt: results.lastRun.finishedAt, origin: results.lastRun.origin }
      : null,
    results: known.results,
    knownChanges: known.changes,
  };
}
