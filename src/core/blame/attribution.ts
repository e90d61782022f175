// Blame's "made for X": which spec an edit was made for, among the specs anchored where the edit landed. The
// candidates are ranked by an ordered list of criteria, each a score where lower is better; the first criterion
// that tells two candidates apart decides. Today: how specifically the anchor names the edited code
// (`file#Class.method` before `file#Class` before `file`), then how close the edited file is to the spec's test
// in its import cone. A new criterion (e.g. "the spec's test executed the edited lines") is one insertion.
import type { Range } from '../index';
import type { ResolvedAnchor } from '../anchors/resolve';
import { importChain, type SpecCone } from '../selection/cones';

export interface AttributionCandidate {
  specId: string;
  /** The spec's anchor that covers the edit most specifically. */
  anchor: ResolvedAnchor;
  /** Import steps from the spec's test to the edited file (0: the test itself); Infinity when not in the cone. */
  coneDistance: number;
}

export interface AttributionCriterion {
  name: string;
  /** Lower is better. */
  score(candidate: AttributionCandidate): number;
}

/** Lines an anchor spans: a method's anchor spans fewer than its class's, which spans fewer than the file. */
export const anchorSpecificity: AttributionCriterion = {
  name: 'anchor specificity',
  score: (c) =>
    c.anchor.range.end.line - c.anchor.range.start.line + (c.anchor.symbol === undefined ? 0.5 : 0),
};

export const coneCloseness: AttributionCriterion = {
  name: 'import distance from the test',
  score: (c) => c.coneDistance,
};

/** Per-spec coverage first: a spec whose recorded test run executed the edited code beats one that did not. */
export function executedTheEdit(executedBy: ReadonlySet<string>): AttributionCriterion {
  return { name: 'its test executed the edited code', score: (c) => (executedBy.has(c.specId) ? 0 : 1) };
}

export const defaultAttributionCriteria: readonly AttributionCriterion[] = [anchorSpecificity, coneCloseness];

export interface AttributionInput {
  /** The edited file and the lines (0-based, inclusive) the edit touches in it. */
  file: string;
  lines: { first: number; last: number };
  /** Resolved anchors per spec id (the blamed spec left out by the caller). */
  anchors: Map<string, ResolvedAnchor[]>;
  cones: Map<string, SpecCone>;
  /** Spec-file order, the last tie-break. */
  order: string[];
  criteria?: readonly AttributionCriterion[];
}

/** Every spec anchored over the edit, best first; `top` are those no criterion tells apart from the best. */
export function rankAttribution(input: AttributionInput): {
  ranked: AttributionCandidate[];
  top: AttributionCandidate[];
} {
  const criteria = input.criteria ?? defaultAttributionCriteria;
  const candidates: AttributionCandidate[] = [];
  for (const [specId, anchors] of input.anchors) {
    const covering = anchors.filter((a) => a.file === input.file && overlaps(a.range, input.lines));
    if (covering.length === 0) continue;
    const cone = input.cones.get(specId);
    const coneDistance = cone?.parent.has(input.file) ? importChain(cone, input.file).length - 1 : Infinity;
    const withAnchor = covering.map((anchor) => ({ specId, anchor, coneDistance }));
    withAnchor.sort((x, y) => compare(x, y, criteria));
    candidates.push(withAnchor[0]!);
  }
  const position = (id: string): number => input.order.indexOf(id);
  candidates.sort((x, y) => compare(x, y, criteria) || position(x.specId) - position(y.specId));
  const best = candidates[0];
  const top = best === undefined ? [] : candidates.filter((c) => compare(c, best, criteria) === 0);
  return { ranked: candidates, top };
}

function compare(
  x: AttributionCandidate,
  y: AttributionCandidate,
  criteria: readonly AttributionCriterion[],
): number {
  for (const criterion of criteria) {
    const a = criterion.score(x);
    const b = criterion.score(y);
    if (a !== b) return a < b ? -1 : 1;
  }
  return 0;
}

function overlaps(range: Range, lines: { first: number; last: number }): boolean {
  return range.start.line <= lines.last && lines.first <= range.end.line;
}
