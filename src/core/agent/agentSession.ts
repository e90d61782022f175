// What every model-driven run (an agent run, a draft session) sets up the same way: its budgets over the
// defaults, a redactor for its secrets, a trajectory that starts with the run's model and budgets, and the
// model/tool loop bound to them, the user's cancel and the wall-time budget.
import { runAgentLoop, type AgentBudgets, type LoopInput, type LoopOutcome } from './agentLoop';
import type { ModelClient } from '../model';
import { createRedactor } from './redact';
import { TrajectoryWriter } from './trajectory';

export const DEFAULT_BUDGETS: AgentBudgets = { maxSteps: 40, maxTokens: 400_000, timeoutSeconds: 1_200 };

export interface AgentSessionOptions {
  client: ModelClient;
  budgets?: Partial<AgentBudgets> | undefined;
  signal?: AbortSignal | undefined;
  /** Secrets to redact from everything written (the API key). */
  secrets?: Array<string | undefined> | undefined;
}

/** What the loop needs beyond the session: the prompts, the tools and where progress goes. */
export type SessionLoopInput = Omit<
  LoopInput,
  'client' | 'budgets' | 'userSignal' | 'deadline' | 'trajectory' | 'redact'
>;

export class AgentSession {
  readonly budgets: AgentBudgets;
  readonly redact: (text: string) => string;
  /** The user's cancel (never fires when the caller gave none). */
  readonly userSignal: AbortSignal;
  private readonly client: ModelClient;

  constructor(options: AgentSessionOptions) {
    this.client = options.client;
    this.budgets = { ...DEFAULT_BUDGETS, ...definedOnly(options.budgets ?? {}) };
    this.redact = createRedactor(options.secrets ?? []);
    this.userSignal = options.signal ?? new AbortController().signal;
  }

  /** A trajectory file (secrets redacted) opened with the run's start entry. */
  openTrajectory(file: string, start: { runId: string; target: string }): TrajectoryWriter {
    const trajectory = new TrajectoryWriter(file, this.redact);
    trajectory.write({
      type: 'start',
      ...start,
      model: this.client.model,
      baseURL: this.client.baseURL,
      budgets: this.budgets,
    });
    return trajectory;
  }

  /** Records the prompts, then runs the model/tool loop until finish, a budget or the user's cancel. */
  runLoop(trajectory: TrajectoryWriter, input: SessionLoopInput): Promise<LoopOutcome> {
    trajectory.write({ type: 'prompt', role: 'system', content: input.system });
    trajectory.write({ type: 'prompt', role: 'user', content: input.task });
    return runAgentLoop({
      ...input,
      client: this.client,
      budgets: this.budgets,
      userSignal: this.userSignal,
      deadline: AbortSignal.timeout(this.budgets.timeoutSeconds * 1000),
      trajectory,
      redact: this.redact,
    });
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
