// Lays the spec graph out with ELK's layered algorithm (elkjs, the synchronous bundled build: the webview's CSP
// allows no worker script). Layers follow `dependsOn` only — a spec sits right of what it depends on — and ELK
// orders each layer to minimise crossings and routes those arrows orthogonally around the nodes. Interactions
// are symmetric, so they must not create layers: they are drawn afterwards between the placed nodes.
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkNode } from 'elkjs/lib/elk-api';

export interface GraphInput {
  specs: ReadonlyArray<{ id: string; dependsOn: readonly string[] }>;
}

export interface Point {
  x: number;
  y: number;
}

export interface PlacedNode {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** The id cut at dashes into lines no wider than the node (never truncated). */
  lines: string[];
}

export interface PlacedEdge {
  /** Dependent spec → the spec it depends on (the arrow points at the dependency). */
  from: string;
  to: string;
  points: Point[];
}

export interface Layout {
  width: number;
  height: number;
  nodes: PlacedNode[];
  dependencies: PlacedEdge[];
}

export interface LayoutOptions {
  /** Longest label line in characters before an id wraps at a dash (Infinity: one line). */
  wrapAt: number;
  /** Measures a label line in CSS pixels. */
  measure: (text: string) => number;
  lineHeight: number;
  /** Tighter node padding and layer spacing: the narrow side panel's last try before a graph must pan. */
  compact?: boolean;
}

const PADDING_Y = 6;
const elk = new ELK();

/** "no-secret-caching" → ["no-secret-", "caching"] for wrapAt 12: breaks only after dashes. */
export function wrapId(id: string, wrapAt: number): string[] {
  const parts = id.split(/(?<=-)/);
  const lines: string[] = [];
  let current = '';
  for (const part of parts) {
    if (current && current.length + part.length > wrapAt) {
      lines.push(current);
      current = part;
    } else {
      current += part;
    }
  }
  if (current) lines.push(current);
  return lines;
}

export async function layoutGraph(input: GraphInput, options: LayoutOptions): Promise<Layout> {
  const ids = new Set(input.specs.map((s) => s.id));
  const labels = new Map(input.specs.map((s) => [s.id, wrapId(s.id, options.wrapAt)]));
  const paddingX = options.compact ? 5 : 10;
  const children: ElkNode[] = input.specs.map((s) => {
    const lines = labels.get(s.id) ?? [s.id];
    return {
      id: s.id,
      width: Math.ceil(Math.max(...lines.map(options.measure)) + 2 * paddingX),
      height: Math.ceil(lines.length * options.lineHeight + 2 * PADDING_Y),
    };
  });
  const edges = input.specs.flatMap((s) =>
    s.dependsOn
      .filter((d) => ids.has(d) && d !== s.id)
      .map((d) => ({ id: `${s.id}\u0000${d}`, sources: [d], targets: [s.id] })),
  );
  const graph: ElkNode = {
    id: 'specs',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'RIGHT',
      'elk.edgeRouting': 'ORTHOGONAL',
      'elk.spacing.nodeNode': options.compact ? '8' : '12',
      'elk.layered.spacing.nodeNodeBetweenLayers': options.compact ? '16' : '28',
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
      // Compact: a spec with no dependency edges joins the first layer instead of a column of its own (ELK packs
      // separate components side by side, which made the demo wider, not narrower).
      ...(options.compact ? { 'elk.separateConnectedComponents': 'false' } : {}),
      'elk.padding': options.compact
        ? '[top=6,left=4,bottom=6,right=12]'
        : '[top=6,left=6,bottom=6,right=22]',
    },
    children,
    edges,
  };
  const laid = await elk.layout(graph);
  const nodes: PlacedNode[] = (laid.children ?? []).map((c) => ({
    id: c.id,
    x: c.x ?? 0,
    y: c.y ?? 0,
    width: c.width ?? 0,
    height: c.height ?? 0,
    lines: labels.get(c.id) ?? [c.id],
  }));
  const dependencies: PlacedEdge[] = (laid.edges ?? []).flatMap((e) => {
    const [dependent, dependency] = e.id.split('\u0000');
    const section = (e as { sections?: Array<{ startPoint: Point; endPoint: Point; bendPoints?: Point[] }> })
      .sections?.[0];
    if (!section || dependent === undefined || dependency === undefined) return [];
    // ELK routes dependency → dependent; the arrow is drawn toward the dependency.
    const points = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].reverse();
    return [{ from: dependent, to: dependency, points }];
  });
  return { width: laid.width ?? 0, height: laid.height ?? 0, nodes, dependencies };
}
