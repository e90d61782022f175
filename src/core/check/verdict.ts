// Turns what happened to a spec's test command into a verdict, a reason a person can act on, and what the
// verdict rests on (its evidence). Rules, in order: cancelled → skipped; could not start / timed out / killed by
// a signal / command not found → error. Then what the tests said: the runner's own results when Weave's hook
// received them (evidence `runner`), else the summaries read in the output (`summary`):
//   a failed test (in the runner's results OR anywhere in the output) → fail, whatever the exit code;
//   tests that could not even be loaded and none ran → error "0 tests ran: collection error";
//   zero tests ran (a listing, a dry run, everything skipped) → error "ran no test", whatever the exit code.
// Otherwise exit 0 → pass, any other exit code → fail. With nothing recognised (`exit-code`), the exit code
// alone decides, and a pass says "unverified: no test result seen".
import type { CommandOutcome } from '../process/runCommand';
import { ranNoTest, summarize } from './summary';
import type { Evidence, TestSummary, Verdict } from './types';

export interface VerdictWithReason {
  verdict: Verdict;
  reason?: string;
  evidence: Evidence;
  summary?: TestSummary;
}

export const UNVERIFIED_PASS = 'unverified: no test result seen';
export const UNFINISHED_RUNNER =
  'the test runner did not finish: the process exited before it reported completion';

/**
 * `runnerResults`: what the runners inside the command reported through Weave's hooks, if any did;
 * `unfinishedRunners`: those that reported they started and never that they finished.
 */
export function verdictOf(
  outcome: CommandOutcome,
  timeoutMs: number,
  runnerResults?: TestSummary,
  unfinishedRunners: readonly string[] = [],
): VerdictWithReason {
  const unseen = { evidence: 'exit-code' } as const;
  const stopped = stoppedBeforeResults(outcome, timeoutMs);
  if (stopped) return { ...stopped, ...unseen };
  const printed = summarize(outcome.output);
  const summary = runnerResults ?? printed;
  const seen: Seen = summary ? { evidence: runnerResults ? 'runner' : 'summary', summary } : unseen;
  const broken = processFailure(outcome);
  if (broken) return { ...broken, ...seen };
  if (unfinishedRunners.length > 0) {
    // What the runner itself reported (that it started, never that it finished) is what this rests on.
    return {
      verdict: 'error',
      reason: `${UNFINISHED_RUNNER} (${unfinishedRunners.join(', ')})`,
      evidence: 'runner',
      ...(summary ? { summary } : {}),
    };
  }
  if (!summary) {
    if (outcome.exitCode === 0) return { verdict: 'pass', reason: UNVERIFIED_PASS, ...unseen };
    return { verdict: 'fail', reason: `exit code ${outcome.exitCode}`, ...unseen };
  }
  return { ...whatTheTestsSaid(outcome, summary, printed), ...seen };
}

type Seen = Pick<VerdictWithReason, 'evidence' | 'summary'>;
type Decided = Pick<VerdictWithReason, 'verdict' | 'reason'>;

/** Runs that produced no result worth reading: cancelled, never started, timed out. */
function stoppedBeforeResults(outcome: CommandOutcome, timeoutMs: number): Decided | undefined {
  if (outcome.cancelled) return { verdict: 'skipped', reason: 'cancelled' };
  if (outcome.spawnError !== undefined) return { verdict: 'error', reason: outcome.spawnError };
  if (outcome.timedOut) return { verdict: 'error', reason: `timed out after ${formatSeconds(timeoutMs)}` };
  return undefined;
}

/** The process itself failed (a signal, command not found or not executable), whatever its output says. */
function processFailure(outcome: CommandOutcome): Decided | undefined {
  if (outcome.exitCode === null)
    return { verdict: 'error', reason: `killed by ${outcome.signal ?? 'a signal'}` };
  if (outcome.exitCode === 127)
    return { verdict: 'error', reason: `command not found (exit 127)${lastLineHint(outcome.output)}` };
  if (outcome.exitCode === 126)
    return { verdict: 'error', reason: `command not executable (exit 126)${lastLineHint(outcome.output)}` };
  return undefined;
}

/** The verdict from the tests' results (`summary`: the runner's, else the printed one). */
function whatTheTestsSaid(
  outcome: CommandOutcome,
  summary: TestSummary,
  printed: TestSummary | undefined,
): Decided {
  // The runner's results win, but a failure printed by a run the hooks did not see (another runner, a tool
  // that replaced PYTHONPATH) still counts: evidence may only make a verdict stricter.
  const failing = summary.failed > 0 ? summary : printed && printed.failed > 0 ? printed : undefined;
  if (failing) {
    const why =
      outcome.exitCode === 0
        ? `${tally(failing)}, although the command exited 0`
        : `exit code ${outcome.exitCode}: ${tally(failing)}`;
    return { verdict: 'fail', reason: why };
  }
  if ((summary.collectionErrors ?? 0) > 0) {
    const errors = `${summary.collectionErrors} test file${summary.collectionErrors === 1 ? '' : 's'} could not be loaded (${summary.runner})`;
    if (ranNoTest(summary)) return { verdict: 'error', reason: `0 tests ran: collection error, ${errors}` };
    return { verdict: 'fail', reason: `collection error: ${errors}` };
  }
  if (ranNoTest(summary)) {
    const skipped = summary.skipped > 0 ? `, ${summary.skipped} skipped` : '';
    const what = summary.listing ? ', the tests were only listed or dry-run' : '';
    return {
      verdict: 'error',
      reason: `ran no test (${summary.runner}: 0 passed, 0 failed${skipped}${what})`,
    };
  }
  if (outcome.exitCode === 0) return { verdict: 'pass' };
  return {
    verdict: 'fail',
    reason: `exit code ${outcome.exitCode}: ${summary.passed} passed (${summary.runner})`,
  };
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
