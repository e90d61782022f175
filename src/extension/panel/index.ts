// The side panel's entry point for the rest of the extension: register it once in activate(), then push the
// state with `update` whenever specs, verdicts, baseline, interactions or trust change.
import * as vscode from 'vscode';
import type { PanelState } from '../../shared/protocol';
import { GraphPanel } from './graphPanel';
import { SPECS_VIEW_ID, SpecsViewProvider, type SpecsPanelDeps } from './specsViewProvider';

export { matchAnchors } from '../../core/index';
export { SPECS_VIEW_ID, type SpecsPanelDeps };
export type { PanelState };

export interface SpecsPanel {
  /** Shows this state (validated: an invalid one is logged and not shown). Cheap; call it freely. */
  update(state: PanelState): void;
  /** The state last shown (the in-host tests compare it with the other surfaces). */
  readonly shown: PanelState | undefined;
  /** Focuses the panel and opens its "add spec" form (weave.newSpec). */
  showNewSpecForm(): Promise<void>;
  /** Opens (or reveals) the large graph view (weave.showGraph). */
  showGraph(): vscode.WebviewPanel;
  /** What a click on an anchor in the panel does: opens the file of Weave's folder at the symbol. */
  openAnchor(anchor: string): Promise<void>;
}

export function registerSpecsPanel(context: vscode.ExtensionContext, deps: SpecsPanelDeps): SpecsPanel {
  const provider: SpecsViewProvider = new SpecsViewProvider(context.extensionUri, deps, (): unknown =>
    graph.show(),
  );
  const graph: GraphPanel = new GraphPanel(
    context.extensionUri,
    (id): Promise<void> => provider.openSpec(id),
    deps.log,
  );
  context.subscriptions.push(graph, vscode.window.registerWebviewViewProvider(SPECS_VIEW_ID, provider));
  let shown: PanelState | undefined;
  return {
    update: (state) => {
      shown = state;
      provider.update(state);
      graph.update(state);
    },
    get shown() {
      return shown;
    },
    showNewSpecForm: () => provider.showNewSpecForm(),
    showGraph: () => graph.show(),
    openAnchor: (anchor) => provider.openAnchor(anchor),
  };
}
