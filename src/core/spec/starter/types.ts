/** What `weave init` found out about how a project runs its tests. */
export interface DetectedRunner {
  /** e.g. 'node:test', 'vitest', 'pytest', 'unittest'; 'unknown' when nothing was recognised. */
  runner: string;
  command: string;
  /** Why this runner was chosen, for the user (e.g. "vitest in package.json devDependencies"). */
  reason: string;
  /** Environment the tests need (e.g. PYTHONPATH=src for a src layout). */
  env?: Record<string, string>;
  /** Lines for the starter's comment: what the command changes from the project's own configuration, and why. */
  notes?: string[];
  /** Test files found in the project, workspace-relative with forward slashes. */
  testFiles?: string[];
  /** Test files that measure wall-clock time (timing-sensitive: the starter says so, `kind: performance`). */
  timingSensitive?: string[];
  /** The command that runs one test file (or folder), when the runner can (a split suite, `--per-file`). */
  commandForFile?: (file: string) => string;
}
