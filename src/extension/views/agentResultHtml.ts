// The agent result page (an editor tab that stays until Apply or Discard): how the run ended, the changed
// files with their real paths, verdicts before → after with the model's review, the findings, and the Apply /
// Discard / Review actions as command links (the page runs no script; CSP default-src 'none').
// Kept free of 'vscode' so the rendering is unit-tested in plain Node.
import { createHash } from 'node:crypto';
import { findingLabel } from '../../core/sandbox/diffPolicy/classifyChanges';
import type { AgentRunResult } from '../../core/agent/agentRunResult';
import { describeAttempt } from '../../shared/attempts';
import { escapeHtml } from './matrixHtml';

export const APPLY_RESULT_COMMAND = 'weave.agent.applyResult';
export const DISCARD_RESULT_COMMAND = 'weave.agent.discardResult';
export const SHOW_CHANGES_COMMAND = 'weave.agent.showChanges';
export const OPEN_PATCH_COMMAND = 'weave.agent.openPatch';

export type ResultState =
  | { kind: 'pending' }
  | { kind: 'nothing-to-apply' }
  | { kind: 'applied'; recheck?: string }
  | { kind: 'discarded' }
  | { kind: 'failed'; message: string }
  /** A refused Apply that keeps the result: which files conflict (in words), and which still apply alone. */
  | {
      kind: 'conflict';
      message: string;
      conflicts: ReadonlyArray<{ path: string; reason: string }>;
      applicable: readonly string[];
    };

export interface ResultPage {
  result: AgentRunResult;
  /** explainEnding's sentence. */
  ending: string;
  files: ReadonlyArray<{ path: string; status: string }>;
  state: ResultState;
  /** Workspace-relative path of the trajectory file. */
  trajectory: string;
}

const STYLE = `
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 16px 16px; max-width: 70em; }
.ending { padding: 6px 10px; border-left: 3px solid var(--vscode-focusBorder, #007fd4); }
.ending.unfinished { border-left-color: var(--vscode-editorWarning-foreground, #cca700); }
.actions { display: flex; gap: 8px; margin: 12px 0; flex-wrap: wrap; }
.decision-bar { position: sticky; top: 0; z-index: 1; padding: 4px 0; background: var(--vscode-editor-background); }
.run-id { overflow-wrap: anywhere; }
a.button { display: inline-block; padding: 4px 12px; border-radius: 2px; text-decoration: none;
  background: var(--vscode-button-background); color: var(--vscode-button-foreground); }
a.button.secondary { background: var(--vscode-button-secondaryBackground); color: var(--vscode-button-secondaryForeground); }
.decision { font-weight: 600; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid var(--vscode-panel-border, rgba(128,128,128,0.35)); padding: 3px 8px; text-align: left; }
.v-pass { color: var(--vscode-testing-iconPassed, #73c991); }
.v-fail, .v-error { color: var(--vscode-testing-iconFailed, #f14c4c); }
code { font-family: var(--vscode-editor-font-family); }
.muted { color: var(--vscode-descriptionForeground); }
`;

export function resultCsp(): string {
  const hash = createHash('sha256').update(STYLE).digest('base64');
  return `default-src 'none'; style-src 'sha256-${hash}';`;
}

function commandLink(command: string, label: string, args: unknown[] = [], secondary = false): string {
  const href = `command:${command}${args.length ? `?${encodeURIComponent(JSON.stringify(args))}` : ''}`;
  return `<a class="button${secondary ? ' secondary' : ''}" href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;
}

function stateHtml(page: ResultPage): string {
  const { state } = page;
  switch (state.kind) {
    case 'pending':
      return (
        '<div class="actions" role="group" aria-label="Decision">' +
        commandLink(
          APPLY_RESULT_COMMAND,
          `Apply to ${page.files.length} file${page.files.length === 1 ? '' : 's'}`,
        ) +
        commandLink(DISCARD_RESULT_COMMAND, 'Discard', [], true) +
        commandLink(SHOW_CHANGES_COMMAND, 'Review all changes', [], true) +
        '</div>'
      );
    case 'nothing-to-apply':
      return '<p class="decision">The agent changed nothing: there is nothing to apply.</p>';
    case 'applied':
      return `<p class="decision">Applied to your files. ${escapeHtml(state.recheck ?? 'Re-checking the specs…')}</p>`;
    case 'discarded':
      return '<p class="decision">Discarded: your files are unchanged.</p>';
    case 'failed':
      return `<p class="decision">Not applied: ${escapeHtml(state.message)}</p>`;
    case 'conflict':
      return (
        `<p class="decision" role="alert">${escapeHtml(state.message)}</p>` +
        `<ul class="conflicts">${state.conflicts.map((c) => `<li>${escapeHtml(c.reason)}</li>`).join('')}</ul>` +
        '<div class="actions" role="group" aria-label="Decision">' +
        commandLink(APPLY_RESULT_COMMAND, 'Retry') +
        state.applicable
          .map((f) => commandLink(APPLY_RESULT_COMMAND, `Apply ${f} only`, [f], true))
          .join('') +
        commandLink(OPEN_PATCH_COMMAND, 'Open patch', [], true) +
        commandLink(DISCARD_RESULT_COMMAND, 'Discard', [], true) +
        '</div>'
      );
  }
}

/** What the run was for, in words: "Make every spec pass" or "Make no-stale-read pass". */
export function agentGoal(result: Pick<AgentRunResult, 'target'>): string {
  return result.target.kind === 'all' ? 'Make every spec pass' : `Make ${result.target.id} pass`;
}

/**
 * The tab's and the page's heading: the goal and when the run started ("Make every spec pass · 2026-12-01 08:00
 * UTC"), read from the run id's leading start time (core/check/runStore.ts newRunId); the goal alone without one.
 */
export function resultHeading(result: Pick<AgentRunResult, 'target' | 'runId'>): string {
  const started = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})/.exec(result.runId);
  return started ? `${agentGoal(result)} · ${started[1]} ${started[2]}:${started[3]} UTC` : agentGoal(result);
}

export function renderResultHtml(page: ResultPage): string {
  const { result } = page;
  const review = new Map((result.modelReview?.ok ? result.modelReview.specs : []).map((s) => [s.id, s]));
  const rows = result.verdicts.map((v) => {
    const r = review.get(v.id);
    return (
      `<tr><td><code>${escapeHtml(v.id)}</code></td><td class="v-${escapeHtml(v.before)}">${escapeHtml(v.before)}</td>` +
      `<td class="v-${escapeHtml(v.after)}">${escapeHtml(v.after)}</td>` +
      `<td>${r ? `${escapeHtml(r.verdict)}: ${escapeHtml(r.evidence)}` : ''}</td></tr>`
    );
  });
  const files = page.files.map(
    (f) =>
      `<li><a href="${escapeHtml(`command:${SHOW_CHANGES_COMMAND}?${encodeURIComponent(JSON.stringify([f.path]))}`)}"><code>${escapeHtml(f.path)}</code></a> <span class="muted">${escapeHtml(f.status)}</span></li>`,
  );
  const findings = result.findings.map(
    (f) =>
      `<li><strong>${escapeHtml(f.check)}</strong>${f.file ? ` <code>${escapeHtml(f.file)}${f.line ? `:${f.line}` : ''}</code>` : ''}: ${escapeHtml(f.message)}</li>`,
  );
  const finished = result.stopReason === 'finished';
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${resultCsp()}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">',
    `<title>${escapeHtml(resultHeading(result))}</title>`,
    `<style>${STYLE}</style>`,
    '</head><body>',
    `<h1>${escapeHtml(resultHeading(result))}</h1>`,
    `<p class="ending${finished ? '' : ' unfinished'}" role="status">${escapeHtml(page.ending)}</p>`,
    `<p class="muted">${result.steps} steps · ${result.usage.totalTokens} tokens · ${(result.durationMs / 1000).toFixed(1)} s · run <code class="run-id">${escapeHtml(result.runId)}</code></p>`,
    result.sandboxed
      ? '<p class="muted">Sandbox: every spec run was contained (own checkout, no network, private PID namespace).</p>'
      : `<p class="ending unfinished"><strong>Sandbox: none</strong> — ${escapeHtml(result.unsandboxedReason ?? 'unsandboxed')}; the agent's code ran with your permissions.</p>`,
    ...result.testInfrastructure.map(
      (f) =>
        `<p class="ending unfinished"><strong>Tampered</strong>: the patch changes test infrastructure: <code>${escapeHtml(findingLabel(f))}</code> (${escapeHtml(f.why)}); this result can never be applied.</p>`,
    ),
    result.tamperedSpecs.length > 0
      ? `<p class="ending unfinished"><strong>Tampered</strong>: spec runs changed protected files or forged runner evidence (${escapeHtml(result.tamperedSpecs.join(', '))}); this result can never be applied.</p>`
      : '',
    ...(result.attempts ?? []).map(
      (a) =>
        `<p class="ending unfinished"><strong>Tampered</strong>: attempt (${escapeHtml(a.kind)}) — ${escapeHtml(describeAttempt(a))}; this result can never be applied.</p>`,
    ),
    // The decision stays in view (sticky) while the verdicts and findings below are read.
    `<div class="decision-bar">${stateHtml(page)}</div>`,
    `<h2>Changed files (${page.files.length})</h2>`,
    files.length > 0 ? `<ul class="files">${files.join('')}</ul>` : '<p>None.</p>',
    '<h2>Verdicts</h2>',
    '<table><thead><tr><th>spec</th><th>before</th><th>after</th><th>model review</th></tr></thead><tbody>',
    ...rows,
    '</tbody></table>',
    '<h2>Review findings</h2>',
    findings.length > 0 ? `<ul>${findings.join('')}</ul>` : '<p>None.</p>',
    `<p class="muted">Trajectory: <code>${escapeHtml(page.trajectory)}</code></p>`,
    '</body></html>',
    '',
  ].join('\n');
}
