// The spec graph, drawn from ELK's layout (graphLayout.ts): nodes coloured by verdict with their full ids
// (wrapped at dashes in the narrow side panel, one line in the editor view); edges: dependsOn = solid arrow to the
// dependency (routed by ELK), interactsWith = dashed, potential (static) interactions = dotted. Zoom with the
// − / Fit / + buttons or Ctrl+wheel; "Fit" (the default) scales the graph to the view's width — in the side panel
// never larger than its natural size, in the editor tab up to filling it — but never so small that a label is
// under MIN_LABEL_PX: a graph wider than that pans (drag it, or scroll) instead of shrinking into unreadable text.
import type { ParsedPanelState } from '../../src/shared/protocol';
import { h, svg } from './dom';
import { interactionLines, interactionPath, polylinePath } from './graphEdges';
import { layoutGraph, type Layout, type PlacedNode } from './graphLayout';
import { STATUS_LOOK, statusOf } from './status';

const FONT_PX = 11;
const LINE_HEIGHT = 13;
const ZOOM_STEP = 1.25;
/** The smallest label a zoom or fit draws (the sidebar used to shrink 40 specs' labels to 4–7 px). */
export const MIN_LABEL_PX = 9;
const MIN_SCALE = MIN_LABEL_PX / FONT_PX;
const MAX_SCALE = 4;

export interface GraphView {
  /** Longest label line before an id wraps at a dash (Infinity: never wrap). */
  wrapAt: number;
  onSelect(id: string): void;
  /** Shown as a button when set (the side panel's "open the large view"). */
  onOpenLarge?: () => void;
  /** Draw the statically found (potential) interactions; the narrow panel hides them until asked. */
  potentialShown: boolean;
  onTogglePotential?: (shown: boolean) => void;
  /** What "Fit" does: 'shrink' = fit the width but never enlarge (the panel), 'fill' = fill the width (the tab). */
  fit: 'shrink' | 'fill';
}

/** 'fit' or a factor of the natural size; survives re-renders (a state push must not reset the zoom). */
let zoom: number | 'fit' = 'fit';
const layouts = new Map<string, Promise<Layout>>();
let measureContext: CanvasRenderingContext2D | null | undefined;

function measure(text: string): number {
  measureContext ??= document.createElement('canvas').getContext('2d');
  if (!measureContext) return text.length * FONT_PX * 0.62;
  const family =
    getComputedStyle(document.body).getPropertyValue('--vscode-editor-font-family') || 'monospace';
  measureContext.font = `${FONT_PX}px ${family}`;
  return measureContext.measureText(text).width;
}

/** The latest graph's layouts, one per wrap width tried (chooseLayout tries up to four). */
const KEPT_LAYOUTS = 5;

function layoutFor(state: ParsedPanelState, wrapAt: number, compact = false): Promise<Layout> {
  const input = { specs: state.specs.map((s) => ({ id: s.id, dependsOn: s.dependsOn })) };
  const key = JSON.stringify([input, wrapAt, compact]);
  let layout = layouts.get(key);
  if (!layout) {
    layout = layoutGraph(input, { wrapAt, measure, lineHeight: LINE_HEIGHT, compact });
    layouts.set(key, layout);
    for (const old of layouts.keys()) if (layouts.size > KEPT_LAYOUTS) layouts.delete(old);
  }
  return layout;
}

/**
 * Narrower label wraps the side panel tries, in order, when its graph would not fit the panel at the smallest
 * label size. A graph that pans cuts the nodes at its edge (the demo's rightmost column read "no-sta…" at the
 * default width); ids wrapped at more dashes, then tighter spacing, make every column narrower, so a small graph
 * fits whole instead.
 */
/** How long a resize must pause before the side panel's graph picks its layout for the new width again. */
const RELAYOUT_PAUSE_MS = 250;

const NARROWER = [
  { wrapAt: 10, compact: false },
  { wrapAt: 10, compact: true },
  { wrapAt: 7, compact: true },
];

/**
 * The layout to draw in the view's width (read once the first layout settled, when the view is in the page): the
 * view's own wrap, or a narrower one that lets the whole graph fit.
 */
async function chooseLayout(
  state: ParsedPanelState,
  view: GraphView,
  widthNow: () => number,
): Promise<{ layout: Layout; width: number }> {
  const own = await layoutFor(state, view.wrapAt);
  const width = widthNow();
  const layout = await narrowestNeeded(state, view, own, width);
  return { layout, width };
}

/**
 * Only the side panel's small graphs try narrower layouts: a large one would turn into a tall column of wrapped ids
 * and still pan, so it keeps its usual layout (and is not laid out again as the sidebar is dragged).
 */
const NARROWER_UP_TO_SPECS = 15;

function mayNarrow(state: ParsedPanelState, view: GraphView): boolean {
  return view.fit === 'shrink' && state.specs.length <= NARROWER_UP_TO_SPECS;
}

async function narrowestNeeded(
  state: ParsedPanelState,
  view: GraphView,
  own: Layout,
  width: number,
): Promise<Layout> {
  const fits = (layout: Layout): boolean => Math.ceil(layout.width) * MIN_SCALE <= width;
  if (!mayNarrow(state, view) || width <= 0 || fits(own)) return own;
  for (const { wrapAt, compact } of NARROWER.filter((n) => n.wrapAt <= view.wrapAt)) {
    const narrower = await layoutFor(state, wrapAt, compact);
    if (fits(narrower)) return narrower;
  }
  // Nothing fits (a large graph in a narrow panel): it pans, with the ids at their usual wrap.
  return own;
}

export function renderGraph(state: ParsedPanelState, view: GraphView): HTMLElement {
  if (state.specs.length === 0) return h('p', { class: 'muted' }, 'The graph appears once there are specs.');
  const scroll = h(
    'div',
    { class: 'graph-scroll', 'aria-busy': 'true', 'data-fit': view.fit },
    h('p', { class: 'muted' }, 'Laying out…'),
  );
  // The layout drawn, and the width it was chosen for: a new width may call for another wrap (chooseLayout).
  let drawn: { layout: Layout; width: number } | undefined;
  const draw = (): void => {
    chooseLayout(state, view, () => scroll.clientWidth).then(
      ({ layout, width }) => {
        if (!scroll.isConnected && drawn) return;
        if (drawn?.layout !== layout) {
          scroll.replaceChildren(picture(state, layout, view));
          scroll.removeAttribute('aria-busy');
        }
        drawn = { layout, width };
        applyZoom(scroll);
      },
      (e: unknown) =>
        scroll.replaceChildren(h('p', { class: 'muted' }, `The graph could not be laid out: ${String(e)}`)),
    );
  };
  // "Fit" follows the view's width as the user drags the sidebar or the editor group.
  // A re-render detaches this one (its size drops to 0, which reports once): then stop watching it.
  // A new width may call for another wrap: looked at once the drag pauses, not at every step of it (a layout of 40
  // specs takes a while, and a picture that changes under the pointer moves what it was about to click).
  let relayout: ReturnType<typeof setTimeout> | undefined;
  const resized = new ResizeObserver(() => {
    if (!scroll.isConnected) {
      resized.disconnect();
      return;
    }
    applyZoom(scroll);
    if (!drawn || drawn.width === scroll.clientWidth || !mayNarrow(state, view)) return;
    clearTimeout(relayout);
    relayout = setTimeout(() => {
      if (scroll.isConnected && drawn?.width !== scroll.clientWidth) draw();
    }, RELAYOUT_PAUSE_MS);
  });
  resized.observe(scroll);
  panByDragging(scroll);
  const wrap = h('div', { class: 'graph-wrap' }, zoomBar(scroll, view), scroll, legend(state, view));
  // Laid out once the section is in the page (the promise settles after the caller attached it), at its width.
  draw();
  scroll.addEventListener(
    'wheel',
    (event) => {
      if (!event.ctrlKey) return;
      event.preventDefault();
      setZoom(scroll, event.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP);
    },
    { passive: false },
  );
  return wrap;
}

function zoomBar(scroll: HTMLElement, view: GraphView): HTMLElement {
  const button = (label: string, text: string, key: string, action: () => void): HTMLElement =>
    h(
      'button',
      {
        type: 'button',
        class: 'secondary small',
        'aria-label': label,
        title: label,
        'data-key': key,
        onclick: action,
      },
      text,
    );
  return h(
    'div',
    { class: 'graph-tools', role: 'toolbar', 'aria-label': 'Graph zoom' },
    button('Zoom out', '−', 'zoom-out', () => setZoom(scroll, 1 / ZOOM_STEP)),
    button('Fit to width', 'Fit', 'zoom-fit', () => {
      zoom = 'fit';
      applyZoom(scroll);
    }),
    button('Zoom in', '+', 'zoom-in', () => setZoom(scroll, ZOOM_STEP)),
    view.onOpenLarge
      ? button('Open the graph in an editor tab', 'Open large view', 'graph-large', view.onOpenLarge)
      : null,
  );
}

function naturalWidth(scroll: HTMLElement): number {
  return Number(scroll.querySelector('svg.graph')?.getAttribute('data-width') ?? 0);
}

/** The scale drawn now (the fit's, or the user's zoom). */
function scaleOf(scroll: HTMLElement, natural: number): number {
  if (zoom !== 'fit') return zoom;
  const fitted = scroll.clientWidth / natural;
  const upTo = scroll.dataset['fit'] === 'fill' ? MAX_SCALE : 1;
  return Math.max(MIN_SCALE, Math.min(upTo, fitted));
}

function setZoom(scroll: HTMLElement, factor: number): void {
  const natural = naturalWidth(scroll);
  if (!natural) return;
  zoom = Math.min(MAX_SCALE, Math.max(MIN_SCALE, scaleOf(scroll, natural) * factor));
  applyZoom(scroll);
}

function applyZoom(scroll: HTMLElement): void {
  const picture = scroll.querySelector<SVGSVGElement>('svg.graph');
  if (!picture) return;
  const natural = Number(picture.getAttribute('data-width'));
  if (!natural) return;
  const scale = scaleOf(scroll, natural);
  // Whole pixels, and no change without a change: setting the same width must not wake the ResizeObserver.
  // (Rounded down, except at the minimum scale: there a rounded-down width would draw labels under MIN_LABEL_PX.)
  const width = `${scale <= MIN_SCALE ? Math.ceil(natural * scale) : Math.floor(natural * scale)}px`;
  if (picture.style.width !== width) picture.style.width = width;
  picture.dataset['scale'] = scale.toFixed(3);
  scroll.classList.toggle('pannable', scroll.scrollWidth > scroll.clientWidth + 1);
}

/** Dragging the graph's background pans it (when it is wider or taller than the view). */
function panByDragging(scroll: HTMLElement): void {
  let from: { x: number; y: number; left: number; top: number } | undefined;
  scroll.addEventListener('pointerdown', (event) => {
    if (event.button !== 0 || (event.target as Element).closest('.node')) return;
    if (scroll.scrollWidth <= scroll.clientWidth && scroll.scrollHeight <= scroll.clientHeight) return;
    from = { x: event.clientX, y: event.clientY, left: scroll.scrollLeft, top: scroll.scrollTop };
    scroll.setPointerCapture(event.pointerId);
    scroll.classList.add('panning');
  });
  scroll.addEventListener('pointermove', (event) => {
    if (!from) return;
    scroll.scrollLeft = from.left - (event.clientX - from.x);
    scroll.scrollTop = from.top - (event.clientY - from.y);
  });
  const stop = (): void => {
    from = undefined;
    scroll.classList.remove('panning');
  };
  scroll.addEventListener('pointerup', stop);
  scroll.addEventListener('pointercancel', stop);
}

function picture(state: ParsedPanelState, layout: Layout, view: GraphView): SVGSVGElement {
  const at = new Map(layout.nodes.map((n) => [n.id, n]));
  const edges: SVGElement[] = layout.dependencies.map((e) =>
    svg(
      'path',
      {
        class: 'edge depends',
        'data-from': e.from,
        'data-to': e.to,
        d: polylinePath(e.points),
        'marker-end': 'url(#arrow)',
      },
      svg('title', {}, `${e.from} depends on ${e.to}`),
    ),
  );
  for (const e of edges) {
    e.dataset['a'] = e.dataset['from'];
    e.dataset['b'] = e.dataset['to'];
  }
  for (const line of interactionLines(state, view.potentialShown)) {
    const a = at.get(line.a);
    const b = at.get(line.b);
    if (!a || !b) continue;
    const edge = svg(
      'path',
      { class: `edge ${line.kind}`, d: interactionPath(a, b) },
      svg('title', {}, line.title),
    );
    edges.push(pair(edge, line.a, line.b));
  }
  const nodes = layout.nodes.map((n) => nodeElement(state, n, view));
  // Pointing at (or focusing) a spec brings its own edges forward and fades the rest: the picture untangles.
  const highlight = (id: string | undefined): void => {
    picture.classList.toggle('highlighting', id !== undefined);
    for (const e of edges)
      e.classList.toggle('hl', id !== undefined && (e.dataset['a'] === id || e.dataset['b'] === id));
  };
  for (const node of nodes) {
    const id = node.dataset['specId'];
    node.addEventListener('mouseenter', () => highlight(id));
    node.addEventListener('focus', () => highlight(id));
    node.addEventListener('mouseleave', () => highlight(undefined));
    node.addEventListener('blur', () => highlight(undefined));
  }
  const width = Math.ceil(layout.width);
  const height = Math.ceil(layout.height);
  const picture = svg(
    'svg',
    {
      class: 'graph',
      viewBox: `0 0 ${width} ${height}`,
      'data-width': width,
      preserveAspectRatio: 'xMinYMin meet',
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
  return picture;
}

function pair(edge: SVGPathElement, a: string, b: string): SVGPathElement {
  edge.dataset['a'] = a;
  edge.dataset['b'] = b;
  return edge;
}

function nodeElement(state: ParsedPanelState, n: PlacedNode, view: GraphView): SVGGElement {
  const status = statusOf(state, n.id);
  const spec = state.specs.find((s) => s.id === n.id);
  const textTop = (n.height - n.lines.length * LINE_HEIGHT) / 2 + LINE_HEIGHT - 3;
  const node = svg(
    'g',
    {
      class: `node status-${status}`,
      tabindex: 0,
      role: 'button',
      'data-key': `node:${n.id}`,
      'data-spec-id': n.id,
      'aria-label': `${n.id}: ${STATUS_LOOK[status].label}. Edit`,
      transform: `translate(${n.x} ${n.y})`,
    },
    svg('title', {}, `${n.id} — ${STATUS_LOOK[status].label}${spec ? `\n${spec.title}` : ''}`),
    svg('rect', { width: n.width, height: n.height, rx: 4 }),
    svg(
      'text',
      { x: n.width / 2, y: textTop, 'text-anchor': 'middle' },
      ...n.lines.map((line, i) => svg('tspan', { x: n.width / 2, dy: i === 0 ? 0 : LINE_HEIGHT }, line)),
    ),
  );
  node.addEventListener('click', () => view.onSelect(n.id));
  node.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      view.onSelect(n.id);
    }
  });
  return node;
}

function legend(state: ParsedPanelState, view: GraphView): HTMLElement {
  const toggle = view.onTogglePotential;
  const potential = h('span', { class: 'swatch potential', 'aria-hidden': 'true' });
  const count = state.potentialInteractions.length;
  return h(
    'ul',
    { class: 'legend', 'aria-label': 'Legend' },
    h('li', {}, h('span', { class: 'swatch depends', 'aria-hidden': 'true' }), 'depends on'),
    h('li', {}, h('span', { class: 'swatch interacts', 'aria-hidden': 'true' }), 'interacts with'),
    toggle
      ? h(
          'li',
          {},
          h(
            'label',
            { class: 'legend-toggle' },
            h('input', {
              type: 'checkbox',
              'data-key': 'graph-potential',
              checked: view.potentialShown,
              onchange: (event: Event) => toggle((event.target as HTMLInputElement).checked),
            }),
            potential,
            `potential interactions (${count})`,
          ),
        )
      : h('li', {}, potential, 'potential interaction'),
  );
}
