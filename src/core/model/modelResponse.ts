// Reading a chat-completions answer, in both of the protocol's shapes: a whole completion validated with zod
// (a server that is not OpenAI-compatible gets a clear 'bad-response'), or a stream whose content and tool
// calls are accumulated from deltas (a stream that stops before its finish reason is 'stream-cut', which the
// client retries once).
import type OpenAI from 'openai';
import { z } from 'zod';
import { classify, ModelError, type ModelEndpoint } from './modelErrors';

export interface ToolCall {
  id: string;
  name: string;
  /** Raw JSON text as the model wrote it; validated by the tool, not here. */
  arguments: string;
}

export interface ModelUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** What one request brings back, before the client adds its timing and retry facts (ModelTurn). */
export interface ModelAnswer {
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: string | null;
  usage: ModelUsage;
}

const completionSchema = z.object({
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                id: z.string(),
                type: z.string().optional(),
                function: z.object({ name: z.string(), arguments: z.string() }),
              }),
            )
            .nullish(),
        }),
      }),
    )
    .min(1),
  usage: z
    .object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() })
    .nullish(),
});

export function parseCompletion(completion: unknown, where: ModelEndpoint): ModelAnswer {
  const parsed = completionSchema.safeParse(completion);
  if (!parsed.success) {
    throw new ModelError(
      'bad-response',
      `The server at ${where.baseURL} answered with something that is not a chat completion ` +
        `(${describeValue(completion)}); is it an OpenAI-compatible endpoint?`,
    );
  }
  const choice = parsed.data.choices[0]!;
  const usage = parsed.data.usage;
  return {
    content: choice.message.content ?? null,
    toolCalls: (choice.message.tool_calls ?? []).map((c) => ({
      id: c.id,
      name: c.function.name,
      arguments: c.function.arguments,
    })),
    finishReason: choice.finish_reason ?? null,
    usage: usage
      ? {
          promptTokens: usage.prompt_tokens,
          completionTokens: usage.completion_tokens,
          totalTokens: usage.total_tokens,
        }
      : { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  };
}

export async function accumulateStream(
  chunks: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>,
  where: ModelEndpoint,
): Promise<ModelAnswer> {
  let content = '';
  let sawContent = false;
  let finishReason: string | null = null;
  let usage: ModelUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  let sawChoice = false;
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  try {
    for await (const chunk of chunks) {
      if (chunk.usage) {
        usage = {
          promptTokens: chunk.usage.prompt_tokens,
          completionTokens: chunk.usage.completion_tokens,
          totalTokens: chunk.usage.total_tokens,
        };
      }
      for (const choice of chunk.choices ?? []) {
        sawChoice = true;
        const delta = choice.delta ?? {};
        if (typeof delta.content === 'string') {
          content += delta.content;
          sawContent = true;
        }
        for (const part of delta.tool_calls ?? []) {
          const call = calls.get(part.index) ?? { id: '', name: '', arguments: '' };
          if (part.id) call.id = part.id;
          if (part.function?.name) call.name += part.function.name;
          if (part.function?.arguments) call.arguments += part.function.arguments;
          calls.set(part.index, call);
        }
        if (choice.finish_reason) finishReason = choice.finish_reason;
      }
    }
  } catch (error) {
    throw classify(error, where, true);
  }
  if (!sawChoice) {
    throw new ModelError(
      'bad-response',
      `The server at ${where.baseURL} sent a stream without any completion in it; is it an OpenAI-compatible endpoint?`,
    );
  }
  if (finishReason === null) {
    // The stream ended cleanly at the transport level but never finished the message: treat it as cut.
    throw new ModelError(
      'stream-cut',
      `The model's answer stream from ${where.baseURL} stopped before it finished.`,
    );
  }
  return {
    content: sawContent ? content : null,
    toolCalls: [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => ({ id: c.id || `call_${index}`, name: c.name, arguments: c.arguments })),
    finishReason,
    usage,
  };
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return `text starting ${JSON.stringify(value.slice(0, 40))}`;
  if (value === null || value === undefined) return 'an empty body';
  return `JSON without 'choices'`;
}
