// One character per interaction-matrix cell, the same in the CLI's terminal table (src/cli/output/matrixTable.ts)
// and the editor's heatmap tab (src/extension/views/matrixHtml.ts). It lives in src/shared because both faces
// draw the matrix and neither may import the other (ARCHITECTURE.md, "The declared order").
import type { Verdict } from './verdicts';

/** A cell of the matrix: a spec's verdict after a run, or not run at all. */
export type MatrixCell = Verdict | 'not-run';

export const CELL_SYMBOL: Record<MatrixCell, string> = {
  pass: '✓',
  fail: '✗',
  error: 'E',
  blocked: 'B',
  skipped: '-',
  flaky: '~',
  tampered: 'T',
  unverified: '?',
  'not-run': '·',
};
