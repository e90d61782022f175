// `weave agent --candidates N`: the candidates from the flags (models in turn with their own seeds, external agent
// commands), the run in the core (candidates.ts), the ranking on stdout (or --json), and --apply best: the top
// candidate through applyAgentResult, so a disqualified one is never applied (applyPolicy.ts).
import type { AgentRunRequest } from '../../core/agent/agentRunSetup';
import { agentRunSetup } from '../../core/agent/agentRunSetup';
import { applyAgentResult } from '../../core/agent/applyPolicy';
import type { TokenPrice } from '../../core/agent/candidateRanking';
import {
  modelCandidatePlans,
  runCandidates,
  type CandidatePlan,
  type CandidatesOutcome,
} from '../../core/agent/candidates';
import { externalAgentActor, externalAgentIdentity } from '../../core/agent/externalAgent';
import {
  ModelError,
  modelFromSettings,
  probeModelEndpoint,
  type ModelClient,
  type Sampling,
} from '../../core/model';
import type { AgentTarget } from '../../core/agent/prompt';
import { DEFAULT_BUDGETS } from '../../core/agent/runAgent';
import { PatchApplyError } from '../../core/agent/workspacePatch';
import { parsePrice } from '../../core/tasks/bench/leaderboard';
import { UsageError } from '../flags';
import { trapInterrupts } from '../interrupt';
import { apiKeyFromEnvironment, modelSettingsFromFlags, type ModelFlagValues } from '../modelFlags';
import { printAgentProgress } from '../output/agentRun';
import { formatCandidateRanking, type ApplyOutcome } from '../output/candidateRanking';

export interface CandidateFlags extends Omit<ModelFlagValues, 'model'> {
  model?: string[] | undefined;
  'agent-command'?: string[] | undefined;
  'self-pick': boolean;
  'no-review': boolean;
  price: string[];
  json: boolean;
}

export interface CandidateRequest extends Pick<
  AgentRunRequest,
  'workspaceDir' | 'specFile' | 'budgets' | 'containment'
> {
  target: AgentTarget;
  /** --candidates N (model candidates); absent with only --agent-command. */
  count: number | undefined;
  concurrency: number;
  applyBest: boolean;
}

/** `--apply best` / `--apply=best` taken out of the arguments (the flag parser knows --apply as a switch). */
export function takeApplyBest(args: readonly string[]): { applyBest: boolean; rest: string[] } {
  const rest: string[] = [];
  let applyBest = false;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--apply=best' || (args[i] === '--apply' && args[i + 1] === 'best')) {
      applyBest = true;
      if (args[i] === '--apply') i++;
    } else rest.push(args[i] as string);
  }
  return { applyBest, rest };
}

export async function runCandidateMode(flags: CandidateFlags, request: CandidateRequest): Promise<number> {
  const models = modelsOf(flags, request.count);
  const clientFor = (model: string, sampling?: Sampling): ModelClient => modelClient(flags, model, sampling);
  const plans = [
    ...modelCandidatePlans(models.length === 0 ? 0 : (request.count ?? models.length), models, clientFor),
    ...commandPlans(flags['agent-command'] ?? [], request),
  ];
  const first = models[0];
  if (flags['self-pick'] && first === undefined)
    throw new UsageError('--self-pick asks a model to choose: give --model');
  const setup = await agentRunSetup({
    ...request,
    client: first === undefined ? externalAgentIdentity('agent command') : clientFor(first),
    apiKey: apiKeyFromEnvironment(),
    onProgress: printAgentProgress,
  });
  const prices = pricesOf(flags.price);
  // Every model candidate talks to the one --base-url: a server that is not there is said once, now, instead of
  // N candidates each ending 'model-error' after the whole "before" check.
  if (first !== undefined) {
    const unreachable = await modelServerProblem(clientFor(first).baseURL);
    if (unreachable !== undefined) {
      process.stderr.write(`weave agent: ${unreachable}\n`);
      return 1;
    }
  }
  const interrupt = trapInterrupts('agent', 'cancelling (stopping every candidate, removing checkouts)…');
  let outcome: CandidatesOutcome;
  try {
    outcome = await runCandidates({
      ...setup,
      target: request.target,
      plans,
      concurrency: request.concurrency,
      modelReview: !flags['no-review'],
      ...(flags['self-pick'] && first !== undefined ? { selfPick: clientFor(first) } : {}),
      prices,
      signal: interrupt.signal,
    });
  } finally {
    interrupt.dispose();
  }
  const applied = request.applyBest ? await applyBest(request.workspaceDir, outcome) : undefined;
  if (flags.json)
    process.stdout.write(
      `${JSON.stringify({ ...outcome.ranking, ...(applied ? { applied } : {}) }, null, 2)}\n`,
    );
  else process.stdout.write(formatCandidateRanking(outcome.ranking, request.workspaceDir, applied));
  // A server that answered the probe can still refuse the calls (a wrong key or model): each distinct error once.
  for (const error of modelErrorsOf(outcome)) process.stderr.write(`weave agent: ${error}\n`);
  if (applied && applied.status !== 'applied' && applied.message)
    process.stderr.write(`weave agent: ${applied.message}\n`);
  const best = outcome.ranking.candidates.find((c) => c.index === outcome.ranking.best);
  const applyOk = applied === undefined || applied.status === 'applied';
  return best?.strict === true && best.stopReason === 'finished' && applyOk ? 0 : 1;
}

/** Why the model server at `baseURL` cannot be used (the probe's message: endpoint, error, what to check). */
async function modelServerProblem(baseURL: string): Promise<string | undefined> {
  try {
    await probeModelEndpoint(baseURL);
    return undefined;
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    return error.message;
  }
}

function modelErrorsOf(outcome: CandidatesOutcome): string[] {
  const errors = outcome.ranking.candidates.flatMap((c) =>
    c.stopReason === 'model-error' && c.error !== undefined ? [c.error] : [],
  );
  return [...new Set(errors)];
}

function modelsOf(flags: CandidateFlags, count: number | undefined): string[] {
  const given = flags.model ?? [];
  const models = given.length > 0 ? given : process.env.WEAVE_MODEL ? [process.env.WEAVE_MODEL] : [];
  if (count !== undefined && models.length === 0)
    throw new UsageError(
      '--candidates N needs a model: pass --model NAME (it may repeat) or set WEAVE_MODEL',
    );
  if (count !== undefined && count < models.length)
    throw new UsageError(`--candidates ${count} is fewer than the ${models.length} models given`);
  return models;
}

function modelClient(flags: CandidateFlags, model: string, sampling?: Sampling): ModelClient {
  try {
    return modelFromSettings({
      ...modelSettingsFromFlags({ ...flags, model }),
      ...(sampling ? { sampling } : {}),
    });
  } catch (error) {
    if (error instanceof ModelError) throw new UsageError(error.message);
    throw error;
  }
}

function commandPlans(commands: readonly string[], request: CandidateRequest): CandidatePlan[] {
  const timeoutSeconds = request.budgets?.timeoutSeconds ?? DEFAULT_BUDGETS.timeoutSeconds;
  return commands.map((command) => ({
    source: { kind: 'command', command },
    label: `command: ${command}`,
    client: externalAgentIdentity(`command: ${command}`),
    actor: externalAgentActor({
      command,
      // The user's workspace holds the other candidates' runs: the command sees its checkout only.
      hiddenDirs: [request.workspaceDir],
      timeoutMs: timeoutSeconds * 1000,
    }),
  }));
}

function pricesOf(texts: readonly string[]): Record<string, TokenPrice> {
  const prices: Record<string, TokenPrice> = {};
  for (const text of texts) {
    const parsed = parsePrice(text);
    if (parsed === undefined)
      throw new UsageError(`--price must look like MODEL=IN/OUT (USD per 1M tokens), got '${text}'`);
    prices[parsed.model] = parsed.price;
  }
  return prices;
}

async function applyBest(workspaceDir: string, outcome: CandidatesOutcome): Promise<ApplyOutcome> {
  const { ranking, results } = outcome;
  if (ranking.best === null)
    return { status: 'refused', message: 'every candidate is disqualified: nothing applied' };
  const result = results[ranking.best - 1]!;
  if (result.patch.trim() === '') return { status: 'nothing', candidate: ranking.best };
  try {
    await applyAgentResult(workspaceDir, result);
    return { status: 'applied', candidate: ranking.best };
  } catch (error) {
    if (!(error instanceof PatchApplyError)) throw error;
    return { status: 'not-applied', candidate: ranking.best, message: error.message };
  }
}
