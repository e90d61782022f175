// Runs the built CLI (dist/cli.js) as a real process and collects what it printed.
import { execFile } from 'node:child_process';
import { CLI } from '../../support/paths';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], cwd: string): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A Node stack frame ("    at fn (file:1:2)") means an exception reached the user. */
export function hasStackTrace(output: string): boolean {
  return /^\s+at .+[:(]\d+/m.test(output) || /internal error/.test(output);
}

/** Runs `work` over `items` with at most `limit` at a time (spawning dozens of CLIs at once starves a busy CI box). */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
