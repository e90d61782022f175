// "Weave: audit specs" in VS Code: runs the core's mutation audit (src/core/audit) with a cancellable progress
// notification, stores it as the last audit, and shows each mutant no spec noticed as an information diagnostic
// at its location ("No spec notices if `>` becomes `>=` here"). The per-spec scores feed the side panel. The last
// audit is read back on start, so the holes stay visible between sessions.
import * as vscode from 'vscode';
import { readAuditReport, saveAuditReport } from '../../core/audit/report';
import { runAudit } from '../../core/audit/runAudit';
import type { AuditReport } from '../../core/audit/types';
import { loadAnchoredWorkspace } from '../../core/anchors/anchoredWorkspace';
import type { SpecStore } from '../specStore';
import { plainText } from '../plainText';

/** Optional argument of `weave.audit` for tests and scripts (the palette passes nothing). */
export interface AuditArgs {
  only?: string[];
  maxMutants?: number;
}

export interface AuditScore {
  score: number | null;
  vacuous: boolean;
  survived: number;
}

export class AuditController implements vscode.Disposable {
  readonly diagnostics = vscode.languages.createDiagnosticCollection('weave-audit');
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private report: AuditReport | undefined;

  constructor(
    private readonly store: SpecStore,
    private readonly log: vscode.LogOutputChannel,
  ) {
    readAuditReport(store.folder.uri.fsPath).then(
      (stored) => {
        if (stored && this.report === undefined) this.show(stored);
      },
      (e: unknown) => log.warn(`last audit unreadable: ${String(e)}`),
    );
  }

  get last(): AuditReport | undefined {
    return this.report;
  }

  /** Spec id → its mutation score, for the panel. */
  scores(): Record<string, AuditScore> {
    return Object.fromEntries(
      (this.report?.specs ?? []).map((s) => [
        s.id,
        { score: s.score, vacuous: s.vacuous, survived: s.survived },
      ]),
    );
  }

  async run(args: AuditArgs = {}): Promise<AuditReport | undefined> {
    // The command table (commands.ts) refuses the audit in an untrusted folder: mutants run the spec tests.
    if (!(await this.store.validOrExplain())) return undefined;
    const workspaceDir = this.store.folder.uri.fsPath;
    const report = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Weave: auditing specs', cancellable: true },
      async (progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        const ws = await loadAnchoredWorkspace(workspaceDir, { signal: abort.signal });
        const result = await runAudit({
          ws,
          ...(args.only ? { only: args.only } : {}),
          ...(args.maxMutants !== undefined ? { maxMutants: args.maxMutants } : {}),
          signal: abort.signal,
          onProgress: (e) => {
            const text =
              e.type === 'phase'
                ? e.message
                : `${e.done}/${e.total} ${e.mutant.file}:${e.mutant.line} ${e.killedBy.length > 0 ? 'killed' : 'survived'}`;
            this.log.info(`audit: ${text}`);
            progress.report({ message: text });
          },
        });
        if (!abort.signal.aborted) await saveAuditReport(workspaceDir, result);
        return result;
      },
    );
    this.show(report);
    const vacuous = report.specs.filter((s) => s.vacuous).map((s) => s.id);
    const summary =
      `Weave audit: ${report.holes.length} change(s) no spec notices` +
      (vacuous.length > 0 ? `; vacuous: ${vacuous.join(', ')}` : '') +
      (report.totals.stoppedBy ? ` (stopped by the ${report.totals.stoppedBy})` : '');
    if (report.holes.length > 0 || vacuous.length > 0) void this.offerProblems(summary);
    else vscode.window.setStatusBarMessage(`${summary}.`, 5000);
    return report;
  }

  private show(report: AuditReport): void {
    this.report = report;
    this.diagnostics.clear();
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const hole of report.holes) {
      const start = new vscode.Position(hole.line - 1, hole.column - 1);
      const lines = hole.original.split('\n');
      const end =
        lines.length === 1
          ? start.translate(0, hole.original.length)
          : new vscode.Position(hole.line - 1 + lines.length - 1, lines.at(-1)!.length);
      const d = new vscode.Diagnostic(
        new vscode.Range(start, end),
        plainText(
          `No spec notices if \`${short(hole.original)}\` becomes \`${short(hole.replacement)}\` here ` +
            `(${hole.operator}; specs that ran it: ${hole.specs.join(', ')})`,
        ),
        vscode.DiagnosticSeverity.Information,
      );
      d.source = 'weave audit';
      d.code = 'mutant-survived';
      byFile.set(hole.file, [...(byFile.get(hole.file) ?? []), d]);
    }
    for (const [file, list] of byFile)
      this.diagnostics.set(vscode.Uri.joinPath(this.store.folder.uri, file), list);
    this.changed.fire();
  }

  private async offerProblems(message: string): Promise<void> {
    const show = 'Show Problems';
    if ((await vscode.window.showInformationMessage(message, show)) === show)
      await vscode.commands.executeCommand('workbench.actions.view.problems');
  }

  dispose(): void {
    this.diagnostics.dispose();
    this.changed.dispose();
  }
}

function short(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 60 ? `${oneLine.slice(0, 57)}…` : oneLine;
}
