// Processes as the host sees them. In a PID namespace a test's own `$!` is not a host pid, so tests that must
// prove a process died look it up by a unique command line instead.
import { readdirSync, readFileSync } from 'node:fs';

/** Live (non-zombie) pids whose command line is exactly `commandLine`. */
export function processesRunning(commandLine: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      const state = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.[0];
      if (argv === commandLine && state !== 'Z') pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}
