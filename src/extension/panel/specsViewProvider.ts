// The Weave side panel (WebviewView `weave.specs`): shows the state the extension pushes, and turns the
// webview's messages into actions. Every incoming message is checked against src/shared/protocol.ts first; a
// malformed one is logged and dropped. Spec edits become WorkspaceEdits of specs.json (undoable) and are
// saved; nothing runs in an untrusted workspace.
import * as vscode from 'vscode';
import {
  panelStateSchema,
  parseToExtension,
  type CheckTarget,
  type PanelState,
  type SymbolMatch,
  type ToExtension,
  type ToWebviewMessage,
} from '../../shared/protocol';
import { panelHtml, panelResourceRoots } from './html';
import { locateSpecInText, SpecEditError } from '../../core/spec';
import { applySpecEditMessage } from './specFileEdits';

export const SPECS_VIEW_ID = 'weave.specs';

export interface SpecsPanelDeps {
  /** Runs the checks; the extension pushes the new state through `update` as results come in. */
  checkSpecs(target: string[] | 'affected' | 'all'): unknown;
  /** Cancels the check in progress (the panel's Cancel button). */
  cancelCheck(): void;
  /** Files and symbols of the tree-sitter index matching `query` (see `matchAnchors`). */
  searchSymbols(query: string): Promise<SymbolMatch[]>;
  log: vscode.LogOutputChannel;
  /** The folder activation chose (workspaceFolder.ts): anchors are relative to it. */
  folder: vscode.WorkspaceFolder;
  /** The spec file the panel edits: the one in `folder`. */
  specFileUri(): vscode.Uri;
}

export class SpecsViewProvider implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  /** True once the current view's script said `ready`: messages posted earlier would be lost. */
  private ready = false;
  private state: PanelState | undefined;
  /** Shown once the view's script is ready (the view may be opening right now). */
  private newSpecFormPending = false;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly deps: SpecsPanelDeps,
    private readonly showGraph: () => unknown,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    view.webview.options = { enableScripts: true, localResourceRoots: panelResourceRoots(this.extensionUri) };
    view.webview.html = panelHtml(view.webview, this.extensionUri);
    const received = view.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw));
    view.onDidDispose(() => {
      received.dispose();
      if (this.view === view) {
        this.view = undefined;
        this.ready = false;
      }
    });
  }

  update(state: PanelState): void {
    const checked = panelStateSchema.safeParse(state);
    if (!checked.success) {
      this.deps.log.error(`Weave panel: invalid state not shown: ${checked.error.issues[0]?.message ?? ''}`);
      return;
    }
    this.state = state;
    this.post({ type: 'state', state });
  }

  /** Reveals the panel and opens its "add spec" form. */
  async showNewSpecForm(): Promise<void> {
    this.newSpecFormPending = true;
    await vscode.commands.executeCommand(`${SPECS_VIEW_ID}.focus`);
    this.flushNewSpecForm();
  }

  private flushNewSpecForm(): void {
    if (this.newSpecFormPending && this.ready) {
      this.newSpecFormPending = false;
      this.post({ type: 'showNewSpecForm' });
    }
  }

  private post(message: ToWebviewMessage): void {
    if (!this.view || !this.ready) return;
    this.view.webview.postMessage(message).then(undefined, (e: unknown) => {
      this.deps.log.warn(`Weave panel: could not post ${message.type}: ${String(e)}`);
    });
  }

  private receive(raw: unknown): void {
    const parsed = parseToExtension(raw);
    if (!parsed.ok) {
      this.deps.log.warn(`Weave panel: ignored a ${parsed.error}`);
      return;
    }
    const message = parsed.message;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        if (this.state) this.post({ type: 'state', state: this.state });
        this.flushNewSpecForm();
        return;
      case 'check':
        this.check(message.target);
        return;
      case 'cancelCheck':
        this.deps.cancelCheck();
        return;
      case 'addSpec':
      case 'updateSpec':
      case 'removeSpec':
        void this.edit(message);
        return;
      case 'searchSymbols':
        void this.searchSymbols(message);
        return;
      case 'openGraph':
        this.showGraph();
        return;
      case 'initSpecs':
        void this.report(Promise.resolve(vscode.commands.executeCommand('weave.init')), 'init specs');
        return;
      case 'openSpec':
        void this.report(this.openSpec(message.id), `open spec ${message.id}`);
        return;
      case 'openAnchor':
        void this.report(this.openAnchor(message.anchor), `open anchor ${message.anchor}`);
        return;
      case 'log':
        this.deps.log[message.level](`Weave panel (webview): ${message.message}`);
        return;
    }
  }

  private check(target: CheckTarget): void {
    if (!vscode.workspace.isTrusted) {
      this.deps.log.warn('Weave panel: check requested in an untrusted workspace; nothing runs.');
      return;
    }
    const what = target === 'all' || target === 'affected' ? target : target.ids;
    void this.report(Promise.resolve(this.deps.checkSpecs(what)), 'check');
  }

  private async report(work: Promise<unknown>, what: string): Promise<void> {
    try {
      await work;
    } catch (e) {
      this.deps.log.error(`Weave panel: ${what} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private async searchSymbols(message: ToExtension<'searchSymbols'>): Promise<void> {
    try {
      const symbols = await this.deps.searchSymbols(message.query);
      this.post({ type: 'symbols', requestId: message.requestId, symbols });
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      this.deps.log.warn(`Weave panel: symbol search failed: ${error}`);
      this.post({ type: 'symbols', requestId: message.requestId, symbols: [], error });
    }
  }

  private async edit(message: ToExtension<'addSpec' | 'updateSpec' | 'removeSpec'>): Promise<void> {
    try {
      await applySpecEditMessage(message, this.deps.specFileUri());
      this.deps.log.info(
        `Weave panel: ${message.type} ${message.type === 'addSpec' ? message.spec.id : message.id}`,
      );
      this.post({ type: 'editResult', requestId: message.requestId });
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      if (!(e instanceof SpecEditError)) this.deps.log.error(`Weave panel: ${message.type} failed: ${error}`);
      this.post({ type: 'editResult', requestId: message.requestId, error });
    }
  }

  async openSpec(id: string): Promise<void> {
    const document = await vscode.workspace.openTextDocument(this.deps.specFileUri());
    const found = locateSpecInText(document.getText(), id);
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    if (found) {
      const start = document.positionAt(found.offset);
      editor.selection = new vscode.Selection(start, start);
      editor.revealRange(new vscode.Range(start, document.positionAt(found.offset + found.length)));
    }
  }

  async openAnchor(anchor: string): Promise<void> {
    const hash = anchor.indexOf('#');
    const file = hash === -1 ? anchor : anchor.slice(0, hash);
    // Anchors are workspace-relative; never let one open a file outside the folder.
    if (file.startsWith('/') || /^[a-zA-Z]:/.test(file) || file.split(/[\\/]/).includes('..')) {
      this.deps.log.warn(`Weave panel: anchor ${anchor} is not inside the workspace folder; not opened.`);
      return;
    }
    // Ask the index for the symbol's line; fall back to the top of the file when it does not resolve.
    const line =
      hash === -1
        ? undefined
        : (await this.deps.searchSymbols(anchor)).find((s) => s.anchor === anchor)?.line;
    const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(this.deps.folder.uri, file));
    const position = new vscode.Position(line ?? 0, 0);
    await vscode.window.showTextDocument(document, {
      preview: false,
      selection: new vscode.Range(position, position),
    });
  }
}
