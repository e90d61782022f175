// The interaction matrix as a terminal table (`weave agent --matrix`). Rendering belongs to the face that shows
// it (issue #28): the editor draws the same matrix as a heatmap (src/extension/views/matrixHtml.ts); the cell
// symbols and the conclusion both use come from below (src/shared/matrixCells.ts, core/agent/matrixConclusion.ts).
import type { Cell, MatrixResult } from '../../core/agent/matrix';
import { matrixConclusion } from '../../core/agent/matrixConclusion';
import { CELL_SYMBOL } from '../../shared/matrixCells';

export function formatMatrix(matrix: MatrixResult): string {
  const ids = matrix.specIds;
  const broke = new Set(matrix.brokeBy.map((b) => `${b.solved}→${b.broke}`));
  const rowWidth = Math.max('all together'.length, 'before'.length, ...ids.map((id) => id.length)) + 4;
  const lines: string[] = [
    'Interaction matrix: row = what the agent solved, column = each spec’s verdict after.',
    '',
  ];
  ids.forEach((id, i) => lines.push(`  ${String(i + 1).padStart(2)}  ${id}`));
  lines.push('');
  const header = ' '.repeat(rowWidth) + ids.map((_, i) => String(i + 1).padStart(4)).join('');
  lines.push(header);
  const row = (label: string, cells: Record<string, Cell> | undefined, solved?: string) =>
    label.padEnd(rowWidth) +
    ids
      .map((j) => {
        const cell = cells?.[j] ?? 'not-run';
        const flag = solved !== undefined && broke.has(`${solved}→${j}`) ? '!' : solved === j ? '*' : ' ';
        return `${CELL_SYMBOL[cell]}${flag}`.padStart(4);
      })
      .join('')
      .trimEnd();
  lines.push(row('before', matrix.before));
  ids.forEach((id, i) => lines.push(row(`${String(i + 1).padStart(2)} ${id}`, matrix.alone[id], id)));
  lines.push(row('all together', matrix.together));
  lines.push(
    '',
    '✓ pass  ✗ fail  E error  B blocked  - skipped  ~ flaky  T tampered  ? unverified  · not run;  * the solved spec;  ! broken by it',
    '',
  );
  const conclusion = matrixConclusion(matrix);
  lines.push(conclusion.sentence);
  for (const b of matrix.brokeBy) lines.push(`solving ${b.solved} broke ${b.broke}`);
  for (const id of matrix.aloneNotTogether) lines.push(`${id}: satisfiable alone, not together`);
  if (matrix.unsolvedTogether.length > 0)
    lines.push(
      `Not satisfied together (even by the all-together run): ${matrix.unsolvedTogether.join(', ')}`,
    );
  if (conclusion.silentRuns.length > 0)
    lines.push(
      'Runs that say nothing about interactions:',
      ...conclusion.silentRuns.map((r) => `  run ${r.target}: ${r.reason}`),
    );
  const findings = matrix.runs.flatMap((r) =>
    r.findings.map((f) => `run ${r.target}: ${f.check}: ${f.message}`),
  );
  if (findings.length > 0) lines.push('', 'Review findings:', ...findings.map((f) => `  ${f}`));
  lines.push('', `${matrix.runs.length} agent runs in ${(matrix.durationMs / 1000).toFixed(1)} s`);
  return lines.join('\n') + '\n';
}
