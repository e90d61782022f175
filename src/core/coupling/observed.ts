// Observed interactions: pairs of specs whose tests kill the same mutants. `weave audit` finds them and stores
// them in its report; coupling shows them beside declared and potential pairs. The shape lives here, below
// audit, so coupling reads an audit's result without importing audit (the declared layer order, ARCHITECTURE.md).

/** A mutant that several specs' tests kill: those specs constrain the same behaviour (observed coupling). */
export interface ObservedInteraction {
  a: string;
  b: string;
  /** Mutants both killed. */
  mutants: number;
  /** A few of them, as file:line operator. */
  examples: string[];
}

/** What coupling reads of an audit report (audit's AuditReport has this shape and more). */
export interface ObservedAudit {
  finishedAt: string;
  observed: readonly ObservedInteraction[];
}
