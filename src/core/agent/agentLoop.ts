// The model/tool loop of one agent run: ask the model, run the tools it called, feed the results back,
// until it calls finish or a budget (steps, tokens, wall time) or the user's cancel stops it.
import { ModelError, type ChatMessage, type ModelClient, type ModelTurn, type ModelUsage } from '../model';
import type { ToolContext } from './toolContract';
import { AGENT_TOOLBOX, type Toolbox } from './toolbox';
import { truncateText, type TrajectoryWriter } from './trajectory';

export interface AgentBudgets {
  maxSteps: number;
  maxTokens: number;
  timeoutSeconds: number;
}

export type StopReason =
  | 'finished'
  | 'step-budget'
  | 'token-budget'
  | 'time-budget'
  | 'cancelled'
  | 'model-error'
  /** An external agent command (a `weave agent --candidates` candidate) exited non-zero or timed out. */
  | 'agent-command-failed';

export type LoopProgress =
  | { type: 'step'; step: number; maxSteps: number; tokens: number }
  | { type: 'tool'; step: number; name: string; ok: boolean; summary: string };

export interface LoopInput {
  client: ModelClient;
  system: string;
  task: string;
  tools: Omit<ToolContext, 'signal'>;
  /** The tools offered (default: the coding agent's). */
  toolbox?: Toolbox;
  /** What the model is told when it answers without calling a tool. */
  nudge?: string;
  budgets: AgentBudgets;
  /** The user's cancel. */
  userSignal: AbortSignal;
  /** Fires when the wall-time budget is spent. */
  deadline: AbortSignal;
  trajectory: TrajectoryWriter;
  redact: (text: string) => string;
  onProgress(event: LoopProgress): void;
}

export interface LoopOutcome {
  stopReason: StopReason;
  error?: string;
  finishSummary?: string;
  steps: number;
  usage: ModelUsage;
}

/** Tool results longer than this are cut (head and tail) before they go back to the model. */
const TOOL_RESULT_LIMIT = 12_000;
const NUDGE =
  'Use the tools to make progress; call finish (with a summary) when every spec passes or you are done.';

export async function runAgentLoop(input: LoopInput): Promise<LoopOutcome> {
  const { client, budgets, userSignal, deadline } = input;
  const signal = AbortSignal.any([userSignal, deadline]);
  const messages: ChatMessage[] = [
    { role: 'system', content: input.system },
    { role: 'user', content: input.task },
  ];
  const toolbox = input.toolbox ?? AGENT_TOOLBOX;
  const usage: ModelUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  let steps = 0;
  let finishSummary: string | undefined;
  const stop = (stopReason: StopReason, error?: string): LoopOutcome => ({
    stopReason,
    ...(error !== undefined ? { error } : {}),
    ...(finishSummary !== undefined ? { finishSummary } : {}),
    steps,
    usage,
  });

  for (;;) {
    if (finishSummary !== undefined) return stop('finished');
    const spent = spentBudget(input, steps, usage);
    if (spent !== undefined) return stop(...spent);

    steps += 1;
    input.onProgress({ type: 'step', step: steps, maxSteps: budgets.maxSteps, tokens: usage.totalTokens });
    let turn;
    try {
      turn = await client.complete({ messages, tools: toolbox.specs, signal });
    } catch (caught) {
      return stop(...modelFailure(input, caught));
    }
    recordTurn(input.trajectory, steps, messages, usage, turn);
    if (turn.toolCalls.length === 0) {
      messages.push({ role: 'user', content: input.nudge ?? NUDGE });
      continue;
    }
    finishSummary =
      (await runToolCalls(input, toolbox, steps, turn.toolCalls, messages, signal)) ?? finishSummary;
  }
}

type Stop = [StopReason, string?];

/** Why the loop stops before another step: the user's cancel or a spent budget. */
function spentBudget(
  { budgets, userSignal, deadline }: LoopInput,
  steps: number,
  usage: ModelUsage,
): Stop | undefined {
  if (userSignal.aborted) return ['cancelled'];
  if (deadline.aborted) return ['time-budget', `stopped after ${budgets.timeoutSeconds} s (time budget)`];
  if (steps >= budgets.maxSteps)
    return ['step-budget', `stopped after ${budgets.maxSteps} steps (step budget)`];
  if (usage.totalTokens >= budgets.maxTokens) {
    return ['token-budget', `stopped after ${usage.totalTokens} tokens (token budget ${budgets.maxTokens})`];
  }
  return undefined;
}

/** A failed model request: the cancel or deadline that aborted it, else a model error (recorded). */
function modelFailure({ budgets, userSignal, deadline, trajectory }: LoopInput, caught: unknown): Stop {
  if (userSignal.aborted) return ['cancelled'];
  if (deadline.aborted) return ['time-budget', `stopped after ${budgets.timeoutSeconds} s (time budget)`];
  const error = caught instanceof ModelError ? caught.message : `model request failed: ${String(caught)}`;
  trajectory.write({ type: 'error', message: error });
  return ['model-error', error];
}

/** The model's turn counted, recorded in the trajectory and added to the conversation. */
function recordTurn(
  trajectory: TrajectoryWriter,
  step: number,
  messages: ChatMessage[],
  usage: ModelUsage,
  turn: ModelTurn,
): void {
  usage.promptTokens += turn.usage.promptTokens;
  usage.completionTokens += turn.usage.completionTokens;
  // Servers that report no usage still spend tokens: estimate ~4 characters per token.
  usage.totalTokens += turn.usage.totalTokens || estimateTokens(messages, turn.content, turn.toolCalls);
  trajectory.write({
    type: 'model',
    step,
    content: turn.content,
    toolCalls: turn.toolCalls,
    usage: turn.usage,
    durationMs: Math.round(turn.durationMs),
    retriedAfterCut: turn.retriedAfterCut,
  });
  messages.push({
    role: 'assistant',
    content: turn.content,
    ...(turn.toolCalls.length > 0
      ? {
          tool_calls: turn.toolCalls.map((c) => ({
            id: c.id,
            type: 'function' as const,
            function: { name: c.name, arguments: c.arguments },
          })),
        }
      : {}),
  });
}

/** Runs the turn's tool calls in order, each recorded and answered; the finish summary if one finished. */
async function runToolCalls(
  input: LoopInput,
  toolbox: Toolbox,
  step: number,
  calls: ModelTurn['toolCalls'],
  messages: ChatMessage[],
  signal: AbortSignal,
): Promise<string | undefined> {
  let finishSummary: string | undefined;
  for (const call of calls) {
    const started = performance.now();
    const result = await toolbox.run(call.name, call.arguments, { ...input.tools, signal });
    input.trajectory.write({
      type: 'tool',
      step,
      callId: call.id,
      name: call.name,
      arguments: call.arguments,
      ok: result.ok,
      ...(result.refused ? { refused: result.refused } : {}),
      ...(result.path ? { path: result.path } : {}),
      result: result.content,
      durationMs: Math.round(performance.now() - started),
    });
    input.onProgress({
      type: 'tool',
      step,
      name: call.name,
      ok: result.ok,
      summary: input.redact(result.content.split('\n')[0]!.slice(0, 160)),
    });
    messages.push({
      role: 'tool',
      tool_call_id: call.id,
      content: truncateText(result.content, TOOL_RESULT_LIMIT),
    });
    if (result.finish) finishSummary = result.finish.summary;
  }
  return finishSummary;
}

function estimateTokens(
  messages: ChatMessage[],
  content: string | null,
  calls: Array<{ arguments: string }>,
): number {
  const last = messages.at(-1);
  const text =
    (typeof last?.content === 'string' ? last.content : '') +
    (content ?? '') +
    calls.map((c) => c.arguments).join('');
  return Math.ceil(text.length / 4);
}
