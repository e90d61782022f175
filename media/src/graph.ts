// The spec graph: a layered layout by dependency order, nodes coloured by verdict; edges: dependsOn = solid
// arrow to the dependency, interactsWith = dashed, potential (static) interactions = dotted.
// Layers run left to right (a spec sits right of everything it depends on) and a layer's specs stack top to
// bottom: dependency chains are short while a layer can hold many specs, and the sidebar is tall and narrow.
// Small graphs only (a handful to a few dozen specs): longest-path layering with one barycentre pass.
import type { ParsedPanelState } from '../../src/protocol';
import { h, svg } from './dom';
import { STATUS_LOOK, statusOf } from './status';

const NODE_H = 24;
const MIN_NODE_W = 70;
const MAX_NODE_W = 160;
const GAP_COLUMN = 22;
const GAP_ROW = 12;
const PAD = 6;
const CHAR_W = 6.1;
const BEND = 14;
/** Room right of the last layer for interactions that bow out of it. */
const RIGHT_MARGIN = BEND + 4;

interface Placed {
  id: string;
  x: number;
  y: number;
  layer: number;
}

/** Draws the graph for a panel `width` CSS pixels wide (wider graphs scroll sideways). */
export function renderGraph(
  state: ParsedPanelState,
  width: number,
  onSelect: (id: string) => void,
): HTMLElement {
  if (state.specs.length === 0) return h('p', { class: 'muted' }, 'The graph appears once there are specs.');
  const { placed, nodeW } = layout(state, width);
  const at = new Map(placed.map((p) => [p.id, p]));
  const graphW = Math.max(...placed.map((p) => p.x + nodeW)) + RIGHT_MARGIN;
  const graphH = Math.max(...placed.map((p) => p.y + NODE_H)) + PAD;

  const edges: SVGElement[] = [];
  const declared = new Set<string>();
  for (const spec of state.specs) {
    const from = at.get(spec.id);
    for (const dep of spec.dependsOn) {
      const to = at.get(dep);
      if (from && to) edges.push(dependencyEdge(from, to, nodeW));
    }
    for (const other of spec.interactsWith) {
      const key = pairKey(spec.id, other);
      if (declared.has(key)) continue;
      declared.add(key);
      const edge = interactionEdge(at.get(spec.id), at.get(other), nodeW, 'edge interacts');
      if (edge) edges.push(edge);
    }
  }
  for (const potential of state.potentialInteractions) {
    if (declared.has(pairKey(potential.a, potential.b))) continue;
    const edge = interactionEdge(at.get(potential.a), at.get(potential.b), nodeW, 'edge potential');
    if (edge) {
      edge.append(svg('title', {}, `potential interaction: ${potential.reason}`));
      edges.push(edge);
    }
  }

  const maxChars = Math.floor((nodeW - 10) / CHAR_W);
  const nodes = placed.map((p) => {
    const status = statusOf(state, p.id);
    const label = p.id.length > maxChars ? `${p.id.slice(0, maxChars - 1)}…` : p.id;
    const node = svg(
      'g',
      {
        class: `node status-${status}`,
        tabindex: 0,
        role: 'button',
        'data-key': `node:${p.id}`,
        'aria-label': `${p.id}: ${STATUS_LOOK[status].label}. Edit`,
        transform: `translate(${p.x} ${p.y})`,
      },
      svg('title', {}, `${p.id} (${STATUS_LOOK[status].label})`),
      svg('rect', { width: nodeW, height: NODE_H, rx: 4 }),
      svg('text', { x: nodeW / 2, y: NODE_H / 2 + 4, 'text-anchor': 'middle' }, label),
    );
    node.addEventListener('click', () => onSelect(p.id));
    node.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        onSelect(p.id);
      }
    });
    return node;
  });

  const picture = svg(
    'svg',
    {
      class: 'graph',
      viewBox: `0 0 ${graphW} ${graphH}`,
      width: graphW,
      height: graphH,
      role: 'group',
      'aria-label': 'Spec graph: each spec is drawn right of the specs it depends on',
    },
    svg(
      'defs',
      {},
      svg(
        'marker',
        {
          id: 'arrow',
          viewBox: '0 0 10 10',
          refX: 9,
          refY: 5,
          markerWidth: 7,
          markerHeight: 7,
          orient: 'auto',
        },
        svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow-head' }),
      ),
    ),
    ...edges,
    ...nodes,
  );
  return h(
    'div',
    { class: 'graph-wrap' },
    h('div', { class: 'graph-scroll' }, picture),
    h(
      'ul',
      { class: 'legend', 'aria-label': 'Legend' },
      h('li', {}, h('span', { class: 'swatch depends', 'aria-hidden': 'true' }), 'depends on'),
      h('li', {}, h('span', { class: 'swatch interacts', 'aria-hidden': 'true' }), 'interacts with'),
      h('li', {}, h('span', { class: 'swatch potential', 'aria-hidden': 'true' }), 'potential interaction'),
    ),
  );
}

/** Layer = longest dependsOn chain below the spec; node width shares the panel's width between the layers. */
function layout(state: ParsedPanelState, width: number): { placed: Placed[]; nodeW: number } {
  const byId = new Map(state.specs.map((s) => [s.id, s]));
  const layerOf = new Map<string, number>();
  const depth = (id: string, visiting: Set<string>): number => {
    const known = layerOf.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return 0; // a cycle is reported as a spec problem; draw it flat instead of hanging
    visiting.add(id);
    const deps = (byId.get(id)?.dependsOn ?? []).filter((d) => byId.has(d));
    const value = deps.length ? 1 + Math.max(...deps.map((d) => depth(d, visiting))) : 0;
    visiting.delete(id);
    layerOf.set(id, value);
    return value;
  };
  const layers: string[][] = [];
  for (const spec of state.specs) (layers[depth(spec.id, new Set())] ??= []).push(spec.id);

  const count = layers.length;
  const share = Math.floor((width - PAD - RIGHT_MARGIN - (count - 1) * GAP_COLUMN) / count);
  const nodeW = Math.max(MIN_NODE_W, Math.min(MAX_NODE_W, share));
  const placed: Placed[] = [];
  const y = new Map<string, number>();
  layers.forEach((layer, index) => {
    // Order a layer by where its dependencies sit, so arrows cross less.
    const centre = (id: string): number => {
      const ys = (byId.get(id)?.dependsOn ?? [])
        .map((d) => y.get(d))
        .filter((v): v is number => v !== undefined);
      return ys.length ? ys.reduce((a, b) => a + b, 0) / ys.length : 0;
    };
    [...layer]
      .sort((a, b) => centre(a) - centre(b))
      .forEach((id, row) => {
        const py = PAD + row * (NODE_H + GAP_ROW);
        y.set(id, py);
        placed.push({ id, x: PAD + index * (nodeW + GAP_COLUMN), y: py, layer: index });
      });
  });
  return { placed, nodeW };
}

/** From the dependent's left side to the dependency's right side (one or more layers to the left). */
function dependencyEdge(from: Placed, to: Placed, nodeW: number): SVGPathElement {
  const [x1, y1, x2, y2] = [from.x, from.y + NODE_H / 2, to.x + nodeW + 2, to.y + NODE_H / 2];
  const dx = Math.max(GAP_COLUMN * 0.6, (x1 - x2) / 2);
  return svg('path', {
    class: 'edge depends',
    d: `M${x1},${y1} C${x1 - dx},${y1} ${x2 + dx},${y2} ${x2},${y2}`,
    'marker-end': 'url(#arrow)',
  });
}

/** Between facing sides, bent so it never hides under a dependency arrow between the same two specs. */
function interactionEdge(
  a: Placed | undefined,
  b: Placed | undefined,
  nodeW: number,
  className: string,
): SVGPathElement | undefined {
  if (!a || !b) return undefined;
  if (a.layer === b.layer) {
    // Same column: bow out to the right instead of running through the specs stacked in between.
    const x = a.x + nodeW;
    const [y1, y2] = [a.y + NODE_H / 2, b.y + NODE_H / 2];
    const out = BEND + Math.min(Math.abs(y2 - y1) * 0.1, 8);
    return svg('path', { class: className, d: `M${x},${y1} C${x + out},${y1} ${x + out},${y2} ${x},${y2}` });
  }
  const [left, right] = a.x < b.x ? [a, b] : [b, a];
  const [x1, y1, x2, y2] = [left.x + nodeW, left.y + NODE_H / 2 + 4, right.x, right.y + NODE_H / 2 + 4];
  const cx = (x1 + x2) / 2;
  const cy = (y1 + y2) / 2 + BEND;
  return svg('path', { class: className, d: `M${x1},${y1} Q${cx},${cy} ${x2},${y2}` });
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}
