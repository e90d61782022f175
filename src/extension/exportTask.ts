// "Weave: export workspace as benchmark task" (weave.export): the VS Code face of core/tasks/export/exportTask.
// Asks for an output folder (or takes it from the command argument), shows progress in a notification (the phase,
// each run's "spec N of M"; cancellable: every test process is killed), then a summary — or, when the task does not
// verify, the per-spec reasons with the end of each one's output, on screen until answered, with an offer to write
// it anyway (marked unverified).
import path from 'node:path';
import * as vscode from 'vscode';
import { exportTask, ExportInputError, type ExportResult } from '../core/tasks/export/exportTask';
import { describeRunEnvironment } from '../core/tasks/run/taskRunner';
import { exportPathProblem, refusalText } from './views/exportText';

export interface ExportCommandDeps {
  /** The workspace folder to export (the one holding .weave/specs.json). */
  folder: vscode.WorkspaceFolder;
  log: vscode.LogOutputChannel;
}

/**
 * Optional argument of `weave.export`, for tests and scripts (a dialog cannot be clicked there):
 * `executeCommand('weave.export', { out: '/abs/dir', allowUnverified: true })` exports into `out` (relative
 * paths are taken from the workspace folder) without the folder dialog and without any question.
 */
export interface ExportCommandArgs {
  out: string;
  allowUnverified?: boolean;
}

/**
 * `weave.export` (the command table refuses it in an untrusted folder: verification runs every spec test).
 * Returns the result (for tests and other commands), or undefined when nothing ran.
 */
export async function exportCommand(
  deps: ExportCommandDeps,
  rawArgs: unknown,
): Promise<ExportResult | undefined> {
  const { folder } = deps;
  if (rawArgs !== undefined) {
    const args = parseArgs(rawArgs);
    if (typeof args === 'string') {
      void vscode.window.showErrorMessage(`Weave export: ${args}`);
      return undefined;
    }
    const outUri = vscode.Uri.file(path.resolve(folder.uri.fsPath, args.out));
    const result = await runExport(deps, folder, outUri, args.allowUnverified === true);
    if (result?.written) void vscode.window.showInformationMessage(summaryOf(result));
    else if (result) void vscode.window.showErrorMessage(refusalText(result.reasons));
    return result;
  }
  // A typed path, not a file dialog: VS Code's own dialog (remote windows, code-server) refuses a folder that does not
  // exist yet when its path ends in a slash, and takes one without the slash as a file name. Nothing is created
  // here: the export makes the folder only once the task verified, so a refusal leaves no empty folder behind.
  const typed = await vscode.window.showInputBox({
    title: 'Weave: folder for the benchmark task',
    prompt:
      'A new folder (created), an empty one, or a previous export. Relative paths start at the workspace.',
    value: path.join(path.dirname(folder.uri.fsPath), `${path.basename(folder.uri.fsPath)}-task`),
    ignoreFocusOut: true,
    validateInput: (value) => exportPathProblem(value, folder.uri.fsPath),
  });
  if (typed === undefined) return undefined;
  const outUri = vscode.Uri.file(path.resolve(folder.uri.fsPath, typed.trim()));

  let result = await runExport(deps, folder, outUri, false);
  if (result && !result.written) {
    const writeAnyway = 'Write anyway (unverified)';
    const showOutput = 'Show output';
    // An error with buttons stays on screen until answered (VS Code hides an info or warning toast after 10-12 s,
    // so a person who looked away during a long verification found the refusal only in the notification centre).
    const choice = await vscode.window.showErrorMessage(refusalText(result.reasons), writeAnyway, showOutput);
    if (choice === showOutput) deps.log.show(true);
    if (choice === writeAnyway) result = await runExport(deps, folder, outUri, true);
  }
  if (result?.written) {
    const openTask = 'Open task.json';
    const reveal = 'Reveal folder';
    const choice = await vscode.window.showInformationMessage(summaryOf(result), openTask, reveal);
    if (choice === openTask) await vscode.window.showTextDocument(vscode.Uri.joinPath(outUri, 'task.json'));
    if (choice === reveal) await vscode.commands.executeCommand('revealFileInOS', outUri);
  }
  return result;
}

/** The command argument, or a message saying what is wrong with it. */
function parseArgs(raw: unknown): ExportCommandArgs | string {
  if (typeof raw !== 'object' || raw === null) return 'the command argument must be { out: string }';
  const { out, allowUnverified } = raw as Record<string, unknown>;
  if (typeof out !== 'string' || out.trim() === '') return 'the command argument needs `out`: a folder path';
  if (allowUnverified !== undefined && typeof allowUnverified !== 'boolean')
    return '`allowUnverified` in the command argument must be true or false';
  return allowUnverified === undefined ? { out } : { out, allowUnverified };
}

function summaryOf(result: ExportResult): string {
  return (
    `Weave: task ${result.instanceId} written to ${result.outDir}` +
    (result.verified ? ` (verified ${describeRunEnvironment(result.verifiedIn)}). ` : ' — not verified. ') +
    `FAIL_TO_PASS: ${result.failToPass.join(', ') || 'none'}; PASS_TO_PASS: ${result.passToPass.length} specs` +
    (result.excluded.length > 0 ? `; left out: ${result.excluded.map((e) => e.path).join(', ')}` : '')
  );
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
          // About once a second the notification says which phase runs: snapshots, each run's set-up command,
          // "gold patch: spec 3 of 8 running (cache-hit)", the Harbor contract, the write.
          progressIntervalMs: PROGRESS_INTERVAL_MS,
          onProgress: (message) => {
            // The set-up's "running for N s" comes every second: the log keeps the other lines.
            if (!SETUP_TICK.test(message)) log.info(`export: ${message}`);
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

/** How often the export looks for progress to show (the CLI prints a line per look, so it looks every 15 s). */
const PROGRESS_INTERVAL_MS = 1_000;
const SETUP_TICK = /: environment set-up running for \d+ s: /;

function logResult(log: vscode.LogOutputChannel, result: ExportResult): void {
  log.info(
    `export: ${result.instanceId} ${result.written ? `written to ${result.outDir}` : 'not written'}; ` +
      `verified=${result.verified}; base ${result.baseRef}; FAIL_TO_PASS ${result.failToPass.join(', ') || '-'}; ` +
      `PASS_TO_PASS ${result.passToPass.join(', ') || '-'}`,
  );
  for (const r of result.reasons) log.warn(`export: not verified: ${r.spec}: ${r.reason}`);
  for (const e of result.excluded) log.info(`export: left out ${e.path} (${e.reason})`);
}
