// The stdio transport of `weave mcp`: newline-delimited JSON-RPC on stdin/stdout, as the MCP stdio transport
// specifies, written here instead of taking the SDK's StdioServerTransport because that one (1.32) drops what a
// client is owed: a line that is not JSON gets no answer (JSON-RPC says -32700), a line longer than its buffer
// closes the server with exit 0 and no error, and EOF right after the requests (`printf '…' | weave mcp`) ends
// the process before the answers are written. Here every line gets an answer or is a notification, an
// over-long line is refused with -32600 and skipped while serving goes on, and at EOF the transport closes only
// once every request read before it has been answered. `screen` lets the server answer a request itself
// (bad params) before the SDK sees it.
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  JSONRPCMessageSchema,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** The longest message accepted: Weave's requests are a few hundred bytes; 1 MiB leaves room for any client. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

export interface LineTransportOptions {
  maxMessageBytes?: number;
  /** An error answer for a request that must not reach the server (e.g. malformed params), or undefined. */
  screen?: (request: JSONRPCMessage & { id: RequestId; method: string }) => JSONRPCErrorResponse | undefined;
  /** Where refused lines are reported (stderr). */
  log?: (line: string) => void;
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly max: number;
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Skipping the rest of an over-long line (already answered) up to its newline. */
  private skipping = false;
  private readonly pending = new Set<RequestId>();
  private inputEnded = false;
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly options: LineTransportOptions = {},
  ) {
    this.max = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  }

  start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onInputError);
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    await this.write(message);
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      if (message.id !== undefined) this.pending.delete(message.id);
      this.closeIfDrained();
    }
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onInputError);
    this.input.pause();
    this.chunks = [];
    this.onclose?.();
    return Promise.resolve();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let newline = data.indexOf(0x0a); newline !== -1; newline = data.indexOf(0x0a)) {
      this.take(data.subarray(0, newline));
      if (this.skipping) this.skipping = false;
      else this.line(Buffer.concat(this.chunks).toString('utf8'));
      this.chunks = [];
      this.buffered = 0;
      data = data.subarray(newline + 1);
    }
    this.take(data);
  };

  private readonly onEnd = (): void => {
    // A last line without its newline is still a message.
    if (!this.skipping && this.buffered > 0) this.line(Buffer.concat(this.chunks).toString('utf8'));
    this.chunks = [];
    this.buffered = 0;
    this.inputEnded = true;
    this.closeIfDrained();
  };

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  /** Buffers part of the current line, refusing the line once it passes the limit. */
  private take(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    if (this.buffered + part.length > this.max) {
      this.chunks = [];
      this.buffered = 0;
      this.skipping = true;
      this.refuse(
        INVALID_REQUEST,
        `message longer than ${this.max} bytes: refused (send one JSON-RPC message per line)`,
      );
      return;
    }
    this.chunks.push(part);
    this.buffered += part.length;
  }

  private line(text: string): void {
    const trimmed = text.replace(/\r$/, '');
    if (trimmed.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch (error) {
      this.refuse(PARSE_ERROR, `Parse error: ${(error as Error).message}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      const id = idOf(json);
      // A malformed notification (no id) gets no answer, as JSON-RPC says; a malformed request does.
      if (id !== null || !hasMethod(json))
        this.refuse(INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message', id);
      return;
    }
    const message = parsed.data;
    if (isJSONRPCRequest(message)) {
      const refusal = this.options.screen?.(message);
      if (refusal) {
        this.options.log?.(`refused ${message.method}: ${refusal.error.message}`);
        void this.write(refusal);
        return;
      }
      this.pending.add(message.id);
    }
    this.onmessage?.(message);
    // A cancelled request is never answered (MCP says so): EOF must not wait for it.
    const cancelled = cancelledRequestOf(message);
    if (cancelled !== undefined && this.pending.delete(cancelled)) this.closeIfDrained();
  }

  private refuse(code: number, message: string, id: RequestId | null = null): void {
    this.options.log?.(message);
    // JSON-RPC answers an unidentifiable request with id null (the SDK's types insist on an id, hence the cast).
    void this.write({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  private write(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', () => resolve());
    });
  }

  private closeIfDrained(): void {
    if (this.inputEnded && this.pending.size === 0) void this.close();
  }
}

function idOf(json: unknown): RequestId | null {
  if (json === null || typeof json !== 'object' || !('id' in json)) return null;
  const id = (json as { id: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function cancelledRequestOf(message: JSONRPCMessage): RequestId | undefined {
  if (!('method' in message) || message.method !== 'notifications/cancelled' || 'id' in message)
    return undefined;
  const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof requestId === 'string' || typeof requestId === 'number' ? requestId : undefined;
}

function hasMethod(json: unknown): boolean {
  return json !== null && typeof json === 'object' && 'method' in json;
}
