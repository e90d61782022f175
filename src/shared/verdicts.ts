// The one list of a spec's verdicts (README "Verdicts"): the check engine's Verdict type, the run store's reading
// of stored runs, the task format's schema and the webview protocol all take it from here. It lives in src/shared
// because the webview, which imports nothing of the core, checks verdicts too.
export const VERDICTS = ['pass', 'fail', 'error', 'blocked', 'skipped', 'flaky', 'tampered'] as const;

/**
 * A single spec's verdict in one run (see README "Verdicts"). `flaky`: verdicts differed between repeats.
 * `tampered`: a protected file (a spec test, .weave/**, a test-support file) changed, appeared or vanished during
 * a contained run — counted as failing, never fixed, never resolved.
 */
export type Verdict = (typeof VERDICTS)[number];
