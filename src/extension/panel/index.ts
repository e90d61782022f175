// The side panel's entry point for the rest of the extension: register it once in activate(), then push the
// state with `update` whenever specs, verdicts, baseline, interactions or trust change.
import * as vscode from 'vscode';
import type { PanelState } from '../../shared/protocol';
import { GraphPanel } from './graphPanel';
import { SPECS_VIEW_ID, SpecsViewProvider, type SpecsPanelDeps } from './specsViewProvider';

export { matchAnchors } from '../../core/index/symbolSearch';
export { SPECS_VIEW_ID, type SpecsPanelDeps };
export type { PanelState };

/** Focuses the panel and opens its "add spec" form. */
export const NEW_SPEC_COMMAND = 'weave.panel.newSpec';
/** Opens the spec graph in an editor tab. */
export const SHOW_GRAPH_COMMAND = 'weave.panel.showGraph';

export interface SpecsPanel {
  /** Shows this state (validated: an invalid one is logged and not shown). Cheap; call it freely. */
  update(state: PanelState): void;
  showNewSpecForm(): Promise<void>;
  /** Opens (or reveals) the large graph view. */
  showGraph(): vscode.WebviewPanel;
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
  context.subscriptions.push(
    graph,
    vscode.window.registerWebviewViewProvider(SPECS_VIEW_ID, provider),
    vscode.commands.registerCommand(NEW_SPEC_COMMAND, () => provider.showNewSpecForm()),
    vscode.commands.registerCommand(SHOW_GRAPH_COMMAND, () => graph.show()),
  );
  return {
    update: (state) => {
      provider.update(state);
      graph.update(state);
    },
    showNewSpecForm: () => provider.showNewSpecForm(),
    showGraph: () => graph.show(),
  };
}
