// The `weave.*` settings (package.json `contributes.configuration`), read fresh on every use so a change
// applies to the next check without a reload.
import * as vscode from 'vscode';

export interface WeaveSettings {
  /** 0 = the engine's default (one per core, capped). */
  concurrency: number;
  /** Overrides the spec file's `defaults.timeoutSeconds`; undefined = keep the file's. */
  timeoutSeconds: number | undefined;
  checkOnSave: boolean;
  /** '' = the last run recorded on a clean tree; otherwise a git ref. */
  baseline: string;
  failureLines: number;
}

export function readSettings(scope?: vscode.ConfigurationScope): WeaveSettings {
  const config = vscode.workspace.getConfiguration('weave', scope);
  const timeout = config.get<number | null>('timeoutSeconds', null);
  return {
    concurrency: Math.max(0, Math.floor(config.get<number>('concurrency', 0))),
    timeoutSeconds: typeof timeout === 'number' && timeout > 0 ? timeout : undefined,
    checkOnSave: config.get<boolean>('checkOnSave', false),
    baseline: config.get<string>('baseline', '').trim(),
    failureLines: Math.min(20, Math.max(1, Math.floor(config.get<number>('failureLines', 3)))),
  };
}
