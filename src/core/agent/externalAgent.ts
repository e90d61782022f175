// An external agent command as one of `weave agent --candidates`' candidates: it works in the candidate's
// standalone checkout instead of Weave's model/tool loop, on the same prompts, and everything around it is the
// same as for a model candidate (spec runs in the sandbox before and after, the diff policy, the deterministic
// review, apply refusals). The contract is `weave bench`'s (README "weave bench"): `sh -c` in the checkout, the
// instruction on stdin and in $WEAVE_INSTRUCTION; whatever it leaves changed is its patch. Like bench, it keeps
// the user's environment and network (it is the agent the user chose) in a private PID namespace, with the
// user's workspace hidden (empty, read-only): it sees the checkout only, not the other candidates' runs.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCommand } from '../process/runCommand';
import { userCommandLauncher } from '../sandbox/sandboxPolicy';
import { removeTree } from '../deepTrees';
import type { LoopOutcome } from './agentLoop';
import type { CheckoutActor } from './checkoutWork';
import { ModelError, type ModelClient } from '../model';

export interface ExternalAgent {
  command: string;
  /** Folders the command must not read (the user's workspace: other candidates' runs are in it). */
  hiddenDirs: readonly string[];
  timeoutMs: number;
}

const NO_USAGE = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

/** Runs the command once in the checkout; its output goes into the trajectory (redacted like the rest). */
export function externalAgentActor(agent: ExternalAgent): CheckoutActor {
  return async ({ checkoutDir, system, task, trajectory, signal }): Promise<LoopOutcome> => {
    const instruction = `${system}\n\n${task}\n`;
    // Outside the checkout: the instruction file must not become part of the candidate's patch.
    const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-agent-command-'));
    try {
      const instructionFile = path.join(scratch, 'instruction.md');
      await fs.writeFile(instructionFile, instruction);
      const launcher = await userCommandLauncher(agent.hiddenDirs);
      const outcome = await runCommand({
        command: `( ${agent.command} ) < '${instructionFile.replace(/'/g, `'\\''`)}'`,
        cwd: checkoutDir,
        env: { WEAVE_INSTRUCTION: instruction },
        ...(launcher ? { launcher } : {}),
        timeoutMs: agent.timeoutMs,
        signal,
      });
      trajectory.write({ type: 'command', command: agent.command, output: outcome.output });
      const failed = outcome.cancelled
        ? undefined
        : outcome.timedOut
          ? `timed out after ${Math.round(agent.timeoutMs / 1000)} s`
          : (outcome.spawnError ??
            (outcome.exitCode === 0 ? undefined : `exited with ${outcome.exitCode ?? outcome.signal}`));
      return {
        stopReason: outcome.cancelled
          ? 'cancelled'
          : failed === undefined
            ? 'finished'
            : 'agent-command-failed',
        ...(failed === undefined ? {} : { error: failed }),
        steps: 0,
        usage: { ...NO_USAGE },
      };
    } finally {
      await removeTree(scratch);
    }
  };
}

/** The identity an external candidate's trajectory records; it is never asked anything (no model review). */
export function externalAgentIdentity(label: string): ModelClient {
  return {
    model: label,
    baseURL: '',
    complete: () =>
      Promise.reject(new ModelError('unknown-model', `${label} is an agent command, not a model`)),
  };
}
