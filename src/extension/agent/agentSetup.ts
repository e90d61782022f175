// The editor's way into an agent run, without `vscode`: the `weave.agent.*` settings' values (agentSettings.ts
// reads them from VS Code), the model they name in the core's terms, and the run options the core builds for
// every face (agentRunSetup.ts), so the editor's agent gets the prompt the CLI's gets. Kept apart from the
// vscode adapter so plain-Node tests can walk the same path.
import type { AgentRunRequest, AgentRunSetup } from '../../core/agent/agentRunSetup';
import { agentRunSetup } from '../../core/agent/agentRunSetup';
import {
  DEFAULT_BASE_URL,
  modelFromSettings,
  type ModelClient,
  type ModelSettings,
  type Sampling,
} from '../../core/model';
import { DEFAULT_BUDGETS, type AgentBudgets } from '../../core/agent/runAgent';
import type { SpecFile } from '../../shared/specSchema';

export interface AgentSettings {
  /** 'openai': any OpenAI-compatible endpoint; 'vscode-lm': a model from VS Code's Language Model API. */
  provider: 'openai' | 'vscode-lm';
  baseUrl: string;
  model: string;
  maxSteps: number;
  maxTokens: number;
  timeoutSeconds: number;
  matrixConcurrency: number;
  modelReview: boolean;
  /** "Weave: Run N agents": how many candidates, which models in turn (empty: `model`), how many at once. */
  candidates: number;
  candidateModels: string[];
  candidateConcurrency: number;
}

/** One `weave.agent.<key>` setting's value, `fallback` when unset (VS Code's `WorkspaceConfiguration.get`). */
export type SettingReader = <T>(key: string, fallback: T) => T;

export function agentSettingsFrom(get: SettingReader): AgentSettings {
  const whole = (key: string, fallback: number): number =>
    Math.max(1, Math.floor(get<number>(key, fallback)));
  return {
    provider: get<string>('provider', 'openai') === 'vscode-lm' ? 'vscode-lm' : 'openai',
    baseUrl: get<string>('baseUrl', '').trim() || DEFAULT_BASE_URL,
    model: get<string>('model', '').trim(),
    maxSteps: whole('maxSteps', DEFAULT_BUDGETS.maxSteps),
    maxTokens: whole('maxTokens', DEFAULT_BUDGETS.maxTokens),
    timeoutSeconds: whole('timeoutSeconds', DEFAULT_BUDGETS.timeoutSeconds),
    matrixConcurrency: whole('matrixConcurrency', 2),
    modelReview: get<boolean>('modelReview', true),
    candidates: whole('candidates', 3),
    candidateModels: modelNames(get<unknown>('candidateModels', [])),
    candidateConcurrency: whole('candidateConcurrency', 2),
  };
}

/** A models list setting as names: non-strings and blanks dropped (a hand-edited settings.json may hold them). */
function modelNames(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((m): m is string => typeof m === 'string' && m.trim() !== '').map((m) => m.trim());
}

/** The models candidate K takes in turn: the `candidateModels` setting, else the one `model`. */
export function candidateModelsOf(settings: AgentSettings): string[] {
  if (settings.candidateModels.length > 0) return settings.candidateModels;
  return settings.model ? [settings.model] : [];
}

/** The 'openai' provider's model (the 'vscode-lm' one comes from VS Code itself: lmModelClient.ts). */
export function modelSettingsOf(settings: AgentSettings, apiKey: string | undefined): ModelSettings {
  return {
    baseUrl: settings.baseUrl,
    model: settings.model,
    apiKey,
    noModel: 'No model is set: choose one in the setting weave.agent.model.',
  };
}

/** A valid spec file, the model client the settings name, the settings and the key (to redact). */
export interface Prepared {
  specFile: SpecFile;
  client: ModelClient;
  settings: AgentSettings;
  apiKey: string | undefined;
}

/** The budgets the settings give every agent run (runAll, matrix, draft). */
export function settingsBudgets(settings: AgentSettings): AgentBudgets {
  const { maxSteps, maxTokens, timeoutSeconds } = settings;
  return { maxSteps, maxTokens, timeoutSeconds };
}

/** The run options of the editor's agent runs (runAll, matrix), built by the core as for every face. */
export function editorAgentRun(
  prepared: Prepared,
  run: Pick<AgentRunRequest, 'workspaceDir' | 'containment' | 'signal' | 'onProgress'>,
): Promise<AgentRunSetup> {
  return agentRunSetup({
    ...run,
    specFile: prepared.specFile,
    client: prepared.client,
    apiKey: prepared.apiKey,
    budgets: settingsBudgets(prepared.settings),
  });
}

/**
 * The client of each "Run N agents" candidate, from the same settings and key as the prepared one: the 'openai'
 * provider names the candidate's model and seed; VS Code's Language Model API takes no seed, so every candidate
 * talks to the one model it chose.
 */
export function candidateClients(prepared: Prepared): {
  models: string[];
  clientFor: (model: string, sampling: Sampling) => ModelClient;
} {
  if (prepared.settings.provider === 'vscode-lm')
    return { models: [prepared.client.model], clientFor: () => prepared.client };
  return {
    models: candidateModelsOf(prepared.settings),
    clientFor: (model, sampling) =>
      modelFromSettings({ ...modelSettingsOf({ ...prepared.settings, model }, prepared.apiKey), sampling }),
  };
}
