// A scripted OpenAI-protocol server on 127.0.0.1 for the agent's tests and benchmark: real HTTP, real SSE,
// no mock of the client. Each test hands it scripts (lists of responses); a conversation is recognised by
// its first two messages, so several agents can talk to one server in parallel, each following its own
// script. Every request is recorded so tests can assert what the model was sent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answer, sendJson, type ScriptStep } from './scriptedAnswer';

export type { ScriptedToolCall, ScriptStep } from './scriptedAnswer';

export interface Script {
  /** Picks the conversations this script drives, by their system + first user message. */
  matches(firstMessages: string): boolean;
  steps: ScriptStep[];
  /** What to answer once the steps are used up (default: the last step again). */
  after?: ScriptStep;
  /** Only conversations with this model (several scripted models behind one server, as in a bench). */
  model?: string;
  /** Only conversations sent with this `seed` (several candidates of one model, as `weave agent --candidates`). */
  seed?: number;
  /** Answer each step this long after the request: a remote model's think time (the benchmark's). */
  latencyMs?: number;
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
  seed?: number;
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
      // Two models (or two seeds of one model) given the same task hold two conversations.
      const cursorKey = `${body?.model ?? ''}\0${body?.seed ?? ''}\0${key}`;
      let cursor = cursors.get(cursorKey);
      if (!cursor) {
        const script = options.scripts.find(
          (s) =>
            (s.model === undefined || s.model === body?.model) &&
            (s.seed === undefined || s.seed === body?.seed) &&
            s.matches(key),
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
      const id = `chatcmpl-${completionCounter}`;
      const send = (): void => answer(res, step, body?.stream === true, id, body?.model ?? 'scripted');
      const latency = cursor.script.latencyMs ?? 0;
      if (latency > 0) setTimeout(send, latency);
      else send();
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
