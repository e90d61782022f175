// The `weave.*` settings (package.json `contributes.configuration`), read fresh on every use so a change
// applies to the next check without a reload.
import * as vscode from 'vscode';
import type { ContainmentRequest } from '../core/sandbox/containment';

export interface WeaveSettings {
  /** 0 = the engine's default (one per CPU core). */
  concurrency: number;
  checkOnSave: boolean;
  /** '' = the last run recorded on a clean tree; otherwise a git ref. */
  baseline: string;
  failureLines: number;
  /** 0 = the spec file's defaults.timeoutSeconds; otherwise replaces it (a spec's own timeout still wins). */
  timeoutSeconds: number;
  /** Record per-spec coverage on every check (the Coverage profile records it whatever this says). */
  coverage: boolean;
  /** Runs again of a new failure before it counts as broken (`weave check --retries`); 0 = believe it at once. */
  retries: number;
}

export function readSettings(scope?: vscode.ConfigurationScope): WeaveSettings {
  const config = vscode.workspace.getConfiguration('weave', scope);
  return {
    concurrency: Math.max(0, Math.floor(config.get<number>('concurrency', 0))),
    checkOnSave: config.get<boolean>('checkOnSave', false),
    baseline: config.get<string>('baseline', '').trim(),
    failureLines: Math.min(20, Math.max(1, Math.floor(config.get<number>('failureLines', 3)))),
    timeoutSeconds: Math.min(86_400, Math.max(0, config.get<number>('timeoutSeconds', 0))),
    coverage: config.get<boolean>('coverage', true),
    retries: Math.min(5, Math.max(0, Math.floor(config.get<number>('check.retries', 1)))),
  };
}

/**
 * Containment of agent runs. Machine-scoped in the manifest so a workspace's own settings cannot turn the
 * sandbox off for the user.
 */
export function readContainmentSettings(): ContainmentRequest {
  const config = vscode.workspace.getConfiguration('weave.sandbox');
  const network = config.get<string>('network', 'none') === 'host' ? 'host' : 'none';
  return { network, ...(config.get<boolean>('allowUnsandboxed', false) ? { allowUnsandboxed: true } : {}) };
}
