// The review of a draft set, deterministic and by the model (zod-structured, as the agent's review): which parts
// of the goal no spec covers, which interaction edges the drafts should declare (coupling found in the code and
// not declared), and which statements contradict each other. Deterministic findings are heuristics, labelled so;
// the model's are validated against the schema and the known spec ids.
import { zodResponseFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import { ModelError, type ModelClient } from '../model';
import { resolveAnchors } from '../anchors/resolve';
import { staticCoupling } from '../coupling/coupling';
import type { AnchoredWorkspace } from '../anchors/anchoredWorkspace';
import type { Spec } from '../../shared/specSchema';
import { words } from './duplicates';
import type { KeptDraft } from './types';

export interface ReviewEdge {
  a: string;
  b: string;
  why: string;
  source: 'code' | 'model';
}

export interface DraftSetReview {
  uncoveredGoalParts: Array<{ text: string; source: 'words' | 'model' }>;
  missingEdges: ReviewEdge[];
  contradictions: Array<{ a: string; b: string; why: string; source: 'wording' | 'model' }>;
  model: { ok: true } | { ok: false; error: string } | { ok: false; skipped: true };
}

export const DRAFT_REVIEW_PROMPT_START = 'You review a set of drafted specifications';

const modelSchema = z.object({
  uncoveredGoalParts: z
    .array(z.string())
    .describe('Parts of the goal no spec covers, quoted or paraphrased.'),
  missingEdges: z
    .array(z.object({ a: z.string(), b: z.string(), why: z.string() }))
    .describe('Pairs of specs that can interact but do not declare interactsWith/dependsOn.'),
  contradictions: z
    .array(z.object({ a: z.string(), b: z.string(), why: z.string() }))
    .describe('Pairs of specs whose statements cannot both hold.'),
});

/** A goal part is covered when some spec's title + statement holds at least half of its words. */
const COVERAGE_THRESHOLD = 0.5;
/** Statements this similar (negations aside) where one negates and the other does not likely contradict. */
const CONTRADICTION_SIMILARITY = 0.6;
const NEGATIONS = new Set(['not', 'never', 'no', 'nor', 'without', "don't", 'cannot']);

export async function reviewDraftSet(input: {
  ws: AnchoredWorkspace;
  kept: readonly KeptDraft[];
  client?: ModelClient;
  signal?: AbortSignal;
}): Promise<DraftSetReview> {
  const specs = [...input.ws.specFile.specs, ...input.kept.map((k) => k.spec)];
  const draftIds = new Set(input.kept.map((k) => k.spec.id));
  const review: DraftSetReview = {
    uncoveredGoalParts: uncoveredGoalParts(input.ws.specFile.goal, specs).map((text) => ({
      text,
      source: 'words',
    })),
    missingEdges: undeclaredCoupling(input.ws, specs, draftIds),
    contradictions: contradictingStatements(specs).map((c) => ({ ...c, source: 'wording' as const })),
    model: { ok: false, skipped: true },
  };
  if (input.client === undefined || input.kept.length === 0) return review;
  return withModelReview(review, input.client, input.ws.specFile.goal, specs, draftIds, input.signal);
}

export function goalParts(goal: string): string[] {
  return (
    goal
      .split(/[.;:!?\n]+|,\s*|\s+(?:and|but|while|without|so)\s+/i)
      // A clause after a comma may still open with its conjunction (", without ever serving stale data").
      .map((p) => p.trim().replace(/^(?:and|but|while|without|so|or)\s+/i, ''))
      .filter((p) => words(p).size >= 2)
  );
}

export function uncoveredGoalParts(goal: string, specs: readonly Spec[]): string[] {
  const specWords = specs.map((s) => words(`${s.title} ${s.statement}`));
  return goalParts(goal).filter((part) => {
    const want = words(part);
    return !specWords.some(
      (have) => [...want].filter((w) => have.has(w)).length / want.size >= COVERAGE_THRESHOLD,
    );
  });
}

function undeclaredCoupling(
  ws: AnchoredWorkspace,
  specs: Spec[],
  draftIds: ReadonlySet<string>,
): ReviewEdge[] {
  if (draftIds.size === 0) return [];
  const specFile = { ...ws.specFile, specs };
  const { resolved } = resolveAnchors(specFile, ws.index, { workspaceDir: ws.workspaceDir });
  const coupling = staticCoupling({ specFile, index: ws.index, resolved, workspaceDir: ws.workspaceDir });
  return coupling.potential
    .filter((p) => !p.declared && (draftIds.has(p.a) || draftIds.has(p.b)))
    .filter((p) => p.sharedSymbols.length + p.sharedAnchorFiles.length > 0)
    .map((p) => ({
      a: p.a,
      b: p.b,
      why:
        p.sharedSymbols.length > 0
          ? `both anchor ${p.sharedSymbols.join(', ')}`
          : `both anchor ${p.sharedAnchorFiles.join(', ')}`,
      source: 'code' as const,
    }));
}

export function contradictingStatements(
  specs: readonly Spec[],
): Array<{ a: string; b: string; why: string }> {
  const out: Array<{ a: string; b: string; why: string }> = [];
  const parsed = specs.map((s) => {
    const all = words(s.statement);
    const negated = [...all].some((w) => NEGATIONS.has(w));
    return { id: s.id, negated, core: new Set([...all].filter((w) => !NEGATIONS.has(w))) };
  });
  for (let i = 0; i < parsed.length; i++) {
    for (let j = i + 1; j < parsed.length; j++) {
      const x = parsed[i]!;
      const y = parsed[j]!;
      if (x.negated === y.negated) continue;
      const shared = [...x.core].filter((w) => y.core.has(w)).length;
      const similarity = shared / (x.core.size + y.core.size - shared || 1);
      if (similarity >= CONTRADICTION_SIMILARITY)
        out.push({
          a: x.id,
          b: y.id,
          why: `the statements say nearly the same thing (word overlap ${similarity.toFixed(2)}) but only one is negated`,
        });
    }
  }
  return out;
}

async function withModelReview(
  review: DraftSetReview,
  client: ModelClient,
  goal: string,
  specs: Spec[],
  draftIds: ReadonlySet<string>,
  signal: AbortSignal | undefined,
): Promise<DraftSetReview> {
  const answer = await askForReview(client, goal, specs, draftIds, signal);
  if ('error' in answer) return { ...review, model: { ok: false, error: answer.error } };
  let parsed: ModelReview;
  try {
    parsed = modelSchema.parse(JSON.parse(stripFence(answer.content ?? '')));
  } catch {
    return { ...review, model: { ok: false, error: 'The model review was not JSON matching the schema.' } };
  }
  return mergeModelReview(review, parsed, specs);
}

type ModelReview = z.infer<typeof modelSchema>;

/** One model turn over the goal and the spec list (drafts marked); its text, or the model's error. */
async function askForReview(
  client: ModelClient,
  goal: string,
  specs: Spec[],
  draftIds: ReadonlySet<string>,
  signal: AbortSignal | undefined,
): Promise<{ content: string | null } | { error: string }> {
  const list = specs
    .map(
      (s) =>
        `- ${s.id}${draftIds.has(s.id) ? ' [draft]' : ''} (${s.kind}): ${s.statement} — interactsWith: ${s.interactsWith.join(', ') || 'none'}; anchors: ${s.anchors.join(', ') || 'none'}`,
    )
    .join('\n');
  try {
    const turn = await client.complete({
      messages: [
        {
          role: 'system',
          content:
            `${DRAFT_REVIEW_PROMPT_START} against their goal. List the parts of the goal that no spec covers, ` +
            'pairs of specs that can interact (they constrain the same code or behaviour) but declare no edge, and ' +
            'pairs whose statements contradict each other. Answer only with JSON matching the schema.',
        },
        { role: 'user', content: `## Goal\n${goal || '(none)'}\n\n## Specs\n${list}` },
      ],
      responseFormat: zodResponseFormat(modelSchema, 'draft_review'),
      ...(signal ? { signal } : {}),
    });
    return { content: turn.content };
  } catch (error) {
    return { error: error instanceof ModelError ? error.message : String(error) };
  }
}

/** The deterministic review with the model's findings added: known, distinct specs only, no pair twice. */
function mergeModelReview(review: DraftSetReview, parsed: ModelReview, specs: Spec[]): DraftSetReview {
  const known = new Set(specs.map((s) => s.id));
  const pairKnown = (e: { a: string; b: string }): boolean => known.has(e.a) && known.has(e.b) && e.a !== e.b;
  const key = (e: { a: string; b: string }): string => [e.a, e.b].sort().join('\0');
  const edges = new Set(review.missingEdges.map(key));
  const contradictions = new Set(review.contradictions.map(key));
  return {
    uncoveredGoalParts: [
      ...review.uncoveredGoalParts,
      ...parsed.uncoveredGoalParts.map((text) => ({ text, source: 'model' as const })),
    ],
    missingEdges: [
      ...review.missingEdges,
      ...parsed.missingEdges
        .filter((e) => pairKnown(e) && !edges.has(key(e)))
        .map((e) => ({ ...e, source: 'model' as const })),
    ],
    contradictions: [
      ...review.contradictions,
      ...parsed.contradictions
        .filter((e) => pairKnown(e) && !contradictions.has(key(e)))
        .map((e) => ({ ...e, source: 'model' as const })),
    ],
    model: { ok: true },
  };
}

function stripFence(text: string): string {
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n```\s*$/.exec(text.trim());
  return fenced ? fenced[1]! : text;
}
