// A webview's requests to the extension, matched to their replies by request id. Every request settles exactly
// once: with its reply, or rejected when the reply carries an error, when no reply comes in time (the extension
// logs and drops a message its schema refuses, so silence is a real outcome), or when the view goes away. The
// caller shows the rejection; nothing waits forever. DOM-free, so it is unit-tested in plain Node.

/** What every reply has: its kind, the id of the request it answers and, on failure, why. */
export interface Reply {
  type: string;
  requestId: number;
  error?: string | undefined;
}

/**
 * Long enough for the first symbol search (it builds the workspace's tree-sitter index) and for a save that runs
 * the editor's save participants; an answer later than this is not coming.
 */
export const REPLY_TIMEOUT_MS = 60_000;

interface Waiting<R> {
  expected: string;
  resolve: (reply: R) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

export class PendingRequests<R extends Reply> {
  private nextRequestId = 1;
  private readonly waiting = new Map<number, Waiting<R>>();

  /** Sends a request (`send` posts it with the id given) and waits for the reply of type `expected`. */
  request<K extends R['type']>(
    expected: K,
    send: (requestId: number) => void,
    timeoutMs = REPLY_TIMEOUT_MS,
  ): Promise<Extract<R, { type: K }>> {
    const requestId = this.nextRequestId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => this.fail(requestId, `no answer from the extension within ${Math.round(timeoutMs / 1000)} s`),
        timeoutMs,
      );
      this.waiting.set(requestId, {
        expected,
        resolve: resolve as (reply: R) => void,
        reject,
        timer,
      });
      try {
        send(requestId);
      } catch (e) {
        this.fail(requestId, e instanceof Error ? e.message : String(e));
      }
    });
  }

  /** Hands a reply to its request. False when none waits for it (already answered, timed out, or unknown). */
  settle(reply: R): boolean {
    const waiting = this.take(reply.requestId);
    if (!waiting) return false;
    if (reply.type !== waiting.expected)
      waiting.reject(new Error(`expected a ${waiting.expected} reply, got ${reply.type}`));
    else if (reply.error !== undefined) waiting.reject(new Error(reply.error));
    else waiting.resolve(reply);
    return true;
  }

  /** Rejects every request still waiting: the view is going away and no reply can reach it. */
  rejectAll(reason: string): void {
    for (const requestId of [...this.waiting.keys()]) this.fail(requestId, reason);
  }

  /** How many requests wait for a reply. */
  get size(): number {
    return this.waiting.size;
  }

  private fail(requestId: number, reason: string): void {
    this.take(requestId)?.reject(new Error(reason));
  }

  private take(requestId: number): Waiting<R> | undefined {
    const waiting = this.waiting.get(requestId);
    if (!waiting) return undefined;
    clearTimeout(waiting.timer);
    this.waiting.delete(requestId);
    return waiting;
  }
}

/** The message of a rejected request, for the panel to show. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
