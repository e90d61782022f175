// What the Test Explorer runs reported, kept where the in-host tests can read it: VS Code gives extensions no
// read access to test results. A recorded run is the real TestRun, wrapped so that each verdict and coverage file
// it reports is also noted, and handed over when the run ends.
import type * as vscode from 'vscode';

export type TestState = 'passed' | 'failed' | 'errored' | 'skipped';

/** What the latest finished test run reported per spec id, and how many runs finished. */
export interface LastReported {
  finishedRuns: number;
  states: Map<string, TestState>;
  coverage: vscode.FileCoverage[];
  /** What the newest run that has not ended yet reported so far (the live verdicts of a running check). */
  inProgress: Map<string, TestState>;
}

export function emptyReport(): LastReported {
  return { finishedRuns: 0, states: new Map(), coverage: [], inProgress: new Map() };
}

/** The run, with its verdicts and coverage also noted in `into` when it ends. */
export function recordedRun(run: vscode.TestRun, into: LastReported): vscode.TestRun {
  const states = new Map<string, TestState>();
  into.inProgress = states;
  const coverage: vscode.FileCoverage[] = [];
  const note = (state: TestState) => (item: vscode.TestItem) => states.set(item.id, state);
  return {
    name: run.name,
    token: run.token,
    isPersisted: run.isPersisted,
    onDidDispose: run.onDidDispose,
    enqueued: (item) => run.enqueued(item),
    started: (item) => run.started(item),
    appendOutput: (output, location, item) => run.appendOutput(output, location, item),
    addCoverage: (file) => (coverage.push(file), run.addCoverage(file)),
    passed: (item, duration) => (note('passed')(item), run.passed(item, duration)),
    failed: (item, message, duration) => (note('failed')(item), run.failed(item, message, duration)),
    errored: (item, message, duration) => (note('errored')(item), run.errored(item, message, duration)),
    skipped: (item) => (note('skipped')(item), run.skipped(item)),
    end: () => {
      run.end();
      into.states = states;
      into.coverage = coverage;
      into.finishedRuns++;
    },
  };
}
