// The side panel's entry point for the rest of the extension: register it once in activate(), then push the
// state with `update` whenever specs, verdicts, baseline, interactions or trust change.
import * as vscode from 'vscode';
import type { PanelState } from '../../protocol';
import { SPECS_VIEW_ID, SpecsViewProvider, type SpecsPanelDeps } from './specsViewProvider';

export { matchAnchors } from './symbolSearch';
export { SPECS_VIEW_ID, type SpecsPanelDeps };
export type { PanelState };

/** Focuses the panel and opens its "add spec" form. */
export const NEW_SPEC_COMMAND = 'weave.panel.newSpec';

export interface SpecsPanel {
  /** Shows this state (validated: an invalid one is logged and not shown). Cheap; call it freely. */
  update(state: PanelState): void;
  showNewSpecForm(): Promise<void>;
}

export function registerSpecsPanel(context: vscode.ExtensionContext, deps: SpecsPanelDeps): SpecsPanel {
  const provider = new SpecsViewProvider(context.extensionUri, deps);
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(SPECS_VIEW_ID, provider),
    vscode.commands.registerCommand(NEW_SPEC_COMMAND, () => provider.showNewSpecForm()),
  );
  return {
    update: (state) => provider.update(state),
    showNewSpecForm: () => provider.showNewSpecForm(),
  };
}
