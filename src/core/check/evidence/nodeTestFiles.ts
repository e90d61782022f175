// node:test under `node --test` learns each test file's results from that file's process, through the file
// process's stdout: code under test in the file's process can rewrite them there (a `test:fail` re-serialised
// as `test:pass`, the exit code set to 0). The hook in each file's process therefore also signs what its own
// runner emitted before serialising (its `test:summary` counts, with the file's key), and this compares them
// with the main process's run: more failures in the files than in the run, or more passes in the run than the
// files reported, means the results were rewritten on the way.
import type { TestSummary } from '../types';
import type { VerifiedRecord } from './records';

/** What the file processes of `node --test` reported about themselves (child-key `completed` records). */
export interface FileCounts {
  passed: number;
  failed: number;
  /** Every file process that reported it finished also reported its counts. */
  complete: boolean;
}

/** The node:test counts signed by test files' own processes, or undefined when none reported any. */
export function nodeTestFileCounts(completions: readonly VerifiedRecord[]): FileCounts | undefined {
  let passed = 0;
  let failed = 0;
  let reported = 0;
  let finished = 0;
  for (const record of completions) {
    if (record.runKey || record.runner !== 'node:test') continue;
    finished++;
    const run = record.runs?.[0];
    if (typeof run !== 'object' || run === null) continue;
    const counts = run as Record<string, unknown>;
    if (typeof counts.passed !== 'number' || typeof counts.failed !== 'number') continue;
    passed += counts.passed;
    failed += counts.failed;
    reported++;
  }
  return reported === 0 ? undefined : { passed, failed, complete: reported === finished };
}

/** Why the main process's node:test counts cannot be what the test files ran, or undefined when they agree. */
export function nodeTestDisagreement(runs: readonly TestSummary[], files: FileCounts): string | undefined {
  const main = runs.filter((run) => run.runner === 'node:test');
  if (main.length === 0) return undefined;
  const failed = main.reduce((sum, run) => sum + run.failed, 0);
  const passed = main.reduce((sum, run) => sum + run.passed, 0);
  if (files.failed > failed)
    return `node:test's test files failed ${files.failed} test(s) in their own processes, but the runner read ${failed} failure(s) from their output (rewritten on the way)`;
  if (files.complete && passed > files.passed)
    return `node:test's runner read ${passed} passing test(s) from the test files' output, but their own processes passed ${files.passed} (rewritten on the way)`;
  return undefined;
}
