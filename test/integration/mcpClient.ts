// Starts the MCP server the extension registers with VS Code, exactly as VS Code would (its command, args and env),
// and connects the official SDK client to it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type * as vscode from 'vscode';

export async function connectTo(definition: vscode.McpStdioServerDefinition): Promise<Client> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...definition.env }))
    if (v !== undefined && v !== null) env[k] = String(v);
  const transport = new StdioClientTransport({
    command: definition.command,
    args: definition.args,
    env,
    ...(definition.cwd ? { cwd: definition.cwd.fsPath } : {}),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'weave-in-host-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The text of an MCP tool result (`text`) or of a vscode.lm tool result (LanguageModelTextPart: `value`). */
export function toolText(result: { content: ReadonlyArray<unknown> }): string {
  return result.content
    .map((part) => {
      if (typeof part !== 'object' || part === null) return '';
      if ('text' in part) return String(part.text);
      return 'value' in part && typeof part.value === 'string' ? part.value : '';
    })
    .join('\n');
}
