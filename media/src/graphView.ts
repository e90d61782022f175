// The large spec graph (an editor tab opened by "Weave: Show spec graph"; bundled to dist/graphView.js): the
// same ELK layout as the side panel's, ids on one line, zoomable; clicking a spec opens it in specs.json. Potential
// interactions start hidden above 15 specs, and a running check's stream of states is drawn a few times a second.
import { z } from 'zod';
import { parseToWebview, type ParsedPanelState, type ToExtensionMessage } from '../../src/shared/protocol';
import { h } from './dom';
import { renderGraph } from './graph';
import { potentialShownByDefault } from './graphEdges';

// The CSP has no 'unsafe-eval': tell zod not to probe `new Function` (it would only log a CSP violation).
z.config({ jitless: true });

interface VsCodeApi {
  postMessage(message: ToExtensionMessage): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const app = document.getElementById('app') as HTMLElement;
app.classList.add('graph-page');

/** The user's choice of the legend's toggle; until then the spec count decides (potentialShownByDefault). */
let potentialChoice: boolean | undefined;
let latest: ParsedPanelState | undefined;
/** During a check every verdict is a new state: the graph is drawn at most this often, with the latest state. */
const MIN_RENDER_GAP_MS = 300;
let lastRenderAt = -Infinity;
let renderTimer: ReturnType<typeof setTimeout> | undefined;

function scheduleRender(state: ParsedPanelState): void {
  latest = state;
  if (renderTimer !== undefined) return;
  const wait = Math.max(0, lastRenderAt + MIN_RENDER_GAP_MS - performance.now());
  renderTimer = setTimeout(() => {
    renderTimer = undefined;
    lastRenderAt = performance.now();
    if (latest) render(latest);
  }, wait);
}

function render(state: ParsedPanelState): void {
  latest = state;
  const potentialShown = potentialChoice ?? potentialShownByDefault(state.specs.length);
  app.replaceChildren(
    h('h1', {}, 'Spec graph'),
    h(
      'p',
      { class: 'muted' },
      `${state.specs.length} spec${state.specs.length === 1 ? '' : 's'} · click one to open it in specs.json · Ctrl+wheel zooms`,
    ),
    renderGraph(state, {
      wrapAt: Infinity,
      fit: 'fill',
      onSelect: (id) => vscode.postMessage({ type: 'openSpec', id }),
      potentialShown,
      onTogglePotential: (shown) => {
        potentialChoice = shown;
        if (latest) render(latest);
      },
    }),
  );
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = parseToWebview(event.data);
  if (!parsed.ok) {
    vscode.postMessage({
      type: 'log',
      level: 'warn',
      message: `graph view ignored a ${parsed.error}`.slice(0, 2000),
    });
    return;
  }
  if (parsed.message.type === 'state') scheduleRender(parsed.message.state);
});

vscode.postMessage({ type: 'ready' });
