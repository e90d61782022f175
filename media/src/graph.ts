// The spec graph: a layered layout by dependency order (a spec sits below everything it depends on), nodes
// coloured by verdict; edges: dependsOn = solid arrow to the dependency, interactsWith = dashed, potential
// (static) interactions = dotted. Small graphs only (a handful to a few dozen specs), so a simple
// longest-path layering with one barycentre pass is enough. Drawn at 1:1 scale: a layer wraps into as many
// rows as the panel's width needs, so labels stay readable in a narrow sidebar.
import type { ParsedPanelState } from '../../src/protocol';
import { h, svg } from './dom';
import { STATUS_LOOK, statusOf } from './status';

const NODE_W = 112;
const NODE_H = 26;
const GAP_X = 14;
const GAP_Y = 34;
const LABEL_CHARS = 15;

interface Placed {
  id: string;
  x: number;
  y: number;
}

/** How many nodes fit side by side in `width` CSS pixels. */
export function graphColumns(width: number): number {
  return Math.max(1, Math.floor((width - GAP_X) / (NODE_W + GAP_X)));
}

export function renderGraph(state: ParsedPanelState, columns: number, onSelect: (id: string) => void): HTMLElement {
  if (state.specs.length === 0) return h('p', { class: 'muted' }, 'The graph appears once there are specs.');
  const placed = layout(state, columns);
  const at = new Map(placed.map((p) => [p.id, p]));
  const width = Math.max(...placed.map((p) => p.x + NODE_W)) + GAP_X;
  const height = Math.max(...placed.map((p) => p.y + NODE_H)) + GAP_X;

  const edges: SVGElement[] = [];
  const declared = new Set<string>();
  for (const spec of state.specs) {
    const from = at.get(spec.id);
    for (const dep of spec.dependsOn) {
      const to = at.get(dep);
      if (from && to) {
        edges.push(
          svg('line', {
            class: 'edge depends',
            x1: from.x + NODE_W / 2,
            y1: from.y,
            x2: to.x + NODE_W / 2,
            y2: to.y + NODE_H + 2,
            'marker-end': 'url(#arrow)',
          }),
        );
      }
    }
    for (const other of spec.interactsWith) {
      const key = pairKey(spec.id, other);
      if (declared.has(key)) continue;
      declared.add(key);
      const edge = curve(at.get(spec.id), at.get(other), 'edge interacts');
      if (edge) edges.push(edge);
    }
  }
  for (const potential of state.potentialInteractions) {
    if (declared.has(pairKey(potential.a, potential.b))) continue;
    const edge = curve(at.get(potential.a), at.get(potential.b), 'edge potential');
    if (edge) {
      edge.append(svg('title', {}, `potential interaction: ${potential.reason}`));
      edges.push(edge);
    }
  }

  const nodes = placed.map((p) => {
    const status = statusOf(state, p.id);
    const label = p.id.length > LABEL_CHARS ? `${p.id.slice(0, LABEL_CHARS - 1)}…` : p.id;
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
      svg('rect', { width: NODE_W, height: NODE_H, rx: 4 }),
      svg('text', { x: NODE_W / 2, y: NODE_H / 2 + 4, 'text-anchor': 'middle' }, label),
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
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
      role: 'group',
      'aria-label': 'Spec graph: specs below depend on specs above',
    },
    svg(
      'defs',
      {},
      svg(
        'marker',
        { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto' },
        svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow-head' }),
      ),
    ),
    ...edges,
    ...nodes,
  );
  return h(
    'div',
    { class: 'graph-wrap' },
    picture,
    h(
      'ul',
      { class: 'legend', 'aria-label': 'Legend' },
      h('li', {}, h('span', { class: 'swatch depends', 'aria-hidden': 'true' }), 'depends on'),
      h('li', {}, h('span', { class: 'swatch interacts', 'aria-hidden': 'true' }), 'interacts with'),
      h('li', {}, h('span', { class: 'swatch potential', 'aria-hidden': 'true' }), 'potential interaction'),
    ),
  );
}

/** Layer = longest dependsOn chain below the spec; a layer wraps after `columns` nodes. */
function layout(state: ParsedPanelState, columns: number): Placed[] {
  const byId = new Map(state.specs.map((s) => [s.id, s]));
  const layer = new Map<string, number>();
  const depth = (id: string, visiting: Set<string>): number => {
    const known = layer.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return 0; // a cycle is reported as a spec problem; draw it flat instead of hanging
    visiting.add(id);
    const deps = (byId.get(id)?.dependsOn ?? []).filter((d) => byId.has(d));
    const value = deps.length ? 1 + Math.max(...deps.map((d) => depth(d, visiting))) : 0;
    visiting.delete(id);
    layer.set(id, value);
    return value;
  };
  const layers: string[][] = [];
  for (const spec of state.specs) (layers[depth(spec.id, new Set())] ??= []).push(spec.id);

  const placed: Placed[] = [];
  const x = new Map<string, number>();
  let y = GAP_X;
  for (const row of layers) {
    if (!row) continue;
    // Order a layer by where its dependencies sit, so arrows cross less.
    const centre = (id: string): number => {
      const xs = (byId.get(id)?.dependsOn ?? []).map((d) => x.get(d)).filter((v): v is number => v !== undefined);
      return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.MAX_SAFE_INTEGER;
    };
    const ordered = [...row].sort((a, b) => centre(a) - centre(b));
    for (let i = 0; i < ordered.length; i += columns) {
      ordered.slice(i, i + columns).forEach((id, column) => {
        const px = GAP_X + column * (NODE_W + GAP_X);
        x.set(id, px);
        placed.push({ id, x: px, y });
      });
      y += NODE_H + GAP_Y;
    }
  }
  return placed;
}

function curve(a: Placed | undefined, b: Placed | undefined, className: string): SVGPathElement | undefined {
  if (!a || !b) return undefined;
  const [x1, y1, x2, y2] = [a.x + NODE_W / 2, a.y + NODE_H / 2, b.x + NODE_W / 2, b.y + NODE_H / 2];
  // Bend sideways so an interaction never hides under a dependency arrow between the same nodes.
  const length = Math.hypot(x2 - x1, y2 - y1) || 1;
  const bend = 22;
  const cx = (x1 + x2) / 2 + ((y2 - y1) / length) * bend;
  const cy = (y1 + y2) / 2 - ((x2 - x1) / length) * bend;
  return svg('path', { class: className, d: `M${x1},${y1} Q${cx},${cy} ${x2},${y2}` });
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}
