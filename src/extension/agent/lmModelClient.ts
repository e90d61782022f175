// A model from VS Code's Language Model API (vscode.lm, e.g. Copilot's models) behind the agent core's
// ModelClient port, so the same loop, tools and review run on it. The chat-completions messages the core keeps
// are translated turn by turn; VS Code reports no token usage, so tokens are counted with countTokens.
import * as vscode from 'vscode';
import {
  ModelError,
  type ChatMessage,
  type CompletionRequest,
  type ModelClient,
  type ModelTurn,
} from '../../core/model';

export async function createLmModelClient(selector: vscode.LanguageModelChatSelector): Promise<ModelClient> {
  const [model] = await vscode.lm.selectChatModels(selector);
  if (!model) {
    throw new ModelError(
      'unknown-model',
      `No VS Code language model matches ${JSON.stringify(selector)}: is a model provider (e.g. Copilot) installed and signed in?`,
    );
  }
  return {
    model: `${model.vendor}/${model.id}`,
    baseURL: 'vscode.lm',
    async complete(request: CompletionRequest): Promise<ModelTurn> {
      const started = performance.now();
      const cancel = new vscode.CancellationTokenSource();
      const onAbort = (): void => cancel.cancel();
      request.signal?.addEventListener('abort', onAbort, { once: true });
      if (request.signal?.aborted) onAbort();
      try {
        const messages = toLmMessages(request.messages);
        const tools = (request.tools ?? []).map((t) => ({
          name: t.function.name,
          description: t.function.description ?? '',
          inputSchema: t.function.parameters ?? {},
        }));
        const response = await model.sendRequest(messages, tools.length ? { tools } : {}, cancel.token);
        let content = '';
        const toolCalls: ModelTurn['toolCalls'] = [];
        for await (const part of response.stream) {
          if (part instanceof vscode.LanguageModelTextPart) content += part.value;
          else if (part instanceof vscode.LanguageModelToolCallPart) {
            toolCalls.push({ id: part.callId, name: part.name, arguments: JSON.stringify(part.input) });
          }
        }
        const promptTokens = await countTokens(model, messages, cancel.token);
        const completionTokens = Math.ceil(
          (content.length + toolCalls.reduce((n, c) => n + c.arguments.length, 0)) / 4,
        );
        return {
          content: content || null,
          toolCalls,
          finishReason: toolCalls.length ? 'tool_calls' : 'stop',
          usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens },
          durationMs: performance.now() - started,
          retriedAfterCut: false,
        };
      } catch (error) {
        if (request.signal?.aborted) throw new ModelError('cancelled', 'The model request was cancelled.');
        if (error instanceof vscode.LanguageModelError) {
          throw new ModelError(
            error.code === 'NoPermissions' ? 'auth' : 'request',
            `VS Code language model: ${error.message}`,
          );
        }
        throw error;
      } finally {
        request.signal?.removeEventListener('abort', onAbort);
        cancel.dispose();
      }
    },
  };
}

async function countTokens(
  model: vscode.LanguageModelChat,
  messages: vscode.LanguageModelChatMessage[],
  token: vscode.CancellationToken,
): Promise<number> {
  let total = 0;
  for (const m of messages) total += await model.countTokens(m, token).then(undefined, () => 0);
  return total;
}

/** System prompts become the first user turn: the LM API has no system role. */
function toLmMessages(messages: ChatMessage[]): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  let pendingResults: vscode.LanguageModelToolResultPart[] = [];
  const flush = (): void => {
    if (pendingResults.length) out.push(vscode.LanguageModelChatMessage.User(pendingResults));
    pendingResults = [];
  };
  for (const m of messages) {
    if (m.role === 'tool') {
      pendingResults.push(
        new vscode.LanguageModelToolResultPart(m.tool_call_id, [
          new vscode.LanguageModelTextPart(textOf(m.content)),
        ]),
      );
      continue;
    }
    flush();
    if (m.role === 'assistant') {
      const parts: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> = [];
      const text = textOf(m.content);
      if (text) parts.push(new vscode.LanguageModelTextPart(text));
      for (const call of m.tool_calls ?? []) {
        if (call.type !== 'function') continue;
        parts.push(
          new vscode.LanguageModelToolCallPart(
            call.id,
            call.function.name,
            parseObject(call.function.arguments),
          ),
        );
      }
      out.push(vscode.LanguageModelChatMessage.Assistant(parts));
    } else {
      out.push(vscode.LanguageModelChatMessage.User(textOf(m.content)));
    }
  }
  flush();
  return out;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((p) => (typeof p === 'object' && p && 'text' in p ? String(p.text) : '')).join('');
  return '';
}

function parseObject(text: string): object {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : {};
  } catch {
    return {};
  }
}
