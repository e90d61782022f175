// The one place that decides, from whether bubblewrap works here (detectSandbox) and what the user allowed, how a
// command Weave starts is contained. Two needs, each answered here only:
//  - code run on behalf of an agent or a prediction needs the sandbox: without one it runs only when the user opted
//    out explicitly (the CLI's --no-sandbox, the setting weave.sandbox.allowUnsandboxed, or, for eval and export,
//    WEAVE_ALLOW_UNSANDBOXED=1 — read here and nowhere else), and otherwise nothing runs;
//  - the user's own code (their checks, the external agent they chose) gets a private PID namespace where it works,
//    so nothing it starts outlives it, and runs as it would by hand where it does not.
import { detectSandbox } from './bwrap';
import { pidNamespaceLauncher } from './launchers';
import type { Launcher } from '../process/runCommand';

/** The sandbox is missing and the user did not opt out: nothing is executed. */
export class SandboxUnavailableError extends Error {
  override name = 'SandboxUnavailableError';
}

export interface SandboxOptOut {
  /** Run without a sandbox when none is available (an explicit opt-out). */
  allowUnsandboxed?: boolean;
  /** Skip the sandbox even where it is available (also an explicit opt-out). */
  forceUnsandboxed?: boolean;
}

export type SandboxDecision = { sandboxed: true } | { sandboxed: false; reason: string };

/** How the refusal tells the user to opt out, by the surface that asked. */
const HOW_TO_OPT_OUT = {
  flags: (reason: string) =>
    `${reason}. Weave runs agent and prediction code only inside a sandbox; ` +
    'to run it unsandboxed anyway, pass --no-sandbox (VS Code: setting weave.sandbox.allowUnsandboxed).',
  environment: (reason: string) =>
    `${reason}: predictions run only inside a sandbox ` +
    '(set WEAVE_ALLOW_UNSANDBOXED=1 to run them unsandboxed anyway)',
};

/**
 * For agent and prediction code: sandboxed when the sandbox works (and was not turned off), unsandboxed with the
 * reason when the user opted out, else SandboxUnavailableError. `via` is how the user opts out: flags (the CLI and
 * the editor pass them) or the environment (eval and export read WEAVE_ALLOW_UNSANDBOXED).
 */
export async function requireSandbox(
  via: 'flags' | 'environment',
  optOut: SandboxOptOut = {},
): Promise<SandboxDecision> {
  const allowUnsandboxed =
    via === 'environment' ? process.env.WEAVE_ALLOW_UNSANDBOXED === '1' : optOut.allowUnsandboxed === true;
  if (optOut.forceUnsandboxed)
    return { sandboxed: false, reason: 'the sandbox was turned off (--no-sandbox)' };
  const availability = await detectSandbox();
  if (availability.available) return { sandboxed: true };
  const reason = availability.reason ?? (via === 'flags' ? 'unsandboxed' : 'no sandbox');
  if (!allowUnsandboxed) {
    throw new SandboxUnavailableError(HOW_TO_OPT_OUT[via](availability.reason ?? 'no sandbox'));
  }
  return { sandboxed: false, reason };
}

/** Whether the user's own commands get a private PID namespace here. */
export async function pidNamespaceAvailable(): Promise<boolean> {
  return (await detectSandbox()).available;
}

/** The launcher for the user's own commands: a private PID namespace where it works, else none (as by hand). */
export async function userCommandLauncher(hiddenDirs: readonly string[] = []): Promise<Launcher | undefined> {
  return (await pidNamespaceAvailable()) ? pidNamespaceLauncher(hiddenDirs) : undefined;
}
