// The interaction matrix in an editor tab: a webview showing the heatmap page of matrixHtml.ts. The page runs
// no script (scripts disabled, CSP default-src 'none'), so it needs no message passing and no nonce.
import * as vscode from 'vscode';
import type { MatrixResult } from '../../core/agent/matrix';
import { renderMatrixHtml } from '../views/matrixHtml';
import type { ToolFailure } from '../../core/agent/runWording';

export const MATRIX_VIEW_TYPE = 'weave.agent.matrix';

export function showMatrixView(
  matrix: MatrixResult,
  failuresOf: (target: string) => readonly ToolFailure[],
): vscode.WebviewPanel {
  const panel = vscode.window.createWebviewPanel(
    MATRIX_VIEW_TYPE,
    'Weave: interaction matrix',
    vscode.ViewColumn.Active,
    { enableScripts: false, enableCommandUris: false, localResourceRoots: [] },
  );
  panel.webview.html = renderMatrixHtml(matrix, failuresOf);
  return panel;
}
