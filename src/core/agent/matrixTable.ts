// The interaction matrix as a terminal table (the CLI prints it; the extension shows it in a document).
import type { Cell, MatrixResult } from './matrix';

/** One character per cell verdict, shared by the terminal table and the extension's heatmap. */
export const CELL_SYMBOL: Record<Cell, string> = {
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
  const inconclusiveAlone = matrix.inconclusive.filter((r) => r.target !== 'all');
  if (matrix.brokeBy.length === 0 && inconclusiveAlone.length > 0) {
    lines.push(
      `Inconclusive: ${inconclusiveAlone.length} of ${matrix.specIds.length} solo runs did not solve their spec, ` +
        'so "no spec broke another" cannot be concluded from them:',
      ...inconclusiveAlone.map((r) => `  run ${r.target}: ${r.reason}`),
    );
  } else if (matrix.brokeBy.length === 0) lines.push('No spec broke another when solved alone.');
  for (const b of matrix.brokeBy) lines.push(`solving ${b.solved} broke ${b.broke}`);
  if (matrix.aloneNotTogether.length === 0) lines.push('Every spec satisfiable alone also holds together.');
  for (const id of matrix.aloneNotTogether) lines.push(`${id}: satisfiable alone, not together`);
  if (matrix.unsolvedTogether.length > 0)
    lines.push(
      `Not satisfied together (even by the all-together run): ${matrix.unsolvedTogether.join(', ')}`,
    );
  const allRun = matrix.inconclusive.find((r) => r.target === 'all');
  if (allRun) lines.push(`run all: ${allRun.reason}`);
  const findings = matrix.runs.flatMap((r) =>
    r.findings.map((f) => `run ${r.target}: ${f.check}: ${f.message}`),
  );
  if (findings.length > 0) lines.push('', 'Review findings:', ...findings.map((f) => `  ${f}`));
  lines.push('', `${matrix.runs.length} agent runs in ${(matrix.durationMs / 1000).toFixed(1)} s`);
  return lines.join('\n') + '\n';
}
