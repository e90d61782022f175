// The verified ranking of `weave agent --candidates`: N attempts at the same task, each summarised from its
// AgentRunResult by what the tests say (strict compliance, specs passed, constraints broken against the one
// baseline), what makes it unusable (tampering, unverified passes, review violations: applyRefusal, the same
// rules as Apply), and what it cost (patch size, steps, tokens, money, wall time). The order: usable candidates
// first; then strict compliance, specs passed, fewer broken constraints, smaller patch, earlier candidate. The
// trade-off view: the best candidate per spec kind, and the Pareto set over the per-kind pass counts (the
// candidates no other usable one matches or beats on every kind). Pure and JSON-serialisable: the CLI renders it
// (src/cli/output/candidateRanking.ts), the editor can too.
import type { SpecResult, Verdict } from '../check';
import type { SpecFile, SpecKind } from '../../shared/specSchema';
import type { StopReason } from './agentLoop';
import type { AgentRunResult } from './agentRunResult';
import { applyRefusal } from './applyPolicy';
import type { ReviewFinding } from './deterministicReview';
import type { Judgement } from './judgementRecord';
import type { ModelUsage } from '../model';
import type { SpecReview } from './modelReview';

export type Cell = Verdict | 'not-run';

/** Who made a candidate: a model (with the sampling that set it apart) or an external agent command. */
export type CandidateSource =
  | { kind: 'model'; model: string; seed?: number; temperature?: number }
  | { kind: 'command'; command: string };

export interface CandidateSpecRow {
  id: string;
  kind: SpecKind;
  before: Cell;
  after: Cell;
  /** The model review's claim about this spec (only when the review ran and answered). */
  review?: SpecReview['verdict'];
}

export interface CandidateSummary {
  /** 1-based: cand-K. */
  index: number;
  label: string;
  source: CandidateSource;
  runId: string;
  runDir: string;
  trajectoryFile: string;
  patchFile: string;
  stopReason: StopReason;
  error?: string;
  /** Every spec passes after the change. */
  strict: boolean;
  specsPassed: number;
  specs: CandidateSpecRow[];
  /** Constraints that passed before and fail (or error) after; tampered specs are counted apart. */
  broken: string[];
  fixed: string[];
  /** Why the candidate may not be applied (tampering, unverified passes, review violations), or absent. */
  disqualified?: string;
  tampered: boolean;
  findings: ReviewFinding[];
  patch: { files: string[]; linesAdded: number; linesRemoved: number };
  steps: number;
  usage: ModelUsage;
  /** null without a price for the candidate's model. */
  costUsd: number | null;
  durationMs: number;
  /** What the agent said of its own work: its finish summary; the review's claims are in `specs`. */
  finishSummary?: string;
  /** The model review did not answer (why), when it was asked. */
  reviewError?: string;
}

export interface KindBest {
  /** The best usable candidate for this kind (most of its specs passing; rank order among equals). */
  candidate: number;
  passed: number;
  total: number;
}

export interface CandidateRanking {
  schema: 'weave-candidates/1';
  id: string;
  dir: string;
  target: AgentRunResult['target'];
  specIds: string[];
  before: Record<string, Cell>;
  /** In candidate order (cand-1 first). */
  candidates: CandidateSummary[];
  /** Candidate indices, best first; disqualified candidates last. */
  order: number[];
  /** The top usable candidate, or null when every candidate is disqualified. */
  best: number | null;
  bestByKind: Partial<Record<SpecKind, KindBest>>;
  /** Usable candidates that no other usable candidate dominates over the per-kind pass counts (rank order). */
  pareto: number[];
  judgement: Judgement;
  concurrency: number;
  durationMs: number;
}

/** USD per million tokens. */
export interface TokenPrice {
  input: number;
  output: number;
}

export function summarizeCandidate(
  specFile: SpecFile,
  result: AgentRunResult,
  meta: { index: number; label: string; source: CandidateSource; price?: TokenPrice },
): CandidateSummary {
  const reviews = result.modelReview?.ok
    ? new Map(result.modelReview.specs.map((s) => [s.id, s]))
    : undefined;
  // A spec whose runs changed protected files at any point is `tampered` (failing), even when the files were
  // restored and its last run passed: that pass cannot be trusted.
  const tampered = new Set(result.tamperedSpecs);
  const specs = specFile.specs.map((s): CandidateSpecRow => {
    const change = result.verdicts.find((v) => v.id === s.id);
    const review = reviews?.get(s.id)?.verdict;
    return {
      id: s.id,
      kind: s.kind,
      before: change?.before ?? 'not-run',
      after: tampered.has(s.id) ? 'tampered' : (change?.after ?? 'not-run'),
      ...(review ? { review } : {}),
    };
  });
  const disqualified = applyRefusal(result);
  const { price } = meta;
  return {
    index: meta.index,
    label: meta.label,
    source: meta.source,
    runId: result.runId,
    runDir: result.runDir,
    trajectoryFile: result.trajectoryFile,
    patchFile: result.patchFile,
    stopReason: result.stopReason,
    ...(result.error !== undefined ? { error: result.error } : {}),
    strict: specs.length > 0 && specs.every((s) => s.after === 'pass'),
    specsPassed: specs.filter((s) => s.after === 'pass').length,
    specs,
    // Broken means the spec ran and failed. Tampering is reported (and disqualifies) on its own; a blocked, skipped
    // or not-run spec never ran, so it says nothing about the change and is not counted as a broken constraint.
    broken: specs
      .filter((s) => s.before === 'pass' && (s.after === 'fail' || s.after === 'error'))
      .map((s) => s.id),
    fixed: specs.filter((s) => s.before !== 'pass' && s.after === 'pass').map((s) => s.id),
    ...(disqualified !== undefined ? { disqualified } : {}),
    tampered:
      result.tamperedSpecs.length > 0 ||
      result.testInfrastructure.length > 0 ||
      (result.attempts ?? []).length > 0,
    findings: result.findings,
    patch: { files: result.changedFiles, ...patchLineCounts(result.patch) },
    steps: result.steps,
    usage: result.usage,
    costUsd: price
      ? (result.usage.promptTokens * price.input + result.usage.completionTokens * price.output) / 1_000_000
      : null,
    durationMs: result.durationMs,
    ...(result.finishSummary !== undefined ? { finishSummary: result.finishSummary } : {}),
    ...(result.modelReview && !result.modelReview.ok ? { reviewError: result.modelReview.error } : {}),
  };
}

/** Added and removed lines of a unified diff (headers excluded). */
export function patchLineCounts(patch: string): { linesAdded: number; linesRemoved: number } {
  let linesAdded = 0;
  let linesRemoved = 0;
  for (const line of patch.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) linesAdded++;
    else if (line.startsWith('-')) linesRemoved++;
  }
  return { linesAdded, linesRemoved };
}

/**
 * How two candidates compare on the verified score alone (negative: `a` is better; 0: equally good). Usable
 * before disqualified; then strict compliance, specs passed, fewer broken constraints, smaller patch.
 */
export function compareCandidates(a: CandidateSummary, b: CandidateSummary): number {
  const usable = (c: CandidateSummary): number => (c.disqualified === undefined ? 0 : 1);
  const size = (c: CandidateSummary): number => c.patch.linesAdded + c.patch.linesRemoved;
  return (
    usable(a) - usable(b) ||
    Number(b.strict) - Number(a.strict) ||
    b.specsPassed - a.specsPassed ||
    a.broken.length - b.broken.length ||
    size(a) - size(b)
  );
}

/** Candidate indices best first (the earlier candidate first among equals). */
export function rankOrder(candidates: readonly CandidateSummary[]): number[] {
  return [...candidates].sort((a, b) => compareCandidates(a, b) || a.index - b.index).map((c) => c.index);
}

/** Per kind present in the specs: its specs passing after the candidate's change. */
export function kindPasses(candidate: CandidateSummary): Map<SpecKind, number> {
  const passes = new Map<SpecKind, number>();
  for (const s of candidate.specs)
    passes.set(s.kind, (passes.get(s.kind) ?? 0) + (s.after === 'pass' ? 1 : 0));
  return passes;
}

function dominates(a: Map<SpecKind, number>, b: Map<SpecKind, number>): boolean {
  let strictlyBetter = false;
  for (const [kind, n] of a) {
    const m = b.get(kind) ?? 0;
    if (n < m) return false;
    if (n > m) strictlyBetter = true;
  }
  return strictlyBetter;
}

/** The usable candidates no other usable candidate dominates, in rank order. */
export function paretoSet(candidates: readonly CandidateSummary[], order: readonly number[]): number[] {
  const usable = candidates.filter((c) => c.disqualified === undefined);
  const passes = new Map(usable.map((c) => [c.index, kindPasses(c)]));
  const front = usable.filter(
    (c) => !usable.some((o) => o !== c && dominates(passes.get(o.index)!, passes.get(c.index)!)),
  );
  const inFront = new Set(front.map((c) => c.index));
  return order.filter((i) => inFront.has(i));
}

export function bestByKind(
  candidates: readonly CandidateSummary[],
  order: readonly number[],
): Partial<Record<SpecKind, KindBest>> {
  const byIndex = new Map(candidates.map((c) => [c.index, c]));
  const ranked = order.map((i) => byIndex.get(i)!).filter((c) => c.disqualified === undefined);
  const best: Partial<Record<SpecKind, KindBest>> = {};
  const kinds = [...new Set(candidates.flatMap((c) => c.specs.map((s) => s.kind)))];
  for (const kind of kinds) {
    let top: KindBest | undefined;
    for (const c of ranked) {
      const mine = c.specs.filter((s) => s.kind === kind);
      const passed = mine.filter((s) => s.after === 'pass').length;
      if (top === undefined || passed > top.passed) top = { candidate: c.index, passed, total: mine.length };
    }
    if (top) best[kind] = top;
  }
  return best;
}

/** Verdicts by spec id, 'not-run' for specs the run did not reach. */
export function verdictsById(
  specIds: readonly string[],
  results: readonly SpecResult[],
): Record<string, Cell> {
  const byId = new Map(results.map((r) => [r.id, r.verdict]));
  return Object.fromEntries(specIds.map((id) => [id, byId.get(id) ?? 'not-run']));
}
