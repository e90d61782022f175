// "Weave: export workspace as benchmark task" (weave.export): the VS Code face of core/bench/exportTask.
// Picks an output folder, shows progress (cancellable: every test process is killed), then a summary — or,
// when the task does not verify, the per-spec reasons with an offer to write it anyway (marked unverified).
import * as vscode from 'vscode';
import { exportTask, ExportInputError, type ExportResult } from '../core/bench/exportTask';
import { explainUntrusted } from './trust';

export interface ExportCommandDeps {
  /** The workspace folder to export (the one holding .weave/specs.json). */
  folder(): vscode.WorkspaceFolder | undefined;
  log: vscode.LogOutputChannel;
}

export const EXPORT_COMMAND = 'weave.export';

export function registerExportCommands(context: vscode.ExtensionContext, deps: ExportCommandDeps): void {
  context.subscriptions.push(vscode.commands.registerCommand(EXPORT_COMMAND, () => exportCommand(deps)));
}

/** Returns the result (for tests and other commands), or undefined when nothing ran. */
async function exportCommand(deps: ExportCommandDeps): Promise<ExportResult | undefined> {
  const folder = deps.folder();
  if (!folder) {
    void vscode.window.showInformationMessage('Weave: open a folder first.');
    return undefined;
  }
  // Verification runs every spec test: arbitrary commands from the folder.
  if (!vscode.workspace.isTrusted) {
    void explainUntrusted();
    return undefined;
  }
  const picked = await vscode.window.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: 'Export task here',
    title: 'Weave: folder for the benchmark task (new, empty, or a previous export)',
    defaultUri: vscode.Uri.joinPath(folder.uri, '..'),
  });
  const outUri = picked?.[0];
  if (!outUri) return undefined;

  let result = await runExport(deps, folder, outUri, false);
  if (result && !result.written) {
    const reasons = result.reasons.map((r) => `${r.spec === '*' ? 'task' : r.spec}: ${r.reason}`);
    const writeAnyway = 'Write anyway (unverified)';
    const showOutput = 'Show output';
    const choice = await vscode.window.showWarningMessage(
      `Weave: the task did not verify, so nothing was written. ${reasons.slice(0, 3).join(' · ')}` +
        (reasons.length > 3 ? ` (+${reasons.length - 3} more in the output)` : ''),
      writeAnyway,
      showOutput,
    );
    if (choice === showOutput) deps.log.show(true);
    if (choice === writeAnyway) result = await runExport(deps, folder, outUri, true);
  }
  if (result?.written) {
    const openTask = 'Open task.json';
    const summary =
      `Weave: task ${result.instanceId} written${result.verified ? ' (verified)' : ' — not verified'}. ` +
      `FAIL_TO_PASS: ${result.failToPass.join(', ') || 'none'}; PASS_TO_PASS: ${result.passToPass.length} specs` +
      (result.excluded.length > 0 ? `; left out: ${result.excluded.map((e) => e.path).join(', ')}` : '');
    const choice = await vscode.window.showInformationMessage(summary, openTask);
    if (choice === openTask) await vscode.window.showTextDocument(vscode.Uri.joinPath(outUri, 'task.json'));
  }
  return result;
}

async function runExport(
  deps: ExportCommandDeps,
  folder: vscode.WorkspaceFolder,
  outUri: vscode.Uri,
  allowUnverified: boolean,
): Promise<ExportResult | undefined> {
  const { log } = deps;
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: 'Weave: exporting benchmark task',
      cancellable: true,
    },
    async (progress, token) => {
      const controller = new AbortController();
      const subscription = token.onCancellationRequested(() => controller.abort());
      try {
        const result = await exportTask({
          workspaceDir: folder.uri.fsPath,
          outDir: outUri.fsPath,
          allowUnverified,
          signal: controller.signal,
          weaveVersion: String(
            vscode.extensions.getExtension('weave-dev.weave')?.packageJSON?.version ?? 'unknown',
          ),
          onProgress: (message) => {
            log.info(`export: ${message}`);
            progress.report({ message });
          },
        });
        logResult(log, result);
        return result;
      } catch (error) {
        if (controller.signal.aborted) {
          log.info('export: cancelled');
          return undefined;
        }
        const message = error instanceof Error ? error.message : String(error);
        log.error(`export: ${message}`);
        if (error instanceof ExportInputError)
          void vscode.window.showErrorMessage(`Weave export: ${message}`);
        else void vscode.window.showErrorMessage(`Weave export failed: ${message} (see Weave output)`);
        return undefined;
      } finally {
        subscription.dispose();
      }
    },
  );
}

function logResult(log: vscode.LogOutputChannel, result: ExportResult): void {
  log.info(
    `export: ${result.instanceId} ${result.written ? `written to ${result.outDir}` : 'not written'}; ` +
      `verified=${result.verified}; base ${result.baseRef}; FAIL_TO_PASS ${result.failToPass.join(', ') || '-'}; ` +
      `PASS_TO_PASS ${result.passToPass.join(', ') || '-'}`,
  );
  for (const r of result.reasons) log.warn(`export: not verified: ${r.spec}: ${r.reason}`);
  for (const e of result.excluded) log.info(`export: left out ${e.path} (${e.reason})`);
}
