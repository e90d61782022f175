// The one way tests wait for something another process or the extension host does: poll a probe until it yields,
// or fail with what was awaited. No fixed sleeps as synchronisation; the interval only bounds how often we look.

export interface PollOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

/** Resolves with the probe's first value that is neither `undefined` nor `false`; throws after the timeout. */
export async function until<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  options: PollOptions | number = {},
): Promise<T> {
  const { timeoutMs = 30_000, intervalMs = 50 } =
    typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Whether `condition` comes to hold within the timeout (for tests that assert it does, or that it never does). */
export async function holdsWithin(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return condition();
}
