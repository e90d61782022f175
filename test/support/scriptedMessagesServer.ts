// A scripted Anthropic Messages API server on 127.0.0.1 for the real Claude Code CLI (ANTHROPIC_BASE_URL): real
// HTTP, the SSE stream the Messages API sends (message_start, content blocks with text or tool_use input deltas,
// message_delta with the stop reason, message_stop). The conversation whose first user message holds `marker`
// follows the script, turn by turn; any other request (a side query of the client) gets a short text answer and
// is recorded as such, so a test sees everything the client sent.
import type http from 'node:http';
import { type ModelServer, type ModelTurn, sseEvent, startJsonServer, startSse } from './modelTurns';

export interface MessagesRequestBody {
  model?: string;
  messages?: Array<{ role: string; content: unknown }>;
}

export async function startScriptedMessagesServer(marker: string, script: ModelTurn[]): Promise<ModelServer> {
  let counter = 0;
  return startJsonServer((url, body, res) => {
    if (!/^POST \/v1\/messages(\?|$)/.test(url)) return undefined;
    const request = (body ?? {}) as MessagesRequestBody;
    const messages = request.messages ?? [];
    counter += 1;
    const id = `msg_scripted_${counter}`;
    if (!JSON.stringify(messages[0] ?? '').includes(marker)) {
      stream(res, id, request.model, { text: 'ok' });
      return 'side';
    }
    const index = messages.filter((m) => m.role === 'assistant').length;
    const turn = script[index];
    stream(res, id, request.model, turn ?? { text: 'script exhausted' });
    return turn === undefined ? -1 : index;
  }, '');
}

function stream(res: http.ServerResponse, id: string, model: string | undefined, turn: ModelTurn): void {
  startSse(res);
  sseEvent(res, 'message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: model ?? 'scripted',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 0 },
    },
  });
  if ('text' in turn) {
    sseEvent(res, 'content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    sseEvent(res, 'content_block_delta', { index: 0, delta: { type: 'text_delta', text: turn.text } });
  } else if ('tool' in turn) {
    sseEvent(res, 'content_block_start', {
      index: 0,
      content_block: { type: 'tool_use', id: `toolu_${id}`, name: turn.tool, input: {} },
    });
    sseEvent(res, 'content_block_delta', {
      index: 0,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(turn.input) },
    });
  } else {
    throw new Error('the Messages API has no freeform patch tool: script an Edit or Write instead');
  }
  sseEvent(res, 'content_block_stop', { index: 0 });
  sseEvent(res, 'message_delta', {
    delta: { stop_reason: 'text' in turn ? 'end_turn' : 'tool_use', stop_sequence: null },
    usage: { output_tokens: 1 },
  });
  sseEvent(res, 'message_stop', {});
  res.end();
}
