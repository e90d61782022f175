// The `weave.agent.*` settings read from VS Code and the API key in SecretStorage (never in settings files);
// what the values mean is agentSetup.ts, which needs no `vscode`.
import * as vscode from 'vscode';
import { agentSettingsFrom, type AgentSettings } from './agentSetup';

export type { AgentSettings } from './agentSetup';

export const API_KEY_SECRET = 'weave.agent.apiKey';

export function readAgentSettings(scope?: vscode.ConfigurationScope): AgentSettings {
  const c = vscode.workspace.getConfiguration('weave.agent', scope);
  return agentSettingsFrom((key, fallback) => c.get(key, fallback));
}
