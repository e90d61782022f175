// The model's judgement of its own work, measured against the tests instead of assumed: (1) the model review's
// per-spec "satisfied" against each spec's verdict after the change, as precision (how often "satisfied" was a
// real pass) and recall (how many real passes it called satisfied), per model; (2) the finish claims (a run
// that called finish says it is done) against strict compliance; (3) with --self-pick, the model is shown every
// candidate's diff and the specs (never the verdicts) and asked to choose one: its pick is compared with the
// first candidate (the baseline strategy: take the first attempt) and with the verified best, and its regret
// is the specs the verified best passes that the pick does not (a disqualified pick counts as passing none: it
// cannot be applied).
import { zodResponseFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import type { SpecFile } from '../../shared/specSchema';
import { compareCandidates, type CandidateSummary } from './candidateRanking';
import type { Comparison, Judgement, ReviewAccuracy, SelfPick } from './judgementRecord';
import { ModelError, type ModelClient } from '../model';
import { truncateText } from './trajectory';

export type { Comparison, Judgement, ReviewAccuracy, SelfPick } from './judgementRecord';

export function measureJudgement(candidates: readonly CandidateSummary[], selfPick?: SelfPick): Judgement {
  const review: Record<string, ReviewAccuracy> = {};
  for (const c of candidates) {
    if (c.source.kind !== 'model' || !c.specs.some((s) => s.review !== undefined)) continue;
    const acc = (review[c.source.model] ??= emptyAccuracy());
    acc.reviews++;
    for (const s of c.specs) {
      const said = s.review === 'satisfied';
      const passed = s.after === 'pass';
      if (said && passed) acc.truePositives++;
      else if (said) acc.falsePositives++;
      else if (passed) acc.falseNegatives++;
    }
  }
  for (const acc of Object.values(review)) {
    const claimed = acc.truePositives + acc.falsePositives;
    const real = acc.truePositives + acc.falseNegatives;
    acc.precision = claimed === 0 ? null : acc.truePositives / claimed;
    acc.recall = real === 0 ? null : acc.truePositives / real;
  }
  const finished = candidates.filter((c) => c.stopReason === 'finished');
  return {
    review,
    finishClaims: { finished: finished.length, finishedAndStrict: finished.filter((c) => c.strict).length },
    ...(selfPick ? { selfPick } : {}),
  };
}

function emptyAccuracy(): ReviewAccuracy {
  return {
    reviews: 0,
    truePositives: 0,
    falsePositives: 0,
    falseNegatives: 0,
    precision: null,
    recall: null,
  };
}

/** The pick against the first candidate and the verified best (order[0]). */
export function judgePick(
  candidates: readonly CandidateSummary[],
  order: readonly number[],
  pick: number,
): { vsFirst: Comparison; vsBest: Comparison; regret: number } {
  const byIndex = new Map(candidates.map((c) => [c.index, c]));
  const picked = byIndex.get(pick)!;
  const first = byIndex.get(1)!;
  const best = byIndex.get(order[0]!)!;
  const versus = (other: CandidateSummary): Comparison => {
    const d = compareCandidates(picked, other);
    return d === 0 ? 'equal' : d < 0 ? 'beats' : 'loses';
  };
  const usablePasses = (c: CandidateSummary): number => (c.disqualified === undefined ? c.specsPassed : 0);
  return {
    vsFirst: versus(first),
    vsBest: versus(best),
    regret: Math.max(0, usablePasses(best) - usablePasses(picked)),
  };
}

const selfPickSchema = z.object({
  candidate: z.number().int().describe('The number K of the candidate you choose (cand-K).'),
  reason: z.string(),
});

const SELF_PICK_PROMPT =
  'Several attempts at the same coding task are shown as diffs. Choose the ONE attempt that best satisfies ' +
  'every specification together (a patch that fixes the goal but breaks another constraint is worse than one ' +
  'that breaks nothing). Answer only with JSON matching the schema.';

/** Asks the model to choose among the candidates' diffs (no verdicts are shown). */
export async function askSelfPick(
  client: ModelClient,
  input: {
    specFile: SpecFile;
    candidates: ReadonlyArray<{ index: number; patch: string }>;
    order: readonly number[];
    summaries: readonly CandidateSummary[];
    signal?: AbortSignal;
  },
): Promise<SelfPick> {
  const specs = input.specFile.specs.map((s) => `- ${s.id} (${s.kind}): ${s.statement}`).join('\n');
  const perCandidate = Math.max(2_000, Math.floor(60_000 / Math.max(1, input.candidates.length)));
  const diffs = input.candidates
    .map(
      (c) =>
        `## cand-${c.index}\n\`\`\`diff\n${truncateText(c.patch, perCandidate) || '(empty patch)'}\n\`\`\``,
    )
    .join('\n\n');
  const user = `# Goal\n${input.specFile.goal}\n\n# Specifications\n${specs}\n\n# Candidates\n${diffs}`;
  let content: string | null;
  try {
    const turn = await client.complete({
      messages: [
        { role: 'system', content: SELF_PICK_PROMPT },
        { role: 'user', content: user },
      ],
      responseFormat: zodResponseFormat(selfPickSchema, 'self_pick'),
      ...(input.signal ? { signal: input.signal } : {}),
    });
    content = turn.content;
  } catch (error) {
    return {
      ok: false,
      model: client.model,
      error: error instanceof ModelError ? error.message : String(error),
    };
  }
  return readPick(client.model, content ?? '', input);
}

function readPick(
  model: string,
  content: string,
  input: {
    candidates: ReadonlyArray<{ index: number }>;
    order: readonly number[];
    summaries: readonly CandidateSummary[];
  },
): SelfPick {
  let json: unknown;
  try {
    json = JSON.parse(content.trim().replace(/^```(?:json)?\s*\n([\s\S]*?)\n```$/, '$1'));
  } catch {
    return { ok: false, model, error: 'The self-pick answer was not JSON.' };
  }
  const parsed = selfPickSchema.safeParse(json);
  if (!parsed.success) return { ok: false, model, error: 'The self-pick answer did not match the schema.' };
  const pick = parsed.data.candidate;
  if (!input.candidates.some((c) => c.index === pick))
    return { ok: false, model, error: `The model picked cand-${pick}, which does not exist.` };
  return {
    ok: true,
    model,
    pick,
    reason: parsed.data.reason,
    ...judgePick(input.summaries, input.order, pick),
  };
}
