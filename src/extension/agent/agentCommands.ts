// The agent in VS Code: "Weave: run agent on all constraints", "Weave: show interaction matrix" and
// "Weave: set API key". The core does the work (src/core/agent); this file adds the key from SecretStorage,
// a cancellable progress notification, the result in a tab that stays until Apply / Discard (agentResultView.ts)
// with the multi-file diff, and the matrix as a heatmap in an editor tab (matrixView.ts). Untrusted folders run
// nothing (an agent runs the folder's spec tests).
import * as vscode from 'vscode';
import { createModelClient, ModelError, type ModelClient } from '../../core/agent/modelClient';
import { runMatrix, type MatrixResult } from '../../core/agent/matrix';
import { runAgent, type AgentProgress, type AgentRunResult } from '../../core/agent/runAgent';
import { readContainmentSettings } from '../settings';
import type { SpecFile } from '../../shared/specSchema';
import type { SpecStore } from '../specStore';
import { explainUntrusted } from '../trust';
import { API_KEY_SECRET, readAgentSettings, type AgentSettings } from './agentSettings';
import type { AgentResultView } from './agentResultView';
import { createLmModelClient } from './lmModelClient';
import { showMatrixView } from './matrixView';
import type { ReviewDecision } from './reviewChanges';
import { explainEnding, ToolFailureTally } from '../../core/agent/runWording';

export interface AgentCommandDeps {
  store: SpecStore;
  log: vscode.LogOutputChannel;
  results: AgentResultView;
}

/**
 * Optional argument of `weave.agent.runAll`, for tests and scripts only (the palette passes nothing):
 * `executeCommand('weave.agent.runAll', { autoApply: 'apply' })` applies the patch without waiting for the
 * result tab's Apply, `'discard'` drops it; either way the result tab and the diff are still shown.
 */
export interface RunAllArgs {
  autoApply?: 'apply' | 'discard';
}

export interface AgentRunOutcome {
  result: AgentRunResult;
  /** 'pending': the result tab waits for Apply / Discard (weave.agent.applyResult / discardResult). */
  decision: ReviewDecision | 'nothing-to-apply' | 'pending';
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
  deps: Pick<AgentCommandDeps, 'store' | 'log'>,
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
  tally: ToolFailureTally,
  work: (signal: AbortSignal, onProgress: (e: AgentProgress) => void) => Promise<T>,
): Thenable<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      const onProgress = (e: AgentProgress): void => {
        tally.note(e);
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
  const tally = new ToolFailureTally();
  const result = await withAgentProgress(
    'Weave agent: all constraints',
    deps.log,
    tally,
    (signal, onProgress) =>
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
  const ending = explainEnding(result, tally.of('all'));
  deps.log.info(`agent run ${result.runId}: ${ending}`);
  await deps.results.show(result, ending);
  if (result.patch.trim() === '') return { result, decision: 'nothing-to-apply' };
  const autoApply = args?.autoApply === 'apply' || args?.autoApply === 'discard' ? args.autoApply : undefined;
  if (autoApply === undefined) return { result, decision: 'pending' };
  const decision = autoApply === 'apply' ? await deps.results.apply() : await deps.results.discard();
  return { result, decision: decision ?? 'failed' };
}

async function showMatrix(
  context: vscode.ExtensionContext,
  deps: AgentCommandDeps,
): Promise<MatrixResult | undefined> {
  const prepared = await prepareAgentModel(context, deps);
  if (!prepared) return undefined;
  const { settings } = prepared;
  const tally = new ToolFailureTally();
  const matrix = await withAgentProgress(
    'Weave agent: interaction matrix',
    deps.log,
    tally,
    (signal, onProgress) =>
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
  showMatrixView(matrix, (target) => tally.of(target));
  return matrix;
}
