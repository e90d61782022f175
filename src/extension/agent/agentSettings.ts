// The `weave.agent.*` settings and the API key in SecretStorage (never in settings files).
import * as vscode from 'vscode';

export const API_KEY_SECRET = 'weave.agent.apiKey';

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
}

export function readAgentSettings(scope?: vscode.ConfigurationScope): AgentSettings {
  const c = vscode.workspace.getConfiguration('weave.agent', scope);
  const whole = (key: string, fallback: number): number =>
    Math.max(1, Math.floor(c.get<number>(key, fallback)));
  return {
    provider: c.get<string>('provider', 'openai') === 'vscode-lm' ? 'vscode-lm' : 'openai',
    baseUrl: c.get<string>('baseUrl', '').trim() || 'https://api.openai.com/v1',
    model: c.get<string>('model', '').trim(),
    maxSteps: whole('maxSteps', 40),
    maxTokens: whole('maxTokens', 400_000),
    timeoutSeconds: whole('timeoutSeconds', 1_200),
    matrixConcurrency: whole('matrixConcurrency', 2),
    modelReview: c.get<boolean>('modelReview', true),
  };
}
