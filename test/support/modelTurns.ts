// What a scripted model says, for the servers that speak the real agents' wire protocols (Anthropic Messages,
// OpenAI Responses). A script is a list of turns; the server picks the turn by how many model turns the request's
// history already holds, so it keeps no state per conversation and a client's retry gets the same turn again.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type ModelTurn =
  /** A final answer: the model ends its turn. */
  | { text: string }
  /** One tool call (Claude Code tool_use, Codex function_call; `namespace` for Codex's MCP tools). */
  | { tool: string; input: Record<string, unknown>; namespace?: string }
  /** Codex's freeform apply_patch tool (a custom tool call whose input is the patch envelope). */
  | { patch: string };

export interface RecordedModelRequest {
  url: string;
  body: unknown;
  /** The script turn that answered, or 'side' for a request outside the scripted conversation. */
  turn: number | 'side';
}

export interface ModelServer {
  baseURL: string;
  requests: RecordedModelRequest[];
  /** Requests whose history had used up the script (the client went on longer than the test expected). */
  unscripted(): RecordedModelRequest[];
  close(): Promise<void>;
}

/** Reads a JSON body, hands it to `route` and records it. Shared by both protocol servers. */
export async function startJsonServer(
  route: (url: string, body: unknown, res: http.ServerResponse) => RecordedModelRequest['turn'] | undefined,
  basePath: string,
): Promise<ModelServer> {
  const requests: RecordedModelRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
      } catch {
        body = undefined;
      }
      const url = `${req.method} ${req.url ?? ''}`;
      const turn = route(url, body, res);
      if (turn === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'not_found_error', message: `no route ${url}` } }));
      }
      requests.push({ url, body, turn: turn ?? 'side' });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}${basePath}`,
    requests,
    unscripted: () => requests.filter((r) => r.turn === -1),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An SSE event as both protocols frame it: `event:` line, JSON `data:` carrying the same `type`. */
export function sseEvent(res: http.ServerResponse, type: string, data: Record<string, unknown>): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

export function startSse(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
}
