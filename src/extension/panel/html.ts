// The side panel's HTML shell: a strict CSP (nothing but our own bundle, styles and the codicon font, the
// script admitted by a per-load nonce), resources through `asWebviewUri`.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export function panelHtml(
  webview: vscode.Webview,
  extensionUri: vscode.Uri,
  page: { script: string; title: string } = { script: 'webview.js', title: 'Weave specs' },
): string {
  const nonce = randomBytes(16).toString('hex');
  const uri = (...path: string[]) =>
    webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...path)).toString();
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" href="${uri('dist', 'codicons', 'codicon.css')}" id="vscode-codicon-stylesheet">
  <link rel="stylesheet" href="${uri('media', 'panel.css')}">
  <title>${page.title}</title>
</head>
<body>
  <main id="app" aria-label="${page.title}"><p class="muted">Loading specs…</p></main>
  <script nonce="${nonce}" src="${uri('dist', page.script)}"></script>
</body>
</html>`;
}

/** The folders the webview may load from: the bundle (and codicons) and the stylesheets. */
export function panelResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')];
}
