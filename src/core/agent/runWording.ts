// What an agent run's ending means, in words a person can act on: "step-budget" alone says nothing when the
// model spent every step on a tool call that kept failing. Kept free of 'vscode' (unit-tested in plain Node).
import type { StopReason } from './agentLoop';
import type { AgentProgress } from './runAgent';

/** Failed tool calls of one run, grouped by tool and message, most frequent first. */
export interface ToolFailure {
  name: string;
  summary: string;
  count: number;
}

/** Counts the failed tool calls per run target ('all' or a spec id) from the progress events. */
export class ToolFailureTally {
  private readonly byTarget = new Map<string, Map<string, ToolFailure>>();

  note(event: AgentProgress): void {
    if (event.type !== 'tool' || event.ok) return;
    const failures = this.byTarget.get(event.target) ?? new Map<string, ToolFailure>();
    const key = `${event.name}\u0000${event.summary}`;
    const known = failures.get(key) ?? { name: event.name, summary: event.summary, count: 0 };
    known.count++;
    failures.set(key, known);
    this.byTarget.set(event.target, failures);
  }

  of(target: string): ToolFailure[] {
    return [...(this.byTarget.get(target)?.values() ?? [])].sort((a, b) => b.count - a.count);
  }
}

export interface RunEnding {
  stopReason: StopReason;
  error?: string | undefined;
  steps: number;
  finishSummary?: string | undefined;
}

/** One or two sentences: how the run ended, and, when it did not finish, the tool call that kept failing. */
export function explainEnding(run: RunEnding, failures: readonly ToolFailure[]): string {
  const steps = `${run.steps} step${run.steps === 1 ? '' : 's'}`;
  const base: Record<StopReason, string> = {
    finished: `Finished after ${steps}${run.finishSummary ? `: ${run.finishSummary}` : '.'}`,
    'step-budget': `Did not finish: used all ${steps} of its step budget (setting weave.agent.maxSteps).`,
    'token-budget': `Did not finish: ran out of tokens after ${steps} (setting weave.agent.maxTokens).`,
    'time-budget': `Did not finish: ran out of time after ${steps} (setting weave.agent.timeoutSeconds).`,
    cancelled: `Cancelled after ${steps}.`,
    'model-error': `Did not finish: the model failed${run.error ? `: ${run.error}` : '.'}`,
    'agent-command-failed': `Did not finish: the agent command failed${run.error ? `: ${run.error}` : '.'}`,
  };
  let text = base[run.stopReason];
  const top = failures[0];
  if (run.stopReason !== 'finished' && top) {
    const total = failures.reduce((n, f) => n + f.count, 0);
    text +=
      ` ${total} tool call${total === 1 ? '' : 's'} failed` +
      (top.count > 1 ? `, ${top.count}× the same one` : '') +
      `: ${top.name} — ${top.summary}`;
  }
  return text;
}
