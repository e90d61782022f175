// When a window opens (or a folder is reopened), the verdicts of the last run stored in .weave/runs/ come back in
// every surface at once, marked as restored and with their age, instead of "unchecked" beside a Test Explorer that
// remembers old failures. Only in a trusted folder: stored runs are files a repository could ship, and an
// untrusted folder shows nothing it did not check. The anchors of violated specs are resolved first (it indexes
// the workspace), so diagnostics land at the code as after a check; when nothing is violated no index is built.
import { promises as fs } from 'node:fs';
import type * as vscode from 'vscode';
import { isViolation, lastRunsOf, runsDir } from '../core/check';
import type { AnchorAnalyzer, AnchorLocations } from './anchors';
import type { CheckOutcome } from './checks';
import type { ResultsStore } from './results';
import { mergeStoredRuns } from './resultsState';
import { isValid, type SpecStore } from './specStore';

export interface RestoreDeps {
  store: SpecStore;
  anchors: AnchorAnalyzer;
  results: ResultsStore;
  log: vscode.LogOutputChannel;
}

/** Restores the last stored run into the ResultsStore; false when there is none or a check recorded first. */
export async function restoreLastRun({ store, anchors, results, log }: RestoreDeps): Promise<boolean> {
  const workspaceDir = store.folder.uri.fsPath;
  // Most folders have no run yet: then not even specs.json is read.
  const names = await fs.readdir(runsDir(workspaceDir)).catch(() => []);
  if (!names.some((n) => n.endsWith('.json'))) return false;
  const specs = await store.get();
  if (!isValid(specs)) return false;
  const specFile = specs.result.specFile;
  const inFile = new Set(specFile.specs.map((s) => s.id));
  const merged = mergeStoredRuns(await lastRunsOf(workspaceDir, [...inFile], (w) => log.warn(w)));
  if (!merged) return false;
  // Specs removed from the file since are not shown (nor a "blocked by" one of them).
  const kept = merged.run.results.filter((r) => inFile.has(r.id));
  if (kept.length === 0) return false;
  const run = { ...merged.run, specIds: kept.map((r) => r.id), results: kept };
  const located = kept.some((r) => isViolation(r, merged.report))
    ? await anchors.locate(specs).catch((e: unknown): AnchorLocations => {
        log.warn(`restored run: could not resolve anchors: ${e instanceof Error ? e.message : String(e)}`);
        return { bySpec: new Map(), problems: [], potential: [] };
      })
    : { bySpec: new Map(), problems: [], potential: [] };
  const outcome: CheckOutcome = {
    run,
    report: merged.report,
    specFile,
    anchors: located,
    durationMs: 0,
    anchorsMs: 0,
  };
  const restored = results.restore(outcome);
  log.info(
    restored
      ? `restored run ${run.id} (finished ${run.finishedAt}, ${kept.length} specs) from .weave/runs/`
      : `stored run ${run.id} not restored: a check recorded newer verdicts first`,
  );
  return restored;
}
