// What one check of the workspace produced, as the extension keeps it (checks.ts runs it, results.ts stores it,
// the views read it). A module of its own so that the runner and the store both import it from below.
import type { BaselineReport, RunRecord } from '../core/check';
import type { SpecFile } from '../shared/specSchema';
import type { AnchorLocations } from './anchors';

export interface CheckOutcome {
  run: RunRecord;
  report: BaselineReport;
  specFile: SpecFile;
  anchors: AnchorLocations;
  durationMs: number;
  /** Indexing and anchor resolution, which overlap the spec tests; NaN while they still run after the check. */
  anchorsMs: number;
}
