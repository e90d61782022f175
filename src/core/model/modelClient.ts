// The agent's model connection: any OpenAI-compatible chat-completions endpoint through the `openai`
// package, which owns retries (429 with retry-after, 5xx, connection errors) and timeouts. This module builds
// the client and adds what the package leaves to callers: a key policy, the request, and one retry of a step
// whose stream was cut. Reading the answer is modelResponse.ts; turning failures into one clear message is
// modelErrors.ts.
import OpenAI from 'openai';
import { classify, ModelError } from './modelErrors';
import { accumulateStream, parseCompletion, type ModelAnswer } from './modelResponse';

export interface ModelConfig {
  baseURL: string;
  model: string;
  /** Missing keys are allowed only for loopback servers (Ollama, vLLM, LM Studio on this machine). */
  apiKey?: string | undefined;
  /** Per request; the package retries timed-out requests too. */
  timeoutMs?: number;
  maxRetries?: number;
  stream?: boolean;
  /** Sent with every request when set: what makes several candidates of one model differ (candidates.ts). */
  sampling?: Sampling;
}

/** OpenAI's `seed` and `temperature`; servers that ignore them still answer. */
export interface Sampling {
  seed?: number;
  temperature?: number;
}

export interface ModelTurn extends ModelAnswer {
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
  readonly sampling?: Sampling;
  complete(request: CompletionRequest): Promise<ModelTurn>;
}

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

function isLoopbackUrl(url: string): boolean {
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

  async function attempt(request: CompletionRequest): Promise<ModelAnswer> {
    const params = {
      model: config.model,
      messages: request.messages,
      ...(request.tools && request.tools.length > 0 ? { tools: request.tools } : {}),
      ...(request.responseFormat ? { response_format: request.responseFormat } : {}),
      ...(config.sampling?.seed !== undefined ? { seed: config.sampling.seed } : {}),
      ...(config.sampling?.temperature !== undefined ? { temperature: config.sampling.temperature } : {}),
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
    return accumulateStream(chunks, where);
  }

  return {
    model: config.model,
    baseURL: config.baseURL,
    ...(config.sampling ? { sampling: config.sampling } : {}),
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
