// The one list of a spec's verdicts (README "Verdicts"): the check engine's Verdict type, the run store's reading
// of stored runs, the task format's schema and the webview protocol all take it from here. It lives in src/shared
// because the webview, which imports nothing of the core, checks verdicts too.
export const VERDICTS = [
  'pass',
  'fail',
  'error',
  'blocked',
  'skipped',
  'flaky',
  'tampered',
  'unverified',
] as const;

/**
 * A single spec's verdict in one run (see README "Verdicts"). `flaky`: verdicts differed between repeats.
 * `tampered`: during a contained run a protected file (a spec test, .weave/**, a test-support file) changed,
 * appeared or vanished, a results file did not verify, or code under test replaced a runner or assertion
 * function. `unverified`: a contained run (agent or prediction code) that would pass but has no signed runner
 * results to show for it (only a printed summary or the exit code). Both count as failing, never fixed, never
 * resolved, never applied.
 */
export type Verdict = (typeof VERDICTS)[number];
