// The audit's result shapes: what `weave audit --json` prints, what .weave/cache/audit.json stores, and what
// `weave graph` and the extension read back.
import type { ObservedInteraction } from '../coupling/observed';
import type { MutationOperator } from './operators';

export type { ObservedInteraction };

export interface Survivor {
  file: string;
  /** 1-based. */
  line: number;
  column: number;
  operator: MutationOperator;
  /** A unified diff of the mutated line(s). */
  diff: string;
  /** The operator's text before and after, e.g. ">" → ">=" (for the editor's message). */
  original: string;
  replacement: string;
}

export interface SpecAudit {
  id: string;
  /** Mutants run against this spec's test. */
  mutants: number;
  killed: number;
  survived: number;
  timedOut: number;
  /** (killed + timedOut) / mutants; null when no mutant ran. */
  score: number | null;
  /** It ran against ≥ 1 mutant and noticed none: the spec constrains nothing of the code it exercises. */
  vacuous: boolean;
  survivors: Survivor[];
  /** Where the mutated code came from: the spec's anchors, or (no anchors) its test's import cone. */
  codeSource: 'anchor' | 'import-cone' | 'none';
  /** Why the spec was not (fully) audited: it does not pass on the current code, it exercises no mutable code. */
  note?: string;
}

export interface AuditReport {
  version: 1;
  startedAt: string;
  finishedAt: string;
  /** HEAD of the workspace's repository when the audit ran (null outside git). */
  commit: string | null;
  specs: SpecAudit[];
  /** Mutants that ran against at least one spec and that no spec noticed: the workspace's holes. */
  holes: Array<Survivor & { specs: string[] }>;
  observed: ObservedInteraction[];
  totals: {
    /** Mutants generated over the code the audited specs exercise. */
    generated: number;
    /** Mutants chosen within --max-mutants. */
    selected: number;
    /** Mutants that ran (the time budget or a cancel can stop before all selected ran). */
    ran: number;
    /** Spec-test runs against mutants. */
    testRuns: number;
    durationMs: number;
    mutantsPerSecond: number;
    /** Whether each mutant ran only against the specs exercising its code (true) or against every spec. */
    pruned: boolean;
    stoppedBy: 'time-budget' | 'cancelled' | null;
  };
}
