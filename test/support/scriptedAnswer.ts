// How the scripted OpenAI-protocol server answers one script step: a chat completion as one JSON body or as an
// SSE stream (content and tool-call arguments in fragments, as real servers send them), or a failure (an HTTP
// error, a cut connection, garbage, no answer at all).
import type http from 'node:http';

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

export function sendJson(
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

export function answer(
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
