// Shapes shared by the runner, the run store, baselines, the CLI, the extension, the agent and export.
import type { SpecKind } from '../../shared/specSchema';
import type { Attempt } from '../../shared/attempts';
import type { Verdict } from '../../shared/verdicts';

/** A single spec's verdict in one run (the one list: src/shared/verdicts.ts). */
export type { Verdict };

const FAILING: ReadonlySet<Verdict> = new Set([
  'fail',
  'error',
  'blocked',
  'flaky',
  'tampered',
  'unverified',
]);

/** Whether a verdict fails a check (its exit code, the stop guard, the MCP answer): all but pass and skipped. */
export function isFailing(verdict: Verdict): boolean {
  return FAILING.has(verdict);
}

/** A spec's change against a baseline run. */
export type Change = 'broken' | 'fixed' | 'still-failing' | 'still-passing' | 'new' | 'other';

/** What a test runner said: its closing summary as printed, or its own results as Weave's hook received them. */
export interface TestSummary {
  runner:
    | 'node:test'
    | 'mocha'
    | 'vitest'
    | 'jest'
    | 'pytest'
    | 'unittest'
    | 'go test'
    | 'cargo test'
    | 'junit'
    | 'tap'
    | 'plain';
  passed: number;
  failed: number;
  skipped: number;
  /** Test files / modules that could not be loaded (pytest "error during collection", an import error). */
  collectionErrors?: number;
  /** The runner only listed or dry-ran the tests (`pytest --co`, `mocha --dry-run`, `cargo test --no-run`). */
  listing?: boolean;
}

/**
 * What a verdict rests on. `runner`: Weave received the test runner's own results (its hook in node:test,
 * mocha, jest, vitest or pytest); `summary`: a closing summary was read in the output; `exit-code`: nothing
 * recognised, the exit code alone decided (a pass on it says "unverified: no test result seen").
 */
export type Evidence = 'runner' | 'summary' | 'exit-code';

export interface SpecResult {
  id: string;
  kind: SpecKind;
  verdict: Verdict;
  /** Why, for error / blocked / skipped / flaky (e.g. "timed out after 60 s", "ran no test"). */
  reason?: string;
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  evidence: Evidence;
  /** The runner's own results when evidence is `runner`, else the summary read in the output. */
  summary?: TestSummary;
  /** Head and tail of stdout+stderr interleaved, capped; `truncatedBytes` says how much was dropped. */
  output: string;
  truncatedBytes: number;
  /** Verdicts of each repeat when --repeat N > 1. */
  repeats?: Verdict[];
  /** Not selected with --only, but run because a selected spec depends on it. */
  ranAsDependency?: boolean;
  /** Contained runs: false when the user opted out of the sandbox (with unsandboxedReason). */
  sandboxed?: boolean;
  /** For `tampered`: what was wrong with the runner evidence (a results file that did not verify, a replaced function). */
  evidenceTampering?: string[];
  /** For `tampered`: the protected files that differed (workspace-relative) and how. */
  tampered?: Array<{ path: string; change: 'changed' | 'created' | 'deleted' }>;
  /** Contained runs: what the code under test tried that the sandbox refused or contained (any makes it `tampered`). */
  attempts?: Attempt[];
  /** The verdict the test run itself gave before tampering overrode it. */
  verdictBeforeTampering?: Verdict;
}

export interface RunRecord {
  /** Sortable id, e.g. 2026-11-30T05-40-20-123Z-ab12 */
  id: string;
  startedAt: string;
  finishedAt: string;
  /** HEAD commit of the workspace's repository, or null outside git. */
  commit: string | null;
  /** True when `git status --porcelain` (ignoring .weave/runs) was empty. */
  clean: boolean;
  /** Ids run (all specs unless --only / --affected). */
  specIds: string[];
  results: SpecResult[];
}

/** SWE-bench `tests_status`-shaped comparison of a run against a baseline, keyed by spec id. */
export interface BaselineReport {
  baseline: { runId: string | null; commit: string | null; ref?: string } | null;
  FAIL_TO_PASS: string[];
  PASS_TO_PASS: string[];
  FAIL_TO_FAIL: string[];
  PASS_TO_FAIL: string[];
  changes: Record<string, Change>;
}
