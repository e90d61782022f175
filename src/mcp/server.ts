// `weave mcp`: Weave's tools as a Model Context Protocol server (official SDK, stdio). Every tool's input is the
// zod schema of toolSchemas.ts (the SDK validates it and answers a bad call with a tool error, isError: true);
// results carry structuredContent plus a text part. Runs are serialised: two checks never race over .weave/runs.
// Nothing but protocol goes to stdout: logs go to stderr.
import { promises as fs } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { specFilePath } from '../core/spec';
import { WEAVE_TOOLS, type WeaveToolName } from './toolSchemas';
import { affectedSpecs } from './affectedTool';
import { blameBrokenSpec } from './blameTool';
import { checkSpecs } from './checkTool';
import { listSpecs } from './listSpecsTool';
import { ToolRefusal, type RunPolicy, type ToolOutput } from './toolContract';

export interface WeaveMcpServerOptions {
  workspaceDir: string;
  policy: RunPolicy;
  version: string;
  log: (line: string) => void;
}

type Handler = (input: unknown, signal: AbortSignal) => Promise<ToolOutput<object>>;

export function createWeaveMcpServer(options: WeaveMcpServerOptions): McpServer {
  const { workspaceDir, policy, log } = options;
  const server = new McpServer(
    { name: 'weave', version: options.version },
    {
      instructions:
        'Weave checks interacting constraints (specs), each with an executable test. Before changing code call ' +
        'weave_list_specs; after every change call weave_check (or weave_check {affected: true}). Never edit a ' +
        "spec's test files or anything under .weave/: they are read-only. A change is done when no spec is broken.",
    },
  );
  let queue: Promise<unknown> = Promise.resolve();
  const serialised = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run);
    queue = next.catch(() => undefined);
    return next;
  };
  const handlers: Record<WeaveToolName, Handler> = {
    weave_list_specs: () => listSpecs(workspaceDir, policy),
    weave_check: (input, signal) =>
      serialised(() => checkSpecs(workspaceDir, input as never, { policy, signal })),
    weave_affected: (input) => affectedSpecs(workspaceDir, input as never, policy),
    weave_blame: (input, signal) =>
      serialised(() => blameBrokenSpec(workspaceDir, input as never, { policy, signal })),
  };
  for (const tool of WEAVE_TOOLS) {
    const handler = handlers[tool.name];
    server.registerTool(
      tool.name,
      {
        title: tool.displayName,
        description: tool.description,
        inputSchema: tool.input,
        annotations: { readOnlyHint: !tool.runsTests, openWorldHint: false },
      },
      async (input: unknown, extra: { signal: AbortSignal }): Promise<CallToolResult> => {
        const started = performance.now();
        try {
          const output = await handler(input, extra.signal);
          log(`${tool.name}: ok in ${Math.round(performance.now() - started)} ms`);
          return {
            content: [{ type: 'text', text: output.text }],
            structuredContent: output.structured as Record<string, unknown>,
          };
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          log(`${tool.name}: ${error instanceof ToolRefusal ? 'refused' : 'failed'}: ${message}`);
          return { content: [{ type: 'text', text: message }], isError: true };
        }
      },
    );
  }
  const specsUri = pathToFileURL(specFilePath(workspaceDir)).href;
  server.registerResource(
    'specs',
    specsUri,
    {
      title: 'Weave spec file',
      description: "The workspace's .weave/specs.json: the goal and every spec (read-only for agents).",
      mimeType: 'application/json',
    },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'application/json', text: await readSpecsText(workspaceDir) }],
    }),
  );
  return server;
}

async function readSpecsText(workspaceDir: string): Promise<string> {
  try {
    return await fs.readFile(specFilePath(workspaceDir), 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${specFilePath(workspaceDir)}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
