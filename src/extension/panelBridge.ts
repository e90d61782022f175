// Connects the side panel (src/extension/panel, a WebviewView) to the rest of the extension: builds the whole
// PanelState from the spec store, the check service and workspace trust, pushes it whenever any of them
// changes, and answers the panel's requests (check, symbol search) with the same services the commands use.
import * as vscode from 'vscode';
import type { PanelState } from '../shared/protocol';
import type { AnchorAnalyzer } from './anchors';
import type { AuditController } from './audit/auditController';
import type { CheckService } from './checks';
import { currentCheck } from './checkView';
import { failureExcerpt } from '../core/check';
import { matchAnchors, registerSpecsPanel, type SpecsPanel } from './panel';
import type { ResultsStore } from './results';
import { readSettings } from './settings';
import { SPEC_FILE_RELATIVE_PATH } from '../core/spec';
import type { SpecStore } from './specStore';

export function connectPanel(
  context: vscode.ExtensionContext,
  store: SpecStore,
  checks: CheckService,
  results: ResultsStore,
  anchors: AnchorAnalyzer,
  log: vscode.LogOutputChannel,
  audit?: AuditController,
): { panel: SpecsPanel; subscription: vscode.Disposable } {
  const panel = registerSpecsPanel(context, {
    log,
    folder: store.folder,
    specFileUri: () => store.specsUri,
    checkSpecs: (target) => {
      if (target === 'all') return vscode.commands.executeCommand('weave.check');
      if (target === 'affected') return vscode.commands.executeCommand('weave.checkAffected');
      return vscode.commands.executeCommand('weave.check', { only: target });
    },
    cancelCheck: () => {
      if (checks.cancel()) log.info('check cancelled from the panel');
    },
    searchSymbols: async (query) => matchAnchors((await anchors.index()).files.values(), query),
  });
  let exists = false;
  const push = (): void => panel.update(panelState(store, checks, results, exists, audit));
  const refresh = async (): Promise<void> => {
    exists = await store.exists();
    if (exists) await store.get();
    push();
  };
  const safely = (): void => {
    refresh().catch((e: unknown) => log.error(`panel state: ${String(e)}`));
  };
  safely();
  const subscriptions = [
    store.onDidChange(() => safely()),
    results.onDidChange(push),
    results.onDidChangeActivity(push),
    vscode.workspace.onDidGrantWorkspaceTrust(push),
    ...(audit ? [audit.onDidChange(push)] : []),
  ];
  return { panel, subscription: vscode.Disposable.from(...subscriptions) };
}

function panelState(
  store: SpecStore,
  checks: CheckService,
  results: ResultsStore,
  exists: boolean,
  audit: AuditController | undefined,
): PanelState {
  const valid = store.valid;
  const current = store.current;
  const failureLines = readSettings(store.folder).failureLines;
  // The same CheckView the status bar counts from (checkView.ts): one source for both.
  const check = currentCheck(store, checks, results);
  const last = results.last;
  const problems = [
    ...(current ? (current.result.ok ? current.result.warnings : current.result.problems) : []),
    ...(last?.anchors.problems ?? []),
  ];
  return {
    specFile: exists ? SPEC_FILE_RELATIVE_PATH : null,
    goal: valid?.result.ok ? valid.result.specFile.goal : '',
    specs: valid?.result.ok ? valid.result.specFile.specs : [],
    problems,
    verdicts: Object.fromEntries(
      check.results.map((r) => {
        const excerpt = r.verdict === 'pass' ? '' : failureExcerpt(r.output, failureLines);
        return [
          r.id,
          {
            verdict: r.verdict,
            durationMs: Math.max(0, r.durationMs),
            ...(r.reason ? { reason: r.reason } : {}),
            ...(excerpt ? { excerpt } : {}),
          },
        ];
      }),
    ),
    changes: check.knownChanges,
    baseline: last?.report.baseline
      ? { runId: last.report.baseline.runId, commit: last.report.baseline.commit }
      : null,
    potentialInteractions: last?.anchors.potential ?? [],
    trusted: vscode.workspace.isTrusted,
    running: [...check.running],
    queued: [...check.queued],
    progress: check.progress,
    lastRun: check.lastRun,
    ...(audit?.last ? { audit: audit.scores() } : {}),
  };
}
