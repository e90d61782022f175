// The agent's model connection: any OpenAI-compatible chat-completions endpoint through the `openai`
// package, which owns retries (429 with retry-after, 5xx, connection errors) and timeouts. This module adds
// what the package leaves to callers: a key policy, one clear message per failure, streaming with tool
// calls accumulated from deltas, one retry of a step whose stream was cut, and a validated result shape.
import OpenAI from 'openai';
import { z } from 'zod';

export interface ModelConfig {
  baseURL: string;
  model: string;
  /** Missing keys are allowed only for loopback servers (Ollama, vLLM, LM Studio on this machine). */
  apiKey?: string | undefined;
  /** Per request; the package retries timed-out requests too. */
  timeoutMs?: number;
  maxRetries?: number;
  stream?: boolean;
}

export type ModelErrorKind =
  | 'no-key'
  | 'bad-base-url'
  | 'auth'
  | 'unreachable'
  | 'unknown-model'
  | 'rate-limited'
  | 'server'
  | 'stream-cut'
  | 'bad-response'
  | 'timeout'
  | 'cancelled'
  | 'request';

/** A model failure the user can act on; `message` is the one line to show. */
export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

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

export interface ModelTurn {
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: string | null;
  usage: ModelUsage;
  durationMs: number;
  /** True when the step was retried after its stream was cut. */
  retriedAfterCut: boolean;
}

export type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
export type ToolSpec = OpenAI.Chat.Completions.ChatCompletionFunctionTool;
export type ResponseFormat = OpenAI.Chat.Completions.ChatCompletionCreateParams['response_format'];

export interface CompletionRequest {
  messages: ChatMessage[];
  tools?: ToolSpec[];
  responseFormat?: ResponseFormat;
  signal?: AbortSignal;
}

export interface ModelClient {
  readonly model: string;
  readonly baseURL: string;
  complete(request: CompletionRequest): Promise<ModelTurn>;
}

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export function createModelClient(config: ModelConfig): ModelClient {
  try {
    const parsed = new URL(config.baseURL);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new ModelError('bad-base-url', `The model base URL '${config.baseURL}' is not an http(s) URL.`);
  }
  const key = config.apiKey?.trim();
  if (!key && !isLoopbackUrl(config.baseURL)) {
    throw new ModelError(
      'no-key',
      `No API key for ${config.baseURL}: set OPENAI_API_KEY (or WEAVE_API_KEY); only a server on this machine ` +
        `(localhost / 127.0.0.1) may be used without a key.`,
    );
  }
  const client = new OpenAI({
    baseURL: config.baseURL,
    // Loopback servers usually ignore the key, but the package insists on one.
    apiKey: key || 'no-key',
    timeout: config.timeoutMs ?? 120_000,
    maxRetries: config.maxRetries ?? 3,
  });
  const stream = config.stream ?? true;
  const where = { baseURL: config.baseURL, model: config.model };

  async function attempt(
    request: CompletionRequest,
  ): Promise<Omit<ModelTurn, 'retriedAfterCut' | 'durationMs'>> {
    const params = {
      model: config.model,
      messages: request.messages,
      ...(request.tools && request.tools.length > 0 ? { tools: request.tools } : {}),
      ...(request.responseFormat ? { response_format: request.responseFormat } : {}),
    };
    const options = request.signal ? { signal: request.signal } : {};
    if (!stream) {
      let completion: unknown;
      try {
        completion = await client.chat.completions.create({ ...params, stream: false }, options);
      } catch (error) {
        throw classify(error, where, false);
      }
      return parseCompletion(completion, where);
    }
    let chunks: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>;
    try {
      chunks = await client.chat.completions.create(
        { ...params, stream: true, stream_options: { include_usage: true } },
        options,
      );
    } catch (error) {
      throw classify(error, where, false);
    }
    return accumulate(chunks, where);
  }

  return {
    model: config.model,
    baseURL: config.baseURL,
    async complete(request) {
      const started = performance.now();
      try {
        const turn = await attempt(request);
        return { ...turn, durationMs: performance.now() - started, retriedAfterCut: false };
      } catch (error) {
        // A cut stream is retried once: the request was complete, only the answer was lost.
        if (!(error instanceof ModelError) || error.kind !== 'stream-cut') throw error;
        const turn = await attempt(request);
        return { ...turn, durationMs: performance.now() - started, retriedAfterCut: true };
      }
    },
  };
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

function parseCompletion(
  completion: unknown,
  where: { baseURL: string; model: string },
): Omit<ModelTurn, 'retriedAfterCut' | 'durationMs'> {
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

async function accumulate(
  chunks: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>,
  where: { baseURL: string; model: string },
): Promise<Omit<ModelTurn, 'retriedAfterCut' | 'durationMs'>> {
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

/** Maps whatever the package or the transport threw to one clear ModelError. */
export function classify(
  error: unknown,
  where: { baseURL: string; model: string },
  midStream: boolean,
): ModelError {
  if (error instanceof ModelError) return error;
  if (error instanceof OpenAI.APIUserAbortError || (error instanceof Error && error.name === 'AbortError')) {
    return new ModelError('cancelled', 'The model request was cancelled.');
  }
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new ModelError(
      'timeout',
      `The model server at ${where.baseURL} did not answer in time (after retries).`,
    );
  }
  if (error instanceof OpenAI.APIConnectionError) {
    if (midStream) return streamCut(where);
    const code = causeCode(error);
    return new ModelError(
      'unreachable',
      `Cannot reach the model server at ${where.baseURL}${code ? ` (${code})` : ''}: is it running, and is the base URL right?`,
    );
  }
  if (error instanceof OpenAI.AuthenticationError || error instanceof OpenAI.PermissionDeniedError) {
    return new ModelError(
      'auth',
      `The model server at ${where.baseURL} rejected the API key (HTTP ${error.status}): check OPENAI_API_KEY / WEAVE_API_KEY.`,
    );
  }
  if (error instanceof OpenAI.NotFoundError) {
    return new ModelError(
      'unknown-model',
      `The model '${where.model}' was not found at ${where.baseURL} (HTTP 404): check --model and --base-url.`,
    );
  }
  if (error instanceof OpenAI.RateLimitError) {
    return new ModelError(
      'rate-limited',
      `The model server at ${where.baseURL} kept rate-limiting (HTTP 429) after retries.`,
    );
  }
  if (error instanceof OpenAI.InternalServerError) {
    return new ModelError(
      'server',
      `The model server at ${where.baseURL} failed (HTTP ${error.status}) after retries.`,
    );
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    return new ModelError(
      'request',
      `The model server at ${where.baseURL} refused the request (HTTP ${error.status}): ${firstLine(error.message)}`,
    );
  }
  // undici reports a body cut off after the headers as `TypeError: terminated` (cause UND_ERR_SOCKET).
  if (midStream || (error instanceof TypeError && error.message === 'terminated')) return streamCut(where);
  if (error instanceof SyntaxError) {
    return new ModelError(
      'bad-response',
      `The server at ${where.baseURL} answered with something that is not JSON; is it an OpenAI-compatible endpoint?`,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelError('request', `The model request to ${where.baseURL} failed: ${firstLine(message)}`);
}

function streamCut(where: { baseURL: string }): ModelError {
  return new ModelError(
    'stream-cut',
    `The model's answer stream from ${where.baseURL} was cut off mid-way (after one retry).`,
  );
}

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.slice(0, 300);
}
