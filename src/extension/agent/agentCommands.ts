// The agent in VS Code: "Weave: run agent on all constraints", "Weave: run N agents", "Weave: show interaction
// matrix" and "Weave: set API key" (registered by the command table, commands.ts, which also refuses them in an untrusted
// folder: an agent runs the folder's spec tests). The core does the work (src/core/agent); this file adds the key
// from SecretStorage, a cancellable progress notification, the result in a tab that stays until Apply / Discard
// (agentResultView.ts) with the multi-file diff, N candidates ranked in a comparison tab (candidatesView.ts), and
// the matrix as a heatmap in an editor tab (matrixView.ts).
import * as vscode from 'vscode';
import { ModelError, modelFromSettings, probeModelEndpoint } from '../../core/model';
import type { AgentRunSetup } from '../../core/agent/agentRunSetup';
import { runMatrix, type MatrixResult } from '../../core/agent/matrix';
import type { AgentRunResult } from '../../core/agent/agentRunResult';
import { runAgent, type AgentBudgets, type AgentProgress } from '../../core/agent/runAgent';
import { readContainmentSettings } from '../settings';
import type { SpecStore } from '../specStore';
import { API_KEY_SECRET, readAgentSettings, type AgentSettings } from './agentSettings';
import {
  candidateClients,
  candidateModelsOf,
  editorAgentRun,
  modelSettingsOf,
  settingsBudgets,
  type Prepared,
} from './agentSetup';
import type { AgentResultView } from './agentResultView';
import type { CandidatesView } from './candidatesView';
import { modelCandidatePlans, runCandidates, type CandidatesOutcome } from '../../core/agent/candidates';
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

/** `weave.agent.setApiKey`: the key goes to SecretStorage, never to settings. */
export async function setApiKey(context: vscode.ExtensionContext): Promise<void> {
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

/** A valid spec file and a model client from the agent settings (the draft agent uses the same). */
export async function prepareAgentModel(
  context: vscode.ExtensionContext,
  deps: Pick<AgentCommandDeps, 'store' | 'log'>,
  /** The 'openai' model to prepare when it is not `weave.agent.model` (Run N agents: its first candidate's). */
  modelFor?: (settings: AgentSettings) => string,
): Promise<Prepared | undefined> {
  const loaded = await deps.store.validOrExplain();
  if (!loaded) return undefined;
  const settings = readAgentSettings(deps.store.folder);
  const apiKey = await context.secrets.get(API_KEY_SECRET);
  try {
    const client =
      settings.provider === 'vscode-lm'
        ? await createLmModelClient(settings.model ? { id: settings.model } : {})
        : modelFromSettings(
            modelSettingsOf(modelFor ? { ...settings, model: modelFor(settings) } : settings, apiKey),
          );
    // A server that is not there fails in about a second, before the agent's first check of every spec.
    if (settings.provider !== 'vscode-lm') await probeModelEndpoint(client.baseURL);
    return { specFile: loaded.result.specFile, client, settings, apiKey };
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    deps.log.warn(`agent model: ${error.message}`);
    // Not awaited: the command ends now; the buttons act whenever the user picks one.
    void offerModelFixes(error.message);
    return undefined;
  }
}

async function offerModelFixes(message: string): Promise<void> {
  const setKey = 'Set API key';
  const openSettings = 'Open settings';
  const picked = await vscode.window.showErrorMessage(`Weave: ${message}`, setKey, openSettings);
  if (picked === setKey) await vscode.commands.executeCommand('weave.agent.setApiKey');
  if (picked === openSettings)
    await vscode.commands.executeCommand('workbench.action.openSettings', 'weave.agent');
}

/** The run options every agent run takes from the settings and the prepared model (runAll, matrix, draft). */
export function agentRunLimits(prepared: Prepared): {
  budgets: AgentBudgets;
  secrets: Array<string | undefined>;
} {
  return { budgets: settingsBudgets(prepared.settings), secrets: [prepared.apiKey] };
}

/** The agent runs going on in this window (single, matrix, candidates): `weave.agent.stop` aborts them all. */
const runsGoingOn = new Set<AbortController>();

/** `weave.agent.stop`: aborts every agent run of this window, as their notifications' Cancel does; how many. */
export function stopAgentRuns(log: vscode.LogOutputChannel): number {
  const count = runsGoingOn.size;
  for (const run of runsGoingOn) run.abort();
  log.info(count === 0 ? 'stop agent runs: none is going on' : `stop agent runs: stopping ${count}`);
  void vscode.window.showInformationMessage(
    count === 0
      ? 'Weave: no agent run is going on.'
      : `Weave: stopping ${count === 1 ? 'the agent run' : `${count} agent runs`}; their checkouts are removed.`,
  );
  return count;
}

/** What runAgent and runMatrix both take from the workspace, the prepared model and the progress notification. */
type AgentRunBase = AgentRunSetup & { signal: AbortSignal };

/**
 * Prepares the model, then runs `work` under a cancellable progress notification that shows and logs each step;
 * undefined when the model could not be prepared (the user was told why).
 */
async function runWithAgent<T>(
  context: vscode.ExtensionContext,
  deps: Pick<AgentCommandDeps, 'store' | 'log'>,
  title: string,
  work: (base: AgentRunBase, prepared: Prepared) => Promise<T>,
  options: {
    /** Several runs at once (candidates): the notification holds each run's latest line, not only the newest. */
    perTarget?: boolean;
    modelFor?: (settings: AgentSettings) => string;
  } = {},
): Promise<{ value: T; tally: ToolFailureTally } | undefined> {
  const { perTarget = false, modelFor } = options;
  const prepared = await prepareAgentModel(context, deps, modelFor);
  if (!prepared) return undefined;
  const tally = new ToolFailureTally();
  const value = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      runsGoingOn.add(abort);
      const latest = new Map<string, string>();
      const onProgress = (e: AgentProgress): void => {
        tally.note(e);
        const text =
          e.type === 'phase'
            ? e.message
            : e.type === 'step'
              ? `step ${e.step}/${e.maxSteps}`
              : `${e.ok ? '✓' : '✗'} ${e.name}: ${e.summary}`;
        deps.log.info(`agent [${e.target}] ${text}`);
        latest.set(e.target, text);
        const message = perTarget
          ? [...latest].map(([target, line]) => `[${target}] ${line}`).join(' · ')
          : `[${e.target}] ${text}`;
        progress.report({ message });
      };
      try {
        const setup = await editorAgentRun(prepared, {
          workspaceDir: deps.store.folder.uri.fsPath,
          containment: readContainmentSettings(),
          signal: abort.signal,
          onProgress,
        });
        return await work({ ...setup, signal: abort.signal }, prepared);
      } finally {
        runsGoingOn.delete(abort);
      }
    },
  );
  return { value, tally };
}

/** `weave.agent.runAll`. */
export async function runAll(
  context: vscode.ExtensionContext,
  deps: AgentCommandDeps,
  args?: RunAllArgs,
): Promise<AgentRunOutcome | undefined> {
  const ran = await runWithAgent(context, deps, 'Weave agent: all constraints', (base, { settings }) =>
    runAgent({ ...base, target: { kind: 'all' }, modelReview: settings.modelReview }),
  );
  if (!ran) return undefined;
  const { value: result, tally } = ran;
  const ending = explainEnding(result, tally.of('all'));
  deps.log.info(`agent run ${result.runId}: ${ending}`);
  await deps.results.show(result, ending);
  if (result.patch.trim() === '') return { result, decision: 'nothing-to-apply' };
  const autoApply = args?.autoApply === 'apply' || args?.autoApply === 'discard' ? args.autoApply : undefined;
  if (autoApply === undefined) return { result, decision: 'pending' };
  const decision = autoApply === 'apply' ? await deps.results.apply() : await deps.results.discard();
  return { result, decision: decision ?? 'failed' };
}

/** `weave.agent.matrix`. */
export async function showMatrix(
  context: vscode.ExtensionContext,
  deps: AgentCommandDeps,
): Promise<MatrixResult | undefined> {
  const ran = await runWithAgent(context, deps, 'Weave agent: interaction matrix', (base, { settings }) =>
    runMatrix({ ...base, concurrency: settings.matrixConcurrency }),
  );
  if (!ran) return undefined;
  // The heatmap replaces the text table here; the CLI (`weave agent --matrix`) still prints the table and JSON.
  showMatrixView(ran.value, (target) => ran.tally.of(target));
  return ran.value;
}

/**
 * Optional argument of `weave.agent.runCandidates`, for tests and scripts (the palette passes nothing and the
 * settings weave.agent.candidates / candidateModels decide): how many candidates and which models in turn.
 */
export interface RunCandidatesArgs {
  count?: number;
  models?: string[];
}

/**
 * `weave.agent.runCandidates` ("Run N agents"): the core's candidate runner (each candidate a full agent run in
 * its own sandboxed checkout, models in turn, seed K) with the editor's model settings and key, per-candidate
 * progress (Cancel stops every candidate), then the comparison tab.
 */
export async function runCandidatesCommand(
  context: vscode.ExtensionContext,
  deps: Pick<AgentCommandDeps, 'store' | 'log'> & { candidates: CandidatesView },
  args?: RunCandidatesArgs,
): Promise<CandidatesOutcome | undefined> {
  const asked = (Array.isArray(args?.models) ? args.models : [])
    .filter((m) => typeof m === 'string' && m.trim() !== '')
    .map((m) => m.trim());
  const ran = await runWithAgent(
    context,
    deps,
    'Weave: run N agents',
    (base, prepared) => {
      const { models, clientFor } = candidateClients(prepared);
      const chosen = prepared.settings.provider === 'openai' && asked.length > 0 ? asked : models;
      const count =
        typeof args?.count === 'number' && Number.isInteger(args.count) && args.count >= 1
          ? args.count
          : prepared.settings.candidates;
      return runCandidates({
        ...base,
        target: { kind: 'all' },
        plans: modelCandidatePlans(count, chosen, clientFor),
        concurrency: prepared.settings.candidateConcurrency,
        modelReview: prepared.settings.modelReview,
      });
    },
    // The model prepared (and probed) first is the first candidate's: weave.agent.model may be unset.
    { perTarget: true, modelFor: (settings) => asked[0] ?? candidateModelsOf(settings)[0] ?? '' },
  );
  if (!ran) return undefined;
  const { value: outcome, tally } = ran;
  const endings = new Map(
    outcome.results.map((r, i) => [i + 1, explainEnding(r, tally.of(`cand-${i + 1}`))] as const),
  );
  const { ranking } = outcome;
  deps.log.info(
    `candidates ${ranking.id}: order ${ranking.order.map((i) => `cand-${i}`).join(', ')}; best ${ranking.best === null ? 'none (all disqualified)' : `cand-${ranking.best}`}`,
  );
  await deps.candidates.show(outcome, endings);
  return outcome;
}
