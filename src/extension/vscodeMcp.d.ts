// The MCP server definition API (final since VS Code 1.101), declared here because the project's @types/vscode is
// 1.100 and no newer typings can be installed. Only what Weave uses, exactly as VS Code 1.101's vscode.d.ts
// declares it; delete this file when @types/vscode is raised to ≥ 1.101.
import 'vscode';

declare module 'vscode' {
  /** A server started as a local process, talking MCP over its stdin/stdout. */
  export class McpStdioServerDefinition {
    readonly label: string;
    cwd?: Uri;
    command: string;
    args: string[];
    env: Record<string, string | number | null>;
    version?: string;
    constructor(
      label: string,
      command: string,
      args?: string[],
      env?: Record<string, string | number | null>,
      version?: string,
    );
  }

  export interface McpServerDefinitionProvider<
    T extends McpStdioServerDefinition = McpStdioServerDefinition,
  > {
    readonly onDidChangeMcpServerDefinitions?: Event<void>;
    provideMcpServerDefinitions(token: CancellationToken): ProviderResult<T[]>;
    resolveMcpServerDefinition?(server: T, token: CancellationToken): ProviderResult<T>;
  }

  export namespace lm {
    /** `id` must be listed in the manifest's `contributes.mcpServerDefinitionProviders`. */
    export function registerMcpServerDefinitionProvider(
      id: string,
      provider: McpServerDefinitionProvider,
    ): Disposable;
  }
}
