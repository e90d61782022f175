// The interaction matrix as a heatmap page for a webview: pure HTML and CSS (no script), coloured with the
// theme's test colours. Kept free of 'vscode' so the rendering is unit-tested in plain Node. It lives with the
// editor's views (issue #28: the faces own rendering) because only the editor shows it; the conclusion sentence
// is core/agent/matrixConclusion.ts's, the same the CLI's table prints.
import { createHash } from 'node:crypto';
import type { Cell, MatrixResult } from '../../core/agent/matrix';
import { matrixConclusion } from '../../core/agent/matrixConclusion';
import { explainEnding, type ToolFailure } from '../../core/agent/runWording';
import { CELL_SYMBOL } from '../../shared/matrixCells';

// Cell colours come from the theme, toned down so the symbols stay readable on every theme.
const STYLE = `
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 16px 16px; }
table.matrix { border-collapse: collapse; margin: 12px 0; }
.matrix th, .matrix td { border: 1px solid var(--vscode-panel-border, rgba(128,128,128,0.35)); padding: 4px 8px; }
.matrix th { font-weight: 600; text-align: left; white-space: nowrap; }
.matrix thead th { text-align: center; }
.matrix td.cell { text-align: center; min-width: 3em; font-family: var(--vscode-editor-font-family); }
.matrix tr.separator th, .matrix tr.separator td { border-top: 3px double var(--vscode-panel-border, rgba(128,128,128,0.6)); }
.v-pass { background: color-mix(in srgb, var(--vscode-testing-iconPassed, #73c991) 40%, transparent); }
.v-fail { background: color-mix(in srgb, var(--vscode-testing-iconFailed, #f14c4c) 45%, transparent); }
.v-error { background: color-mix(in srgb, var(--vscode-testing-iconErrored, #f14c4c) 65%, transparent); }
.v-flaky { background: color-mix(in srgb, var(--vscode-editorWarning-foreground, #cca700) 40%, transparent); }
.v-blocked, .v-skipped { background: color-mix(in srgb, var(--vscode-testing-iconSkipped, #848484) 35%, transparent); }
.v-not-run { color: var(--vscode-descriptionForeground); }
.solved { outline: 2px solid var(--vscode-focusBorder, #007fd4); outline-offset: -3px; }
.broke { font-weight: 700; box-shadow: inset 0 0 0 2px var(--vscode-errorForeground, #f14c4c); }
.legend, .meta { color: var(--vscode-descriptionForeground); }
.inconclusive { border-left: 3px solid var(--vscode-editorWarning-foreground, #cca700); padding-left: 8px; }
ul.flags li { margin: 2px 0; }
code { font-family: var(--vscode-editor-font-family); }
`;

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The Content-Security-Policy of the page: nothing may load or run; only the page's own style block applies. */
export function matrixCsp(): string {
  const hash = createHash('sha256').update(STYLE).digest('base64');
  return `default-src 'none'; style-src 'sha256-${hash}';`;
}

/** `failuresOf(target)`: the failed tool calls of that run (from its progress), to say why it did not finish. */
export function renderMatrixHtml(
  matrix: MatrixResult,
  failuresOf: (target: string) => readonly ToolFailure[] = () => [],
): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${matrixCsp()}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">',
    '<title>Weave: interaction matrix</title>',
    `<style>${STYLE}</style>`,
    '</head><body>',
    '<h1>Interaction matrix</h1>',
    ...matrixTableLines(matrix),
    ...flaggedLines(matrix, failuresOf),
    `<p class="meta">${matrix.runs.length} agent runs in ${(matrix.durationMs / 1000).toFixed(1)} s</p>`,
    '</body></html>',
    '',
  ].join('\n');
}

/** The heatmap: a row per run (before, each spec alone, all together), a column per spec, and its legend. */
function matrixTableLines(matrix: MatrixResult): string[] {
  const ids = matrix.specIds;
  const broke = new Set(matrix.brokeBy.map((b) => JSON.stringify([b.solved, b.broke])));
  const cellHtml = (cell: Cell, solved: string | undefined, column: string): string => {
    const classes = ['cell', `v-${cell}`];
    const isBroken = solved !== undefined && broke.has(JSON.stringify([solved, column]));
    if (solved === column) classes.push('solved');
    if (isBroken) classes.push('broke');
    const title = `${column}: ${cell}${isBroken ? ` (broken by solving ${solved})` : ''}`;
    return `<td class="${classes.join(' ')}" title="${escapeHtml(title)}">${CELL_SYMBOL[cell]}${isBroken ? '!' : ''}</td>`;
  };
  const row = (
    label: string,
    cells: Record<string, Cell> | undefined,
    solved?: string,
    rowClass?: string,
  ): string =>
    `<tr${rowClass ? ` class="${rowClass}"` : ''}><th scope="row">${escapeHtml(label)}</th>` +
    ids.map((j) => cellHtml(cells?.[j] ?? 'not-run', solved, j)).join('') +
    '</tr>';
  return [
    '<p class="legend">Row: what the agent solved; column: each spec’s verdict after that run.</p>',
    '<table class="matrix"><thead><tr><th scope="col">solved ↓ / spec →</th>',
    ...ids.map((id) => `<th scope="col">${escapeHtml(id)}</th>`),
    '</tr></thead><tbody>',
    row('before', matrix.before),
    ...ids.map((id, i) => row(`${id} alone`, matrix.alone[id], id, i === 0 ? 'separator' : undefined)),
    row('all together', matrix.together, undefined, 'separator'),
    '</tbody></table>',
    '<p class="legend">✓ pass · ✗ fail · E error · B blocked · - skipped · ~ flaky · · not run; ' +
      'outlined: the solved spec; ! broken by solving that row’s spec.</p>',
  ];
}

/** What the matrix flags: the conclusion, broken pairs, runs that did not finish or left their target, findings. */
function flaggedLines(
  matrix: MatrixResult,
  failuresOf: (target: string) => readonly ToolFailure[],
): string[] {
  const flags: string[] = [
    ...matrix.brokeBy.map(
      (b) =>
        `<li>solving <code>${escapeHtml(b.solved)}</code> broke <code>${escapeHtml(b.broke)}</code></li>`,
    ),
    ...matrix.aloneNotTogether.map(
      (id) => `<li><code>${escapeHtml(id)}</code>: satisfiable alone, not together</li>`,
    ),
  ];
  const unfinished = matrix.runs.filter((r) => r.stopReason !== 'finished');
  const failedRuns = unfinished.map(
    (r) =>
      `<li>run <code>${escapeHtml(r.target)}</code>: ${escapeHtml(explainEnding(r, failuresOf(r.target)))}</li>`,
  );
  // A run that did not finish, or left its own spec failing, proves nothing either way: the conclusion says so
  // rather than giving a false all-clear.
  const conclusion = matrixConclusion(matrix);
  const conclusionHtml =
    conclusion.kind === 'none'
      ? `<p>${escapeHtml(conclusion.sentence)}</p>`
      : `<p class="${conclusion.kind}"><strong>${escapeHtml(conclusion.headline)}:</strong> ${escapeHtml(conclusion.text)}</p>`;
  const finishedSilent = conclusion.silentRuns
    .filter((s) => matrix.runs.some((r) => r.target === s.target && r.stopReason === 'finished'))
    .map((s) => `<li>run <code>${escapeHtml(s.target)}</code>: ${escapeHtml(s.reason)}</li>`);
  const findings = matrix.runs.flatMap((r) =>
    r.findings.map(
      (f) =>
        `<li>run <code>${escapeHtml(r.target)}</code>: ${escapeHtml(f.check)}: ${escapeHtml(f.message)}</li>`,
    ),
  );
  return [
    '<h2>Flagged interactions</h2>',
    conclusionHtml,
    ...(flags.length > 0 ? [`<ul class="flags">${flags.join('')}</ul>`] : []),
    ...(failedRuns.length > 0
      ? ['<h2>Runs that did not finish</h2>', `<ul>${failedRuns.join('')}</ul>`]
      : []),
    ...(finishedSilent.length > 0
      ? ['<h2>Runs that left their target failing</h2>', `<ul>${finishedSilent.join('')}</ul>`]
      : []),
    ...(findings.length > 0 ? ['<h2>Review findings</h2>', `<ul>${findings.join('')}</ul>`] : []),
  ];
}
