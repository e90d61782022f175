// When a window opens (or a folder is reopened), the verdicts of the last run stored in .weave/runs/ come back in
// every surface at once, marked as restored and with their age, instead of "unchecked" beside a Test Explorer that
// remembers old failures. Only in a trusted folder: stored runs are files a repository could ship, and an
// untrusted folder shows nothing it did not check. The verdicts show at once; the anchors of violated specs are
// resolved after (it indexes the workspace) and move their diagnostics to the code; when nothing is violated no
// index is built. (Restoring used to wait for the index: 18 s under load, and a check started meanwhile won.)
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

/** No anchor resolved yet: diagnostics sit on the specs' entries in specs.json. */
const NO_ANCHORS: AnchorLocations = { bySpec: new Map(), problems: [], potential: [] };

/**
 * Restores the last stored run into the ResultsStore (false when there is none or a check recorded first), then
 * places its violated specs at their anchors; settles once both are done.
 */
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
  const outcome: CheckOutcome = {
    run,
    report: merged.report,
    specFile,
    anchors: NO_ANCHORS,
    durationMs: 0,
    anchorsMs: NaN,
  };
  const restored = results.restore(outcome);
  log.info(
    restored
      ? `restored run ${run.id} (finished ${run.finishedAt}, ${kept.length} specs) from .weave/runs/`
      : `stored run ${run.id} not restored: a check recorded newer verdicts first`,
  );
  // The violated specs' anchors follow (building the index can take long on a loaded machine): their diagnostics
  // sit on the specs' entries in specs.json until then, as after a check whose anchors are still resolving.
  if (restored && kept.some((r) => isViolation(r, merged.report))) {
    const started = performance.now();
    const located = await anchors.locate(specs).catch((e: unknown): AnchorLocations => {
      log.warn(`restored run: could not resolve anchors: ${e instanceof Error ? e.message : String(e)}`);
      return NO_ANCHORS;
    });
    const anchorsMs = performance.now() - started;
    log.info(`restored run: anchors resolved in ${Math.round(anchorsMs)} ms`);
    results.updateAnchors(outcome, located, anchorsMs);
  }
  return restored;
}
