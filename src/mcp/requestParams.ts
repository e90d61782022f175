// Requests whose params do not have the shape MCP defines are answered here with -32602 and one line that says
// what is wrong, before the SDK sees them: the SDK (1.32) parses a request's params inside its handler, so a
// `tools/call` without params came back as -32603 (internal error) with a multi-line zod dump.
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { INVALID_PARAMS } from './lineTransport';

interface RequestShape {
  schema: { safeParse(value: unknown): { success: true } | { success: false; error: { issues: Issue[] } } };
  expected: string;
}
interface Issue {
  path: PropertyKey[];
  message: string;
}

const SHAPES: Record<string, RequestShape> = {
  'tools/call': { schema: CallToolRequestSchema, expected: '{"name": "<tool>", "arguments": {…}}' },
  'resources/read': { schema: ReadResourceRequestSchema, expected: '{"uri": "<resource uri>"}' },
  'tools/list': { schema: ListToolsRequestSchema, expected: '{} or {"cursor": "<cursor>"}' },
  'resources/list': { schema: ListResourcesRequestSchema, expected: '{} or {"cursor": "<cursor>"}' },
  initialize: {
    schema: InitializeRequestSchema,
    expected: '{"protocolVersion": "…", "capabilities": {…}, "clientInfo": {"name": "…", "version": "…"}}',
  },
};

/** A -32602 answer for a request of a known method whose params are malformed; undefined when they are fine. */
export function malformedParams(
  request: JSONRPCMessage & { id: RequestId; method: string },
): JSONRPCErrorResponse | undefined {
  const shape = Object.hasOwn(SHAPES, request.method) ? SHAPES[request.method] : undefined;
  if (!shape) return undefined;
  const parsed = shape.schema.safeParse(request);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const where = issue ? issue.path.map(String).join('.') || 'params' : 'params';
  const what = issue ? `${where}: ${issue.message.split('\n')[0]}` : 'params are malformed';
  return {
    jsonrpc: '2.0',
    id: request.id,
    error: {
      code: INVALID_PARAMS,
      message: `Invalid params for ${request.method} (${what}); send params ${shape.expected}`,
    },
  };
}
