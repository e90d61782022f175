// The agent in VS Code: "Weave: run agent on all constraints", "Weave: show interaction matrix" and
// "Weave: set API key". The core does the work (src/core/agent); this file adds the key from SecretStorage,
// a cancellable progress notification, the review as a multi-file diff with Apply / Discard, and the matrix
// as a heatmap in an editor tab (matrixView.ts). Untrusted folders run nothing (an agent runs the folder's spec tests).
import * as vscode from 'vscode';
import { createModelClient, ModelError, type ModelClient } from '../../core/agent/modelClient';
import { runMatrix, type MatrixResult } from '../../core/agent/matrix';
import { runAgent, type AgentProgress, type AgentRunResult } from '../../core/agent/runAgent';
import { readContainmentSettings } from '../settings';
import type { SpecFile } from '../../core/spec/schema';
import type { SpecStore } from '../specStore';
import { explainUntrusted } from '../trust';
import { API_KEY_SECRET, readAgentSettings, type AgentSettings } from './agentSettings';
import { createLmModelClient } from './lmModelClient';
import { showMatrixView } from './matrixView';
import { reviewAndApply, type ReviewDecision } from './reviewChanges';

export interface AgentCommandDeps {
  store: SpecStore;
  log: vscode.LogOutputChannel;
}

/**
 * Optional argument of `weave.agent.runAll`, for tests and scripts only (the palette passes nothing):
 * `executeCommand('weave.agent.runAll', { autoApply: 'apply' })` applies the patch without asking,
 * `'discard'` drops it; either way the diff is still shown.
 */
export interface RunAllArgs {
  autoApply?: 'apply' | 'discard';
}

export interface AgentRunOutcome {
  result: AgentRunResult;
  decision: ReviewDecision | 'nothing-to-apply';
}

/** Registers the agent's commands; the caller adds the returned disposables to context.subscriptions. */
export function registerAgentCommands(
  context: vscode.ExtensionContext,
  deps: AgentCommandDeps,
): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('weave.agent.setApiKey', () => setApiKey(context)),
    vscode.commands.registerCommand('weave.agent.runAll', (args?: RunAllArgs) => runAll(context, deps, args)),
    vscode.commands.registerCommand('weave.agent.matrix', () => showMatrix(context, deps)),
  ];
}

async function setApiKey(context: vscode.ExtensionContext): Promise<void> {
  const key = await vscode.window.showInputBox({
    title: 'Weave: API key for the agent’s model',
    prompt: 'Stored in VS Code’s SecretStorage (never in settings). Leave empty to remove the stored key.',
    password: true,
    ignoreFocusOut: true,
  });
  if (key === undefined) return;
  if (key.trim() === '') {
    await context.secrets.delete(API_KEY_SECRET);
    void vscode.window.showInformationMessage('Weave: API key removed.');
  } else {
    await context.secrets.store(API_KEY_SECRET, key.trim());
    void vscode.window.showInformationMessage('Weave: API key stored.');
  }
}

export interface Prepared {
  specFile: SpecFile;
  client: ModelClient;
  settings: AgentSettings;
  apiKey: string | undefined;
}

/** Trust, a valid spec file and a model client from the agent settings (the draft agent uses the same). */
export async function prepareAgentModel(
  context: vscode.ExtensionContext,
  deps: AgentCommandDeps,
): Promise<Prepared | undefined> {
  if (!vscode.workspace.isTrusted) {
    void explainUntrusted();
    return undefined;
  }
  const loaded = await deps.store.get();
  if (!loaded.result.ok) {
    void vscode.window.showErrorMessage(
      'Weave: fix the problems in .weave/specs.json first (see the Problems panel).',
    );
    return undefined;
  }
  const settings = readAgentSettings(deps.store.folder);
  const apiKey = await context.secrets.get(API_KEY_SECRET);
  try {
    const client =
      settings.provider === 'vscode-lm'
        ? await createLmModelClient(settings.model ? { id: settings.model } : {})
        : createModelClient({ baseURL: settings.baseUrl, model: requireModel(settings), apiKey });
    return { specFile: loaded.result.specFile, client, settings, apiKey };
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    const setKey = 'Set API key';
    const openSettings = 'Open settings';
    const picked = await vscode.window.showErrorMessage(`Weave: ${error.message}`, setKey, openSettings);
    if (picked === setKey) await vscode.commands.executeCommand('weave.agent.setApiKey');
    if (picked === openSettings)
      await vscode.commands.executeCommand('workbench.action.openSettings', 'weave.agent');
    return undefined;
  }
}

function requireModel(settings: AgentSettings): string {
  if (!settings.model)
    throw new ModelError('unknown-model', 'No model is set: choose one in the setting weave.agent.model.');
  return settings.model;
}

function withAgentProgress<T>(
  title: string,
  log: vscode.LogOutputChannel,
  work: (signal: AbortSignal, onProgress: (e: AgentProgress) => void) => Promise<T>,
): Thenable<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      const onProgress = (e: AgentProgress): void => {
        const text =
          e.type === 'phase'
            ? e.message
            : e.type === 'step'
              ? `step ${e.step}/${e.maxSteps}`
              : `${e.ok ? '✓' : '✗'} ${e.name}: ${e.summary}`;
        log.info(`agent [${e.target}] ${text}`);
        progress.report({ message: `[${e.target}] ${text}` });
      };
      return work(abort.signal, onProgress);
    },
  );
}

async function runAll(
  context: vscode.ExtensionContext,
  deps: AgentCommandDeps,
  args?: RunAllArgs,
): Promise<AgentRunOutcome | undefined> {
  const prepared = await prepareAgentModel(context, deps);
  if (!prepared) return undefined;
  const { settings } = prepared;
  const result = await withAgentProgress('Weave agent: all constraints', deps.log, (signal, onProgress) =>
    runAgent({
      workspaceDir: deps.store.folder.uri.fsPath,
      specFile: prepared.specFile,
      target: { kind: 'all' },
      client: prepared.client,
      budgets: {
        maxSteps: settings.maxSteps,
        maxTokens: settings.maxTokens,
        timeoutSeconds: settings.timeoutSeconds,
      },
      modelReview: settings.modelReview,
      secrets: [prepared.apiKey],
      containment: readContainmentSettings(),
      signal,
      onProgress,
    }),
  );
  await showRunReport(result);
  if (result.error) void vscode.window.showWarningMessage(`Weave agent: ${result.error}`);
  if (result.patch.trim() === '') {
    void vscode.window.showInformationMessage(
      `Weave agent stopped (${result.stopReason}) without changing anything.`,
    );
    return { result, decision: 'nothing-to-apply' };
  }
  const autoApply = args?.autoApply === 'apply' || args?.autoApply === 'discard' ? args.autoApply : undefined;
  const decision = await reviewAndApply(deps.store.folder, result, autoApply);
  deps.log.info(`agent run ${result.runId}: patch ${decision}`);
  return { result, decision };
}

/** The verdict table (before → after) with the review's findings next to it, as a Markdown preview. */
async function showRunReport(result: AgentRunResult): Promise<void> {
  const review = new Map((result.modelReview?.ok ? result.modelReview.specs : []).map((s) => [s.id, s]));
  const rows = result.verdicts.map((v) => {
    const r = review.get(v.id);
    return `| ${v.id} | ${v.before} | ${v.after} | ${r ? `${r.verdict}: ${r.evidence.replace(/\|/g, '\\|')}` : ''} |`;
  });
  const findings = result.findings.map(
    (f) => `- **${f.check}**${f.file ? ` \`${f.file}${f.line ? `:${f.line}` : ''}\`` : ''}: ${f.message}`,
  );
  const markdown = [
    `# Weave agent run ${result.runId}`,
    '',
    `Stopped: **${result.stopReason}**${result.error ? ` (${result.error})` : ''} after ${result.steps} steps, ${result.usage.totalTokens} tokens.`,
    '',
    result.sandboxed
      ? 'Sandbox: every spec run was contained (own checkout, no network, private PID namespace).'
      : `**Sandbox: none** — ${result.unsandboxedReason ?? 'unsandboxed'}; the agent's code ran with your permissions.`,
    ...(result.tamperedSpecs.length > 0
      ? [
          '',
          `**Tampered**: spec runs changed protected files (${result.tamperedSpecs.join(', ')}); this result cannot be applied.`,
        ]
      : []),
    '',
    '| spec | before | after | model review |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
    '## Review findings',
    ...(findings.length ? findings : ['None.']),
    '',
    `Trajectory: \`${result.trajectoryFile}\``,
  ].join('\n');
  const doc = await vscode.workspace.openTextDocument({ content: markdown, language: 'markdown' });
  await vscode.commands
    .executeCommand('markdown.showPreview', doc.uri)
    .then(undefined, () => vscode.window.showTextDocument(doc));
}

async function showMatrix(
  context: vscode.ExtensionContext,
  deps: AgentCommandDeps,
): Promise<MatrixResult | undefined> {
  const prepared = await prepareAgentModel(context, deps);
  if (!prepared) return undefined;
  const { settings } = prepared;
  const matrix = await withAgentProgress('Weave agent: interaction matrix', deps.log, (signal, onProgress) =>
    runMatrix({
      workspaceDir: deps.store.folder.uri.fsPath,
      specFile: prepared.specFile,
      client: prepared.client,
      concurrency: settings.matrixConcurrency,
      budgets: {
        maxSteps: settings.maxSteps,
        maxTokens: settings.maxTokens,
        timeoutSeconds: settings.timeoutSeconds,
      },
      secrets: [prepared.apiKey],
      containment: readContainmentSettings(),
      signal,
      onProgress,
    }),
  );
  // The heatmap replaces the text table here; the CLI (`weave agent --matrix`) still prints the table and JSON.
  showMatrixView(matrix);
  return matrix;
}
