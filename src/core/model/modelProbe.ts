// Before an agent run checks every spec (minutes on a real project), one short request says whether the model
// server is there at all: a server that is down, a wrong port or a host that does not resolve fails here in about
// a second with the same words a failed model call uses, instead of after the whole "before" check. Any HTTP
// answer counts as reachable (401 / 404 are for the real request to explain: key, model, base URL).
import { causeCode, ModelError } from './modelErrors';

export const PROBE_TIMEOUT_MS = 1500;

/** Resolves when something answers HTTP at `baseURL`; throws ModelError('unreachable' | 'timeout' | 'cancelled'). */
export async function probeModelEndpoint(
  baseURL: string,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const url = `${baseURL.replace(/\/+$/, '')}/models`;
  const signals = [AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])];
  try {
    const response = await fetch(url, {
      method: 'GET',
      signal: AbortSignal.any(signals),
      redirect: 'manual',
    });
    // Only that it answered matters; the body is not read.
    await response.body?.cancel();
  } catch (error) {
    if (options.signal?.aborted) throw new ModelError('cancelled', 'The model request was cancelled.');
    if (error instanceof Error && error.name === 'TimeoutError')
      throw new ModelError(
        'timeout',
        `The model server at ${baseURL} did not answer within ${(timeoutMs / 1000).toFixed(1)} s: is it running, and is the base URL right?`,
      );
    const code = causeCode(error);
    throw new ModelError(
      'unreachable',
      `Cannot reach the model server at ${baseURL}${code ? ` (${code})` : ''}: is it running, and is the base URL right?`,
    );
  }
}
