// A scripted OpenAI Responses API server on 127.0.0.1 for the real Codex CLI (a custom model provider with
// wire_api = "responses": Codex refuses the chat API). Real HTTP and the Responses SSE stream (response.created,
// output_item.added/done, response.completed). The conversation whose first user input holds `marker` follows
// the script, one output item per turn: a message, a function call (MCP tools in their namespace) or a custom
// apply_patch call. Other requests get a short message and are recorded as side requests.
import type http from 'node:http';
import { type ModelServer, type ModelTurn, sseEvent, startJsonServer, startSse } from './modelTurns';

export interface ResponsesRequestBody {
  model?: string;
  input?: Array<{ type?: string; role?: string; content?: unknown; output?: unknown }>;
}

/** History items that are the model's own turns (what the script has already said). */
const MODEL_ITEMS = new Set(['function_call', 'custom_tool_call']);

export async function startScriptedResponsesServer(
  marker: string,
  script: ModelTurn[],
): Promise<ModelServer> {
  let counter = 0;
  return startJsonServer((url, body, res) => {
    if (!/^POST \/v1\/responses(\?|$)/.test(url)) return undefined;
    const input = ((body ?? {}) as ResponsesRequestBody).input ?? [];
    counter += 1;
    const firstUser = input.find(
      (i) => i.type === 'message' && i.role === 'user' && JSON.stringify(i).includes(marker),
    );
    if (firstUser === undefined) {
      stream(res, counter, { text: 'ok' });
      return 'side';
    }
    const index = input.filter(
      (i) => MODEL_ITEMS.has(i.type ?? '') || (i.type === 'message' && i.role === 'assistant'),
    ).length;
    const turn = script[index];
    stream(res, counter, turn ?? { text: 'script exhausted' });
    return turn === undefined ? -1 : index;
  }, '/v1');
}

function outputItem(n: number, turn: ModelTurn): Record<string, unknown> {
  if ('text' in turn)
    return {
      type: 'message',
      id: `msg_${n}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: turn.text, annotations: [] }],
    };
  if ('patch' in turn)
    return {
      type: 'custom_tool_call',
      id: `ctc_${n}`,
      call_id: `call_${n}`,
      name: 'apply_patch',
      input: turn.patch,
      status: 'completed',
    };
  return {
    type: 'function_call',
    id: `fc_${n}`,
    call_id: `call_${n}`,
    name: turn.tool,
    ...(turn.namespace !== undefined ? { namespace: turn.namespace } : {}),
    arguments: JSON.stringify(turn.input),
    status: 'completed',
  };
}

function stream(res: http.ServerResponse, n: number, turn: ModelTurn): void {
  const item = outputItem(n, turn);
  const id = `resp_${n}`;
  startSse(res);
  sseEvent(res, 'response.created', { response: { id, status: 'in_progress', output: [] } });
  sseEvent(res, 'response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress' } });
  sseEvent(res, 'response.output_item.done', { output_index: 0, item });
  sseEvent(res, 'response.completed', {
    response: {
      id,
      status: 'completed',
      output: [item],
      usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
    },
  });
  res.end();
}
