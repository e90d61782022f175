// The spec graph's lines besides ELK's dependency arrows, as data: which interactions are drawn (declared ones
// once per pair, potential ones only where none is declared) and the path of each between two placed specs.
// DOM-free, so it is unit-tested in plain Node; graph.ts turns them into SVG.
import type { ParsedPanelState } from '../../src/shared/protocol';
import type { PlacedNode, Point } from './graphLayout';

/** How far an interaction curve bows away from the straight line, so it does not run along an arrow. */
const BOW = 16;

export interface InteractionLine {
  a: string;
  b: string;
  kind: 'interacts' | 'potential';
  title: string;
}

/** Above this many specs the potential interactions start hidden (a toggle shows them): they turn into a hairball. */
export const POTENTIAL_SHOWN_UP_TO_SPECS = 15;

/** Whether a graph of `specCount` specs draws the potential interactions before the user chooses. */
export function potentialShownByDefault(specCount: number): boolean {
  return specCount <= POTENTIAL_SHOWN_UP_TO_SPECS;
}

/** Declared interactions (each pair once, whichever side declares it), then the potential ones not declared. */
export function interactionLines(
  state: {
    specs: ReadonlyArray<{ id: string; interactsWith: readonly string[] }>;
    potentialInteractions: ParsedPanelState['potentialInteractions'];
  },
  potentialShown: boolean,
): InteractionLine[] {
  const lines: InteractionLine[] = [];
  const declared = new Set<string>();
  for (const spec of state.specs) {
    for (const other of spec.interactsWith) {
      const key = pairKey(spec.id, other);
      if (declared.has(key)) continue;
      declared.add(key);
      lines.push({ a: spec.id, b: other, kind: 'interacts', title: `${spec.id} interacts with ${other}` });
    }
  }
  for (const potential of potentialShown ? state.potentialInteractions : []) {
    if (declared.has(pairKey(potential.a, potential.b))) continue;
    lines.push({
      a: potential.a,
      b: potential.b,
      kind: 'potential',
      title: `potential interaction of ${potential.a} and ${potential.b}: ${potential.reason}`,
    });
  }
  return lines;
}

/** An SVG path between the facing sides of two placed specs, bowed so it does not run along a dependency arrow. */
export function interactionPath(a: PlacedNode, b: PlacedNode): string {
  const sameColumn = Math.abs(a.x - b.x) < Math.min(a.width, b.width) / 2;
  if (sameColumn) {
    // Out of the right sides and back, instead of through the specs stacked in between.
    const [top, bottom] = a.y < b.y ? [a, b] : [b, a];
    const x1 = top.x + top.width;
    const x2 = bottom.x + bottom.width;
    const y1 = top.y + top.height / 2;
    const y2 = bottom.y + bottom.height / 2;
    const out = Math.max(x1, x2) + BOW;
    return `M${x1},${y1} C${out},${y1} ${out},${y2} ${x2},${y2}`;
  }
  const [left, right] = a.x < b.x ? [a, b] : [b, a];
  const x1 = left.x + left.width;
  const y1 = left.y + left.height * 0.7;
  const x2 = right.x;
  const y2 = right.y + right.height * 0.7;
  const cx = (x1 + x2) / 2;
  const cy = (y1 + y2) / 2 + BOW;
  return `M${x1},${y1} Q${cx},${cy} ${x2},${y2}`;
}

/** The path of a dependency arrow through ELK's routed points. */
export function polylinePath(points: readonly Point[]): string {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' ');
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}
