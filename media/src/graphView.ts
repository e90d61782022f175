// The large spec graph (an editor tab opened by "Weave: Show spec graph"; bundled to dist/graphView.js): the
// same ELK layout as the side panel's, ids on one line, zoomable; clicking a spec opens it in specs.json.
import { z } from 'zod';
import { parseToWebview, type ParsedPanelState, type ToExtensionMessage } from '../../src/shared/protocol';
import { h } from './dom';
import { renderGraph } from './graph';

// The CSP has no 'unsafe-eval': tell zod not to probe `new Function` (it would only log a CSP violation).
z.config({ jitless: true });

interface VsCodeApi {
  postMessage(message: ToExtensionMessage): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const app = document.getElementById('app') as HTMLElement;
app.classList.add('graph-page');

let potentialShown = true;
let latest: ParsedPanelState | undefined;

function render(state: ParsedPanelState): void {
  latest = state;
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
        potentialShown = shown;
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
  if (parsed.message.type === 'state') render(parsed.message.state);
});

vscode.postMessage({ type: 'ready' });
