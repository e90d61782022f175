// Bounded capture of a command's output: the first `headBytes` and the last `tailBytes` are kept, everything
// in between is counted and dropped. A test that floods 100 MB therefore costs at most head + tail of memory,
// and both ends survive: the head shows how the run started, the tail holds the runner's closing summary.

export interface CapturedOutput {
  text: string;
  /** Bytes dropped between head and tail. */
  truncatedBytes: number;
  totalBytes: number;
}

export class OutputCapture {
  private readonly head: Buffer[] = [];
  private headLength = 0;
  private tail: Buffer[] = [];
  private tailLength = 0;
  private dropped = 0;

  constructor(
    private readonly headBytes: number,
    private readonly tailBytes: number,
  ) {}

  push(chunk: Buffer): void {
    let rest = chunk;
    if (this.headLength < this.headBytes) {
      const take = Math.min(this.headBytes - this.headLength, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headLength += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    // Copy: the tail outlives the stream's chunk, and a subarray would pin the whole chunk in memory.
    this.tail.push(Buffer.from(rest));
    this.tailLength += rest.length;
    while (this.tailLength > this.tailBytes && this.tail.length > 0) {
      const first = this.tail[0] as Buffer;
      const excess = this.tailLength - this.tailBytes;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailLength -= first.length;
        this.dropped += first.length;
      } else {
        this.tail[0] = Buffer.from(first.subarray(excess));
        this.tailLength -= excess;
        this.dropped += excess;
      }
    }
  }

  result(): CapturedOutput {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    const marker = this.dropped > 0 ? `\n… [${this.dropped} bytes of output omitted] …\n` : '';
    return {
      text: head + marker + tail,
      truncatedBytes: this.dropped,
      totalBytes: this.headLength + this.tailLength + this.dropped,
    };
  }
}

/** Shortens already-captured text to at most `maxChars` (head and tail halves), for stored run excerpts. */
export function excerpt(text: string, maxChars: number): { text: string; droppedChars: number } {
  if (text.length <= maxChars) return { text, droppedChars: 0 };
  const half = Math.floor(maxChars / 2);
  const dropped = text.length - 2 * half;
  return {
    text: `${text.slice(0, half)}\n… [${dropped} characters omitted] …\n${text.slice(text.length - half)}`,
    droppedChars: dropped,
  };
}
