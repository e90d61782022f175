// The model connection's failures, as the user should read them: every error the `openai` package or the
// transport throws (HTTP statuses, connection and timeout errors, a body cut mid-stream, an abort) is mapped
// to one ModelError with a kind the callers branch on and a one-line message that says what to check.
import OpenAI from 'openai';

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

/** The server and model a failure is about, for its message. */
export interface ModelEndpoint {
  baseURL: string;
  model: string;
}

/** Maps whatever the package or the transport threw to one clear ModelError. */
export function classify(error: unknown, where: ModelEndpoint, midStream: boolean): ModelError {
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

/** The first errno-style code (ECONNREFUSED, ENOTFOUND …) along an error's cause chain. */
export function causeCode(error: unknown): string | undefined {
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
