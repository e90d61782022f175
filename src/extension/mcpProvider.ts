// Registers `weave mcp` with VS Code (`contributes.mcpServerDefinitionProviders` +
// `vscode.lm.registerMcpServerDefinitionProvider`), so MCP clients inside VS Code (agent mode, other chat
// extensions) can start Weave's server for the open folder. The server is the bundled CLI run by the extension
// host's own runtime (ELECTRON_RUN_AS_NODE makes VS Code's Electron binary a plain Node; code-server's host is
// Node already), so no `node` on PATH is needed. An untrusted folder gets `--no-run`; granting trust re-announces
// the definition with `--trust`.
import * as vscode from 'vscode';

export const MCP_PROVIDER_ID = 'weave.mcp';

export class WeaveMcpProvider implements vscode.McpServerDefinitionProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private readonly trustListener = vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire());

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly folder: vscode.WorkspaceFolder,
  ) {}

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    const cli = vscode.Uri.joinPath(this.extensionUri, 'dist', 'cli.js').fsPath;
    const trust = vscode.workspace.isTrusted ? '--trust' : '--no-run';
    const definition = new vscode.McpStdioServerDefinition(
      `Weave (${this.folder.name})`,
      process.execPath,
      [cli, 'mcp', '--workspace', this.folder.uri.fsPath, trust],
      { ELECTRON_RUN_AS_NODE: '1' },
      WEAVE_VERSION,
    );
    definition.cwd = this.folder.uri;
    return [definition];
  }

  dispose(): void {
    this.trustListener.dispose();
    this.changed.dispose();
  }
}

/** Registers the provider; returns it (the in-host tests start the server it describes). */
export function registerMcpProvider(
  extensionUri: vscode.Uri,
  folder: vscode.WorkspaceFolder,
): { provider: WeaveMcpProvider; registration: vscode.Disposable } {
  const provider = new WeaveMcpProvider(extensionUri, folder);
  return { provider, registration: vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider) };
}

declare const WEAVE_VERSION: string;
