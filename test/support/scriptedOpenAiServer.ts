// A scripted OpenAI-protocol server on 127.0.0.1 for the agent's tests and benchmark: real HTTP, real SSE,
// no mock of the client. Each test hands it scripts (lists of responses); a conversation is recognised by
// its first two messages, so several agents can talk to one server in parallel, each following its own
// script. Every request is recorded so tests can assert what the model was sent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedToolCall {
  name: string;
  /** An object is JSON-encoded; a string is sent verbatim (malformed arguments are a string). */
  arguments: Record<string, unknown> | string;
}

export type ScriptStep =
  | { kind: 'tools'; calls: ScriptedToolCall[]; content?: string }
  | { kind: 'text'; content: string }
  /** Any HTTP answer, e.g. 429 with retry-after, 500, 401, 404. */
  | { kind: 'http'; status: number; headers?: Record<string, string>; body?: unknown }
  /** Sends part of an SSE stream (or a JSON body) and then destroys the socket. */
  | { kind: 'cut' }
  /** 200 with a body that is not a chat completion. */
  | { kind: 'garbage'; body: string }
  /** Never answers: the request stays open, as with a model still thinking, until the client goes away. */
  | { kind: 'hold' };

export interface Script {
  /** Picks the conversations this script drives, by their system + first user message. */
  matches(firstMessages: string): boolean;
  steps: ScriptStep[];
  /** What to answer once the steps are used up (default: the last step again). */
  after?: ScriptStep;
  /** Only conversations with this model (several scripted models behind one server, as in a bench). */
  model?: string;
}

export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: ChatRequestBody | undefined;
  /** The script step that answered, or undefined when none matched. */
  step: ScriptStep | undefined;
}

interface ChatMessage {
  role: string;
  content?: unknown;
}
interface ChatRequestBody {
  model?: string;
  stream?: boolean;
  messages?: ChatMessage[];
  tools?: Array<{ function?: { name?: string } }>;
  response_format?: unknown;
}

export interface ScriptedServer {
  /** e.g. http://127.0.0.1:PORT/v1 */
  baseURL: string;
  requests: RecordedRequest[];
  /** The chat requests that reached /v1/chat/completions. */
  chatRequests(): RecordedRequest[];
  /** Sockets currently open (to assert that nothing is left behind). */
  openSockets(): number;
  close(): Promise<void>;
}

export interface ScriptedServerOptions {
  scripts: Script[];
  /** Model ids the server knows; others get 404 model_not_found. Default: any. */
  models?: string[];
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
}

/** A script that drives every conversation. */
export function everyConversation(steps: ScriptStep[], after?: ScriptStep): Script {
  return after ? { matches: () => true, steps, after } : { matches: () => true, steps };
}

export async function startScriptedServer(options: ScriptedServerOptions): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const cursors = new Map<string, { script: Script; next: number }>();
  const sockets = new Set<import('node:net').Socket>();
  let completionCounter = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: ChatRequestBody | undefined;
      try {
        body = raw ? (JSON.parse(raw) as ChatRequestBody) : undefined;
      } catch {
        body = undefined;
      }
      const record: RecordedRequest = { path: req.url ?? '', headers: req.headers, body, step: undefined };
      requests.push(record);
      if (!req.url?.endsWith('/chat/completions') || req.method !== 'POST') {
        sendJson(res, 404, {
          error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' },
        });
        return;
      }
      if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
        sendJson(res, 401, {
          error: {
            message: 'Incorrect API key provided.',
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        });
        return;
      }
      if (options.models && !options.models.includes(body?.model ?? '')) {
        sendJson(res, 404, {
          error: {
            message: `The model '${body?.model}' does not exist`,
            type: 'invalid_request_error',
            code: 'model_not_found',
          },
        });
        return;
      }
      const key = conversationKey(body);
      // Two models given the same task hold two conversations.
      const cursorKey = `${body?.model ?? ''}\0${key}`;
      let cursor = cursors.get(cursorKey);
      if (!cursor) {
        const script = options.scripts.find(
          (s) => (s.model === undefined || s.model === body?.model) && s.matches(key),
        );
        if (!script) {
          sendJson(res, 500, { error: { message: 'scripted server: no script matches this conversation' } });
          return;
        }
        cursor = { script, next: 0 };
        cursors.set(cursorKey, cursor);
      }
      const step = cursor.script.steps[cursor.next] ?? cursor.script.after ?? cursor.script.steps.at(-1);
      cursor.next += 1;
      record.step = step;
      if (!step) {
        sendJson(res, 500, { error: { message: 'scripted server: empty script' } });
        return;
      }
      completionCounter += 1;
      answer(res, step, body?.stream === true, `chatcmpl-${completionCounter}`, body?.model ?? 'scripted');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () => requests.filter((r) => r.path.endsWith('/chat/completions')),
    openSockets: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function conversationKey(body: ChatRequestBody | undefined): string {
  const first = (body?.messages ?? [])
    .slice(0, 2)
    .map((m) => (typeof m.content === 'string' ? m.content : ''));
  return first.join('\n\n');
}

function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function toolCallsOf(step: { calls: ScriptedToolCall[] }, id: string) {
  return step.calls.map((c, i) => ({
    id: `call_${id}_${i}`,
    type: 'function' as const,
    function: {
      name: c.name,
      arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
    },
  }));
}

const USAGE = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };

function answer(
  res: http.ServerResponse,
  step: ScriptStep,
  stream: boolean,
  id: string,
  model: string,
): void {
  switch (step.kind) {
    case 'hold':
      return;
    case 'http':
      sendJson(
        res,
        step.status,
        step.body ?? { error: { message: `scripted ${step.status}` } },
        step.headers,
      );
      return;
    case 'garbage':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(step.body);
      return;
    case 'cut':
      if (stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(
          `data: ${JSON.stringify(chunk(id, model, { role: 'assistant', content: 'Let me' }, null))}\n\n`,
        );
        // Let the first event reach the client before the connection drops.
        setImmediate(() => res.destroy());
      } else {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"id":"');
        setImmediate(() => res.destroy());
      }
      return;
    case 'text':
    case 'tools': {
      const toolCalls = step.kind === 'tools' ? toolCallsOf(step, id) : undefined;
      const content = step.content ?? null;
      if (!stream) {
        sendJson(res, 200, {
          id,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
              finish_reason: toolCalls ? 'tool_calls' : 'stop',
            },
          ],
          usage: USAGE,
        });
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const events: unknown[] = [chunk(id, model, { role: 'assistant', content: '' }, null)];
      if (content) {
        // Several deltas, as real servers send them.
        for (const part of content.match(/.{1,16}/gs) ?? [])
          events.push(chunk(id, model, { content: part }, null));
      }
      for (const [index, call] of (toolCalls ?? []).entries()) {
        events.push(
          chunk(
            id,
            model,
            {
              tool_calls: [
                {
                  index,
                  id: call.id,
                  type: 'function',
                  function: { name: call.function.name, arguments: '' },
                },
              ],
            },
            null,
          ),
        );
        // Arguments arrive in fragments that only parse once joined.
        for (const part of call.function.arguments.match(/.{1,7}/gs) ?? []) {
          events.push(chunk(id, model, { tool_calls: [{ index, function: { arguments: part } }] }, null));
        }
      }
      events.push(chunk(id, model, {}, toolCalls ? 'tool_calls' : 'stop'));
      events.push({ ...chunk(id, model, {}, null), choices: [], usage: USAGE });
      for (const e of events) res.write(`data: ${JSON.stringify(e)}\n\n`);
      res.end('data: [DONE]\n\n');
      return;
    }
  }
}

function chunk(id: string, model: string, delta: Record<string, unknown>, finishReason: string | null) {
  return {
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}
