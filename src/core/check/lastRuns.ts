// The last known verdict of every spec, read back from .weave/runs/ (the editor restores it when a window opens):
// the newest stored run, and older ones only for specs the newer runs left out (a check of the affected specs
// records only those). Each run is compared with the baseline it had when it was recorded: the newest clean run
// before it that ran all its specs (else the newest clean run before it), as checkWorkspace chose it then.
import { compareToBaseline } from './baseline';
import { runsNewestFirst, type RunStoreWarning } from './runStore';
import type { BaselineReport, RunRecord } from './types';

export interface StoredRun {
  run: RunRecord;
  report: BaselineReport;
}

/**
 * The stored runs that hold the latest verdict of each of `specIds`, OLDEST FIRST (so folding them in order
 * leaves each spec with its newest verdict), each with its report. Empty when nothing is stored.
 */
export async function lastRunsOf(
  workspaceDir: string,
  specIds: readonly string[],
  warn?: RunStoreWarning,
): Promise<StoredRun[]> {
  const uncovered = new Set(specIds);
  const picked: Array<{ run: RunRecord; baseline: RunRecord | null; fallback: RunRecord | null }> = [];
  for await (const run of runsNewestFirst(workspaceDir, warn)) {
    // An older run is the baseline candidate of every picked run newer than it.
    for (const p of picked) {
      if (p.baseline !== null || !run.clean) continue;
      if (p.run.specIds.every((id) => run.results.some((r) => r.id === id))) p.baseline = run;
      else p.fallback ??= run;
    }
    if (run.results.some((r) => uncovered.has(r.id))) {
      for (const r of run.results) uncovered.delete(r.id);
      picked.push({ run, baseline: null, fallback: null });
    }
    if (uncovered.size === 0 && picked.every((p) => p.baseline !== null)) break;
  }
  return picked
    .reverse()
    .map(({ run, baseline, fallback }) => ({ run, report: compareToBaseline(run, baseline ?? fallback) }));
}
