// What a piece of code writes to this process's stderr, for tests of messages the CLI prints.

function captureStderr(): { text: () => string; restore: () => void } {
  let stderr = '';
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += chunk.toString();
    return true;
  }) as typeof process.stderr.write;
  return { text: () => stderr, restore: () => (process.stderr.write = write) };
}

/** What `fn` writes to stderr, and what it returns. */
export function stderrOf<T>(fn: () => T): { stderr: string; value: T } {
  const capture = captureStderr();
  try {
    const value = fn();
    return { stderr: capture.text(), value };
  } finally {
    capture.restore();
  }
}

/** The same for an async `fn`: stderr is captured until its promise settles. */
export async function stderrOfAsync<T>(fn: () => Promise<T>): Promise<{ stderr: string; value: T }> {
  const capture = captureStderr();
  try {
    const value = await fn();
    return { stderr: capture.text(), value };
  } finally {
    capture.restore();
  }
}
