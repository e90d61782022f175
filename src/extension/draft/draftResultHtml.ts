// The draft result page (an editor tab like the agent's result, never an Untitled document that asks to be saved):
// every kept draft with its statement, verification and test file, the rejected ones with their reasons, the set
// review, and Accept all / Choose drafts / Reject all as command links (the page runs no script; CSP
// default-src 'none'). Free of 'vscode', so the rendering is unit-tested in plain Node.
import { createHash } from 'node:crypto';
import type { DraftResult } from '../../core/draft/runDraft';

export const ACCEPT_DRAFTS_COMMAND = 'weave.draft.accept';
export const REJECT_DRAFTS_COMMAND = 'weave.draft.reject';

export type DraftState =
  | { kind: 'pending' }
  | { kind: 'nothing-kept' }
  | { kind: 'accepted'; specIds: readonly string[] }
  | { kind: 'rejected' }
  | { kind: 'failed'; message: string };

const STYLE = `
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 16px 16px; max-width: 70em; }
.summary { padding: 6px 10px; border-left: 3px solid var(--vscode-focusBorder, #007fd4); }
.actions { display: flex; gap: 8px; margin: 12px 0; flex-wrap: wrap; }
a.button { display: inline-block; padding: 4px 12px; border-radius: 2px; text-decoration: none;
  background: var(--vscode-button-background); color: var(--vscode-button-foreground); }
a.button.secondary { background: var(--vscode-button-secondaryBackground); color: var(--vscode-button-secondaryForeground); }
.decision { font-weight: 600; }
pre { background: var(--vscode-textCodeBlock-background); padding: 8px; overflow-x: auto; }
code, pre { font-family: var(--vscode-editor-font-family); }
.muted { color: var(--vscode-descriptionForeground); }
`;

export function draftCsp(): string {
  const hash = createHash('sha256').update(STYLE).digest('base64');
  return `default-src 'none'; style-src 'sha256-${hash}';`;
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function commandLink(command: string, label: string, args: unknown[] = [], secondary = false): string {
  const href = `command:${command}${args.length ? `?${encodeURIComponent(JSON.stringify(args))}` : ''}`;
  return `<a class="button${secondary ? ' secondary' : ''}" href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;
}

function stateHtml(result: DraftResult, state: DraftState): string {
  switch (state.kind) {
    case 'pending':
      return (
        '<div class="actions" role="group" aria-label="Decision">' +
        commandLink(ACCEPT_DRAFTS_COMMAND, `Accept all (${result.kept.length})`, ['all']) +
        commandLink(ACCEPT_DRAFTS_COMMAND, 'Choose drafts…', [], true) +
        commandLink(REJECT_DRAFTS_COMMAND, 'Reject all', [], true) +
        '</div>'
      );
    case 'nothing-kept':
      return '<p class="decision">No draft passed verification: there is nothing to accept.</p>';
    case 'accepted':
      return `<p class="decision">Accepted: ${state.specIds.map((id) => `<code>${escapeHtml(id)}</code>`).join(', ')}, written to <code>.weave/specs.json</code> with their test files.</p>`;
    case 'rejected':
      return '<p class="decision">Rejected: <code>.weave/specs.json</code> and your files are unchanged.</p>';
    case 'failed':
      return `<p class="decision">Not accepted: ${escapeHtml(state.message)}</p>`;
  }
}

export function renderDraftHtml(result: DraftResult, state: DraftState): string {
  const kept = result.kept.map((k) => {
    const v = k.verification;
    const tests = k.testFiles.map(
      (t) =>
        `<p class="muted">New test file <code>${escapeHtml(t.path)}</code></p><pre>${escapeHtml(t.content)}</pre>`,
    );
    return [
      `<h3><code>${escapeHtml(k.spec.id)}</code> — ${escapeHtml(k.spec.title)}</h3>`,
      `<p class="muted">${escapeHtml(k.spec.kind)}, ${v.goal ? 'a goal: its test fails by an assertion on the current code' : 'a constraint: its test passes'}</p>`,
      `<blockquote>${escapeHtml(k.spec.statement)}</blockquote>`,
      `<p>Verification: ${v.tests} test(s) by ${escapeHtml(v.runner)}, verdicts ${escapeHtml(v.repeats.join(' / '))}` +
        (v.killedExample ? `, kills the mutant <code>${escapeHtml(v.killedExample)}</code>` : '') +
        `. Test: <code>${escapeHtml(k.spec.test.command)}</code>; anchors: ${k.spec.anchors.map((a) => `<code>${escapeHtml(a)}</code>`).join(', ') || 'none'}.</p>`,
      ...tests,
    ].join('\n');
  });
  const rejected = result.rejected.map(
    (r) =>
      `<li><strong>${escapeHtml(r.id)}</strong> (${escapeHtml(r.stage)}): ${escapeHtml(r.reason.split('\n')[0] ?? '')}</li>`,
  );
  const review = result.review;
  const notes = [
    ...review.uncoveredGoalParts.map((g) => `goal not covered (${g.source}): ${g.text}`),
    ...review.missingEdges.map((e) => `undeclared interaction ${e.a} ↔ ${e.b} (${e.source}): ${e.why}`),
    ...review.contradictions.map((c) => `contradiction ${c.a} ↔ ${c.b} (${c.source}): ${c.why}`),
  ];
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${draftCsp()}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">',
    `<title>Weave drafted specs ${escapeHtml(result.runId)}</title>`,
    `<style>${STYLE}</style>`,
    '</head><body>',
    `<h1>Drafted specs <code>${escapeHtml(result.runId)}</code></h1>`,
    `<p class="summary" role="status">${result.kept.length} kept, ${result.rejected.length} rejected (stopped: ${escapeHtml(result.stopReason)}).${result.error ? ` ${escapeHtml(result.error)}` : ''}</p>`,
    `<p class="muted">${result.steps} steps · ${result.usage.totalTokens} tokens · ${(result.durationMs / 1000).toFixed(1)} s</p>`,
    stateHtml(result, state),
    `<h2>Kept (${result.kept.length})</h2>`,
    kept.length > 0 ? kept.join('\n') : '<p>None.</p>',
    `<h2>Rejected (${result.rejected.length})</h2>`,
    rejected.length > 0 ? `<ul>${rejected.join('')}</ul>` : '<p>None.</p>',
    '<h2>Review of the set</h2>',
    notes.length > 0
      ? `<ul>${notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`
      : '<p>Nothing to report.</p>',
    '</body></html>',
    '',
  ].join('\n');
}
