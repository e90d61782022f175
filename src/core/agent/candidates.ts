// `weave agent --candidates N`: the same task attempted N times — one model with different seeds, several
// models, external agent commands — each attempt a full agent run (runAgent.ts: its own standalone sandboxed
// checkout, removed at the end) in the bounded pool, all measured against one "before" run. The runs keep their
// trajectories, patches and results under .weave/runs/agent/<id>/cand-K/; the ranking (candidateRanking.ts) and
// the measured judgement (judgement.ts) go to .weave/runs/agent/<id>/ranking.json. Nothing touches the user's
// files: applying the best candidate is the face's choice, through applyAgentResult (the same refusals).
import fs from 'node:fs/promises';
import path from 'node:path';
import { ensureRunsIgnored, newRunId, type SpecResult } from '../check';
import { mapWithConcurrency } from '../process/boundedPool';
import type { AgentRunResult } from './agentRunResult';
import {
  bestByKind,
  paretoSet,
  rankOrder,
  summarizeCandidate,
  verdictsById,
  type CandidateRanking,
  type CandidateSource,
  type CandidateSummary,
  type TokenPrice,
} from './candidateRanking';
import type { CheckoutActor } from './checkoutWork';
import { askSelfPick, measureJudgement, type SelfPick } from './judgement';
import { verdictsBeforeChange } from './matrix';
import type { ModelClient, Sampling } from '../model';
import { createRedactor } from './redact';
import { agentRunsDir, runAgent, type AgentRunOptions } from './runAgent';

/** One candidate to run: who makes it, the client its run records (and, for a model, talks to). */
export interface CandidatePlan {
  source: CandidateSource;
  label: string;
  client: ModelClient;
  /** An external agent command instead of Weave's loop (externalAgent.ts). */
  actor?: CheckoutActor;
}

export interface CandidatesOptions extends Omit<
  AgentRunOptions,
  'client' | 'before' | 'placement' | 'actor' | 'modelReview' | 'reviewSeesVerdicts'
> {
  plans: CandidatePlan[];
  /** Candidate runs at once (each in its own checkout). */
  concurrency: number;
  /** Ask each model candidate's model for a (blind) per-spec review. Default true. */
  modelReview?: boolean;
  /** The model shown every candidate's diff (no verdicts) and asked to choose one. */
  selfPick?: ModelClient;
  /** Per model, USD per million tokens. */
  prices?: Record<string, TokenPrice>;
}

export interface CandidatesOutcome {
  ranking: CandidateRanking;
  /** In candidate order: what applying a candidate needs (its patch, its refusals). */
  results: AgentRunResult[];
}

/** N model candidates: models in turn (candidate K gets models[(K-1) mod M]), each with its own seed K. */
export function modelCandidatePlans(
  count: number,
  models: readonly string[],
  clientFor: (model: string, sampling: Sampling) => ModelClient,
): CandidatePlan[] {
  return Array.from({ length: count }, (_, i) => {
    const model = models[i % models.length] as string;
    const seed = i + 1;
    return {
      source: { kind: 'model', model, seed },
      label: `${model} (seed ${seed})`,
      client: clientFor(model, { seed }),
    };
  });
}

export async function runCandidates(options: CandidatesOptions): Promise<CandidatesOutcome> {
  if (options.plans.length === 0) throw new Error('no candidate to run');
  const started = performance.now();
  const id = `${newRunId(new Date())}-candidates`;
  const dir = path.join(agentRunsDir(options.workspaceDir), id);
  await ensureRunsIgnored(options.workspaceDir);
  const before = await verdictsBeforeChange(options);
  const results = await runAll(options, { id, dir }, before);
  const summaries = results.map((r, i) => summarizeOne(options, r, i));
  const order = rankOrder(summaries);
  const selfPick = options.selfPick
    ? await pickAmong(options, options.selfPick, results, summaries, order)
    : undefined;
  const specIds = options.specFile.specs.map((s) => s.id);
  const best = summaries.find((c) => c.index === order[0]);
  const ranking: CandidateRanking = {
    schema: 'weave-candidates/1',
    id,
    dir,
    target: options.target,
    specIds,
    before: verdictsById(specIds, before),
    candidates: summaries,
    order,
    best: best && best.disqualified === undefined ? best.index : null,
    bestByKind: bestByKind(summaries, order),
    pareto: paretoSet(summaries, order),
    judgement: measureJudgement(summaries, selfPick),
    concurrency: Math.max(1, options.concurrency),
    durationMs: Math.round(performance.now() - started),
  };
  await storeRanking(ranking, options.secrets ?? []);
  return { ranking, results };
}

function runAll(
  options: CandidatesOptions,
  group: { id: string; dir: string },
  before: SpecResult[],
): Promise<AgentRunResult[]> {
  return mapWithConcurrency(options.plans, Math.max(1, options.concurrency), (plan, i) => {
    const name = `cand-${i + 1}`;
    return runAgent({
      ...options,
      client: plan.client,
      ...(plan.actor ? { actor: plan.actor } : {}),
      before,
      placement: { runId: `${group.id}-${name}`, runDir: path.join(group.dir, name) },
      modelReview: plan.actor === undefined && (options.modelReview ?? true),
      // The review's claims are measured against the verdicts: it must not be shown them.
      reviewSeesVerdicts: false,
      onProgress: (event) => options.onProgress?.({ ...event, target: name }),
    });
  });
}

function summarizeOne(options: CandidatesOptions, result: AgentRunResult, i: number): CandidateSummary {
  const plan = options.plans[i] as CandidatePlan;
  const price = plan.source.kind === 'model' ? options.prices?.[plan.source.model] : undefined;
  return summarizeCandidate(options.specFile, result, {
    index: i + 1,
    label: plan.label,
    source: plan.source,
    ...(price ? { price } : {}),
  });
}

function pickAmong(
  options: CandidatesOptions,
  client: ModelClient,
  results: readonly AgentRunResult[],
  summaries: readonly CandidateSummary[],
  order: readonly number[],
): Promise<SelfPick> {
  return askSelfPick(client, {
    specFile: options.specFile,
    candidates: results.map((r, i) => ({ index: i + 1, patch: r.patch })),
    order,
    summaries,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

async function storeRanking(ranking: CandidateRanking, secrets: Array<string | undefined>): Promise<void> {
  await fs.mkdir(ranking.dir, { recursive: true });
  const redact = createRedactor(secrets);
  await fs.writeFile(path.join(ranking.dir, 'ranking.json'), redact(JSON.stringify(ranking, null, 2)) + '\n');
}
