// Turns what happened to a spec's test command into a verdict and a reason a person can act on.
// Rules, in order: could not start / cancelled / timed out / killed by a signal / command not found → error
// (cancelled → skipped); a recognised summary saying zero tests ran → error "ran no test" whatever the exit
// code; exit 0 → pass unless the summary reports failed tests; any other exit code → fail. When no summary is
// recognised, the exit code alone decides.
import type { CommandOutcome } from '../process/runCommand';
import { ranNoTest, summarize } from './summary';
import type { TestSummary, Verdict } from './types';

export interface VerdictWithReason {
  verdict: Verdict;
  reason?: string;
  summary?: TestSummary;
}

export function verdictOf(outcome: CommandOutcome, timeoutMs: number): VerdictWithReason {
  if (outcome.cancelled) return { verdict: 'skipped', reason: 'cancelled' };
  if (outcome.spawnError !== undefined) return { verdict: 'error', reason: outcome.spawnError };
  if (outcome.timedOut) return { verdict: 'error', reason: `timed out after ${formatSeconds(timeoutMs)}` };
  const summary = summarize(outcome.output);
  const withSummary = summary ? { summary } : {};
  if (outcome.exitCode === null) {
    return { verdict: 'error', reason: `killed by ${outcome.signal ?? 'a signal'}`, ...withSummary };
  }
  if (outcome.exitCode === 127) {
    return {
      verdict: 'error',
      reason: `command not found (exit 127)${lastLineHint(outcome.output)}`,
      ...withSummary,
    };
  }
  if (outcome.exitCode === 126) {
    return {
      verdict: 'error',
      reason: `command not executable (exit 126)${lastLineHint(outcome.output)}`,
      ...withSummary,
    };
  }
  if (summary && ranNoTest(summary)) {
    const skipped = summary.skipped > 0 ? `, ${summary.skipped} skipped` : '';
    return {
      verdict: 'error',
      reason: `ran no test (${summary.runner}: 0 passed, 0 failed${skipped})`,
      summary,
    };
  }
  if (outcome.exitCode === 0) {
    if (summary && summary.failed > 0) {
      return { verdict: 'fail', reason: `${tally(summary)}, although the command exited 0`, summary };
    }
    return { verdict: 'pass', ...withSummary };
  }
  const detail = summary ? `: ${tally(summary)}` : '';
  return { verdict: 'fail', reason: `exit code ${outcome.exitCode}${detail}`, ...withSummary };
}

function tally(summary: TestSummary): string {
  const total = summary.passed + summary.failed;
  return `${summary.failed} of ${total} test${total === 1 ? '' : 's'} failed (${summary.runner})`;
}

export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/** The shell's own message ("sh: 1: foo: not found") is the clearest explanation there is. */
function lastLineHint(output: string): string {
  const line = output
    .trim()
    .split('\n')
    .reverse()
    .find((l) => /not found|No such file|Permission denied|not recognized/i.test(l));
  return line ? `: ${line.trim().slice(0, 200)}` : '';
}
