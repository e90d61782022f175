// What the judgement of a model's own work measures (judgement.ts measures it): its review's accuracy, its finish
// claims and its self-pick. Apart from the measuring so that the candidates' ranking, which carries a judgement
// in its summary, and the measuring, which ranks candidates, both import it from below.

export interface ReviewAccuracy {
  /** Candidates whose review answered. */
  reviews: number;
  /** "satisfied" and the test passes. */
  truePositives: number;
  /** "satisfied" but the test does not pass. */
  falsePositives: number;
  /** The test passes but the review did not say "satisfied" (violated or unclear). */
  falseNegatives: number;
  /** null when the review never said "satisfied". */
  precision: number | null;
  /** null when no spec passed. */
  recall: number | null;
}

export type Comparison = 'equal' | 'beats' | 'loses';

export type SelfPick =
  | {
      ok: true;
      model: string;
      pick: number;
      reason: string;
      vsFirst: Comparison;
      vsBest: Comparison;
      /** Specs passed by the verified best minus those passed by the pick (a disqualified pick counts 0). */
      regret: number;
    }
  | { ok: false; model: string; error: string };

export interface Judgement {
  /** Per model (external commands have no review). */
  review: Record<string, ReviewAccuracy>;
  /** Candidates that called finish, and how many of those were strictly compliant. */
  finishClaims: { finished: number; finishedAndStrict: number };
  selfPick?: SelfPick;
}
