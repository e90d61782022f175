// "Weave: Show spec graph": the spec graph in an editor tab, as large as the editor, laid out by ELK like the
// side panel's (media/src/graphView.ts). It shows the same PanelState the side panel gets; clicking a spec
// opens it in specs.json. Messages are checked against src/shared/protocol.ts like the side panel's.
import * as vscode from 'vscode';
import { parseToExtension, type PanelState, type ToWebviewMessage } from '../../shared/protocol';
import { panelHtml, panelResourceRoots } from './html';

export const GRAPH_VIEW_TYPE = 'weave.graph';

export class GraphPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private state: PanelState | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly openSpec: (id: string) => Promise<void>,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  show(): vscode.WebviewPanel {
    if (this.panel) {
      this.panel.reveal();
      return this.panel;
    }
    const panel = vscode.window.createWebviewPanel(
      GRAPH_VIEW_TYPE,
      'Weave: spec graph',
      vscode.ViewColumn.Active,
      {
        enableScripts: true,
        localResourceRoots: panelResourceRoots(this.extensionUri),
      },
    );
    this.panel = panel;
    this.ready = false;
    panel.webview.html = panelHtml(panel.webview, this.extensionUri, {
      script: 'graphView.js',
      title: 'Weave spec graph',
    });
    panel.webview.onDidReceiveMessage((raw: unknown) => {
      const parsed = parseToExtension(raw);
      if (!parsed.ok) {
        this.log.warn(`Weave graph: ignored a ${parsed.error}`);
        return;
      }
      const message = parsed.message;
      if (message.type === 'ready') {
        this.ready = true;
        if (this.state) this.post({ type: 'state', state: this.state });
      } else if (message.type === 'openSpec') {
        this.openSpec(message.id).catch((e: unknown) =>
          this.log.error(`Weave graph: open ${message.id}: ${String(e)}`),
        );
      } else if (message.type === 'log') {
        this.log[message.level](`Weave graph (webview): ${message.message}`);
      }
    });
    panel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
    });
    return panel;
  }

  update(state: PanelState): void {
    this.state = state;
    this.post({ type: 'state', state });
  }

  private post(message: ToWebviewMessage): void {
    if (!this.panel || !this.ready) return;
    this.panel.webview.postMessage(message).then(undefined, (e: unknown) => {
      this.log.warn(`Weave graph: could not post ${message.type}: ${String(e)}`);
    });
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
