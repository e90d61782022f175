// The comparison page of "Weave: Run N agents" (an editor tab): the candidates × specs grid in rank order, each
// cell a verdict's symbol and word (theme colours only underline what the text says), what disqualifies a
// candidate, its broken constraints and review findings, the best candidate per spec kind and the Pareto set, and
// per candidate the actions Review changes and — only when it is not disqualified — Apply, as command links (the
// page runs no script; CSP default-src 'none'). The data is the core's CandidateRanking (weave-candidates/1); this
// face only draws it. Kept free of 'vscode' so the rendering is unit-tested in plain Node.
import { createHash } from 'node:crypto';
import type { CandidateRanking, CandidateSummary, Cell } from '../../core/agent/candidateRanking';
import { CELL_SYMBOL } from '../../shared/matrixCells';
import { escapeHtml } from './matrixHtml';

export const APPLY_CANDIDATE_COMMAND = 'weave.agent.applyCandidate';
export const SHOW_CANDIDATE_COMMAND = 'weave.agent.showCandidateChanges';

/** What became of the last Apply from this tab (the agent result tab holds the details: conflicts, Retry). */
export interface CandidateDecision {
  candidate: number;
  decision: 'applied' | 'discarded' | 'failed' | 'conflict';
}

export interface CandidatesPage {
  ranking: CandidateRanking;
  /** Per candidate index: how its run ended, in words (explainEnding). */
  endings: ReadonlyMap<number, string>;
  decision?: CandidateDecision;
}

const STYLE = `
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 16px 16px; }
table { border-collapse: separate; border-spacing: 0; margin: 8px 0; }
th, td { border: 1px solid var(--vscode-panel-border, rgba(128,128,128,0.35)); padding: 3px 8px; text-align: left; vertical-align: top; }
thead th { white-space: nowrap; }
table.grid thead { position: sticky; top: 0; z-index: 2; }
table.grid thead th { background: var(--vscode-editor-background); }
table.grid th.who { position: sticky; left: 0; z-index: 1; background: var(--vscode-editor-background); }
table.grid thead th.who { z-index: 3; }
th.kind-group { text-align: center; }
td.cell { white-space: nowrap; font-family: var(--vscode-editor-font-family); }
.v-pass { color: var(--vscode-testing-iconPassed, #73c991); }
.v-fail, .v-error, .v-tampered { color: var(--vscode-testing-iconFailed, #f14c4c); }
.v-unverified, .v-flaky { color: var(--vscode-editorWarning-foreground, #cca700); }
.v-blocked, .v-skipped, .v-not-run { color: var(--vscode-descriptionForeground); }
.broke { font-weight: 700; text-decoration: underline; }
tr.disqualified th, tr.disqualified td { opacity: 0.75; }
.badge { display: inline-block; padding: 0 6px; margin-left: 4px; border-radius: 8px; font-size: 0.85em;
  background: var(--vscode-badge-background); color: var(--vscode-badge-foreground); }
.out { color: var(--vscode-errorForeground, #f14c4c); font-weight: 600; }
a.button { display: inline-block; padding: 2px 10px; margin: 2px 4px 2px 0; border-radius: 2px; text-decoration: none;
  background: var(--vscode-button-background); color: var(--vscode-button-foreground); }
a.button.secondary { background: var(--vscode-button-secondaryBackground); color: var(--vscode-button-secondaryForeground); }
a.button.warning { background: var(--vscode-inputValidation-warningBackground, #352a05); color: var(--vscode-foreground);
  border: 1px solid var(--vscode-editorWarning-foreground, #cca700); }
.decision { font-weight: 600; padding: 6px 10px; border-left: 3px solid var(--vscode-focusBorder, #007fd4); }
.muted, .legend { color: var(--vscode-descriptionForeground); }
code { font-family: var(--vscode-editor-font-family); }
`;

export function candidatesCsp(): string {
  const hash = createHash('sha256').update(STYLE).digest('base64');
  return `default-src 'none'; style-src 'sha256-${hash}';`;
}

/** Above this many specs the grid's columns are grouped under their kind (one header per kind). */
const GROUP_BY_KIND_ABOVE = 6;

function link(
  command: string,
  label: string,
  candidate: number,
  style: 'primary' | 'secondary' | 'warning',
): string {
  const href = `command:${command}?${encodeURIComponent(JSON.stringify([candidate]))}`;
  const cls = style === 'primary' ? 'button' : `button ${style}`;
  return `<a class="${cls}" href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;
}

/** A verdict cell; `before` absent: the baseline row itself. */
function cellHtml(id: string, before: Cell | undefined, after: Cell, broken: boolean): string {
  const title =
    before === undefined
      ? `${id}: ${after} before any candidate`
      : `${id}: ${before} → ${after}${broken ? ' (broken: passed before)' : ''}`;
  return (
    `<td class="cell v-${escapeHtml(after)}${broken ? ' broke' : ''}" data-spec="${escapeHtml(id)}" title="${escapeHtml(title)}">` +
    `${CELL_SYMBOL[after]} ${escapeHtml(after)}${broken ? ' (broken)' : ''}</td>`
  );
}

function actions(c: CandidateSummary): string {
  const review =
    c.patch.files.length > 0 ? link(SHOW_CANDIDATE_COMMAND, 'Review changes', c.index, 'secondary') : '';
  if (c.disqualified !== undefined) return review;
  if (c.patch.files.length === 0) return '<span class="muted">no change</span>';
  // Applying a candidate that breaks constraints is allowed but must not look like applying the best one.
  const apply =
    c.broken.length > 0
      ? link(
          APPLY_CANDIDATE_COMMAND,
          `⚠ Apply cand-${c.index} (breaks ${c.broken.length})`,
          c.index,
          'warning',
        )
      : link(APPLY_CANDIDATE_COMMAND, `Apply cand-${c.index}`, c.index, 'primary');
  return apply + review;
}

function candidateRow(
  ranking: CandidateRanking,
  columns: readonly string[],
  c: CandidateSummary,
  rank: number,
): string {
  const pareto = ranking.pareto.includes(c.index);
  const badges =
    (ranking.best === c.index ? '<span class="badge">best</span>' : '') +
    (pareto ? '<span class="badge">Pareto</span>' : '');
  const broken = new Set(c.broken);
  const specs = new Map(c.specs.map((s) => [s.id, s]));
  const cells = columns
    .map((id) => {
      const s = specs.get(id);
      return cellHtml(id, s?.before ?? 'not-run', s?.after ?? 'not-run', broken.has(id));
    })
    .join('');
  const status =
    c.disqualified !== undefined
      ? `<span class="out">⊘ disqualified</span>: ${escapeHtml(c.disqualified)}`
      : c.strict
        ? '✓ every spec passes'
        : 'usable';
  return (
    `<tr class="candidate${c.disqualified !== undefined ? ' disqualified' : ''}" data-candidate="${c.index}" data-rank="${rank}">` +
    `<th scope="row">${rank}</th>` +
    `<th scope="row" class="who">cand-${c.index}${badges}<br><span class="muted">${escapeHtml(c.label)}</span></th>` +
    cells +
    `<td>${c.specsPassed}/${c.specs.length}</td>` +
    `<td class="status">${status}</td>` +
    `<td>${c.patch.files.length} file${c.patch.files.length === 1 ? '' : 's'}, +${c.patch.linesAdded} −${c.patch.linesRemoved}</td>` +
    `<td>${actions(c)}</td></tr>`
  );
}

function details(c: CandidateSummary, ending: string | undefined): string {
  const findings = c.findings.map(
    (f) =>
      `<li><strong>${escapeHtml(f.check)}</strong> (${escapeHtml(f.severity)})${f.file ? ` <code>${escapeHtml(f.file)}${f.line ? `:${f.line}` : ''}</code>` : ''}: ${escapeHtml(f.message)}</li>`,
  );
  const ids = (list: readonly string[]): string =>
    list.length > 0 ? list.map((id) => `<code>${escapeHtml(id)}</code>`).join(', ') : 'none';
  const cost = c.costUsd === null ? '' : ` · $${c.costUsd.toFixed(4)}`;
  return [
    `<h3 id="cand-${c.index}">cand-${c.index}: ${escapeHtml(c.label)}</h3>`,
    c.disqualified !== undefined
      ? `<p><span class="out">⊘ Disqualified</span> — ${escapeHtml(c.disqualified)}. It cannot be applied.</p>`
      : '',
    ending !== undefined ? `<p>${escapeHtml(ending)}</p>` : '',
    `<p class="broken-list">Constraints broken (passed before, fail now): ${ids(c.broken)}. Fixed: ${ids(c.fixed)}.</p>`,
    findings.length > 0
      ? `<p>Review findings:</p><ul>${findings.join('')}</ul>`
      : '<p>Review findings: none.</p>',
    c.error !== undefined ? `<p class="out">Error: ${escapeHtml(c.error)}</p>` : '',
    `<p class="muted">${c.steps} steps · ${c.usage.totalTokens} tokens${cost} · ${(c.durationMs / 1000).toFixed(1)} s · changed: ${ids(c.patch.files)}</p>`,
  ].join('\n');
}

function decisionHtml(decision: CandidateDecision | undefined): string {
  if (!decision) return '';
  const words: Record<CandidateDecision['decision'], string> = {
    applied: 'applied to your files (see the agent result tab for the re-check)',
    discarded: 'discarded',
    failed: 'not applied (see the agent result tab for why)',
    conflict:
      'not applied: it conflicts with your edits (the agent result tab offers Retry and per-file Apply)',
  };
  return `<p class="decision" role="status">cand-${decision.candidate}: ${words[decision.decision]}.</p>`;
}

/** The spec ids by kind, kinds in the order they first appear, ids in their own order within a kind. */
function kindGroups(
  specIds: readonly string[],
  kinds: ReadonlyMap<string, string>,
): Array<{ kind: string; ids: string[] }> {
  const groups = new Map<string, string[]>();
  for (const id of specIds) {
    const kind = kinds.get(id) ?? 'other';
    groups.set(kind, [...(groups.get(kind) ?? []), id]);
  }
  return [...groups].map(([kind, ids]) => ({ kind, ids }));
}

export function renderCandidatesHtml(page: CandidatesPage): string {
  const { ranking } = page;
  const byIndex = new Map(ranking.candidates.map((c) => [c.index, c]));
  const ranked = ranking.order.map((i) => byIndex.get(i)).filter((c) => c !== undefined);
  const kinds = new Map(ranked[0]?.specs.map((s) => [s.id, s.kind]) ?? []);
  const grouped = ranking.specIds.length > GROUP_BY_KIND_ABOVE;
  const groups = kindGroups(ranking.specIds, kinds);
  const columns = grouped ? groups.flatMap((g) => g.ids) : ranking.specIds;
  const head = columns
    .map((id) =>
      grouped
        ? `<th scope="col">${escapeHtml(id)}</th>`
        : `<th scope="col">${escapeHtml(id)}<br><span class="muted">${escapeHtml(kinds.get(id) ?? '')}</span></th>`,
    )
    .join('');
  // Grouped: a first header row names each kind once over its specs; the fixed columns span both rows.
  const headRows = grouped
    ? '<tr class="kinds"><th scope="col" rowspan="2">rank</th><th scope="col" rowspan="2" class="who">candidate</th>' +
      groups
        .map(
          (g) =>
            `<th scope="colgroup" colspan="${g.ids.length}" class="kind-group">${escapeHtml(g.kind)} (${g.ids.length})</th>`,
        )
        .join('') +
      '<th scope="col" rowspan="2">passed</th><th scope="col" rowspan="2">status</th><th scope="col" rowspan="2">patch</th><th scope="col" rowspan="2">actions</th></tr>' +
      `<tr>${head}</tr>`
    : `<tr><th scope="col">rank</th><th scope="col" class="who">candidate</th>${head}` +
      '<th scope="col">passed</th><th scope="col">status</th><th scope="col">patch</th><th scope="col">actions</th></tr>';
  const beforeRow =
    '<tr class="before"><th scope="row">—</th><th scope="row" class="who">before (the baseline)</th>' +
    columns.map((id) => cellHtml(id, undefined, ranking.before[id] ?? 'not-run', false)).join('') +
    `<td>${ranking.specIds.filter((id) => ranking.before[id] === 'pass').length}/${ranking.specIds.length}</td><td></td><td></td><td></td></tr>`;
  const kindBest = Object.entries(ranking.bestByKind).map(
    ([kind, b]) =>
      `<li data-kind="${escapeHtml(kind)}"><strong>${escapeHtml(kind)}</strong>: cand-${b.candidate} (${b.passed}/${b.total} passing)</li>`,
  );
  const pareto = ranking.pareto.map((i) => `cand-${i}`).join(', ');
  const paretoNote =
    ranking.pareto.length === 0
      ? 'empty: every candidate is disqualified.'
      : ranking.pareto.length === 1
        ? `${pareto}: no other usable candidate matches it on every kind.`
        : `${pareto}: none of them does at least as well as another on every kind — they trade off.`;
  const best =
    ranking.best === null
      ? '<p class="out">Every candidate is disqualified: there is nothing to apply.</p>'
      : `<p>Best: <strong>cand-${ranking.best}</strong> (${escapeHtml(byIndex.get(ranking.best)?.label ?? '')}).</p>`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${candidatesCsp()}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">',
    `<title>Weave: ${ranking.candidates.length} agents</title>`,
    `<style>${STYLE}</style>`,
    '</head><body>',
    `<h1>${ranking.candidates.length} agents, ranked by the tests</h1>`,
    `<p class="muted">Run <code>${escapeHtml(ranking.id)}</code> · ${ranking.concurrency} at once · ${(ranking.durationMs / 1000).toFixed(1)} s. Ranked: usable first, then every spec passing, specs passed, fewer broken constraints, smaller patch.</p>`,
    best,
    decisionHtml(page.decision),
    `<table class="grid"><thead>${headRows}</thead><tbody>`,
    beforeRow,
    ...ranked.map((c, i) => candidateRow(ranking, columns, c, i + 1)),
    '</tbody></table>',
    `<p class="legend">${(['pass', 'fail', 'error', 'blocked', 'tampered', 'unverified', 'not-run'] as const).map((v) => `${CELL_SYMBOL[v]} ${v}`).join(' · ')}; <span class="broke">(broken)</span>: passed before, fails now.</p>`,
    '<h2>Best per spec kind</h2>',
    kindBest.length > 0
      ? `<ul class="kinds">${kindBest.join('')}</ul>`
      : '<p>None: every candidate is disqualified.</p>',
    '<h2>Pareto set</h2>',
    `<p class="pareto">${escapeHtml(paretoNote)}</p>`,
    '<h2>Candidates</h2>',
    ...ranked.map((c) => details(c, page.endings.get(c.index))),
    `<p class="muted">Trajectories and patches: <code>${escapeHtml(ranking.dir)}</code> (cand-K/trajectory.jsonl, cand-K/patch.diff, ranking.json)</p>`,
    '</body></html>',
    '',
  ].join('\n');
}
