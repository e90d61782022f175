// How a check shows in a TestRun: its specs wait as enqueued and start as the check starts their tests, each
// verdict is reported as its spec finishes (passed, failed or errored with the violation message at the spec's
// location, skipped) with the test's output, and again when the check ends (the final report may word a change the
// live one could not know); a cancelled check keeps what finished and skips the rest; a check that did not run
// (refused) marks every item instead. The same report for runs started from the Test Explorer, for checks started
// elsewhere and for the run restored from .weave/runs/, so they never disagree.
import * as vscode from 'vscode';
import { isViolation, type ChangesView, type SpecResult } from '../core/check';
import { testItemDescription, violationMessage } from './views/resultText';
import type { CheckAttempt, CheckOutcome } from './checks';
import type { CheckDiagnostics } from './diagnostics';
import type { FinishedSpec, ResultsStore } from './results';
import type { SpecTestTree } from './testTree';

/** What reporting needs beside the run: the tree's items, the diagnostics' locations, the failure excerpt size. */
export interface ReportContext {
  tree: SpecTestTree;
  diagnostics: CheckDiagnostics;
  failureLines: number;
  /** A spec's title in the spec file (for a verdict that arrives before its check's outcome). */
  titleOf: (id: string) => string;
}

/** A TestRun following a check: which specs' outputs it has shown already (each shown once). */
export interface FollowedRun extends vscode.Disposable {
  readonly shown: Set<string>;
}

/**
 * Items wait as enqueued, turn to started when their test does (the check's live activity), and show their
 * verdict as each spec finishes.
 */
export function followActivity(
  run: vscode.TestRun,
  items: vscode.TestItem[],
  results: ResultsStore,
  context: ReportContext,
): FollowedRun {
  for (const item of items) run.enqueued(item);
  const started = new Set<string>();
  const shown = new Set<string>();
  const onActivity = results.onDidChangeActivity((activity) => {
    for (const id of activity.running) {
      const item = items.find((i) => i.id === id);
      if (!item || started.has(id)) continue;
      started.add(id);
      run.started(item);
    }
  });
  const onFinished = results.onDidFinishSpec(({ result, change }: FinishedSpec) => {
    const changes: ChangesView = { changes: change ? { [result.id]: change } : {} };
    const location = context.diagnostics.locationsOf(result.id, results.last)[0];
    reportResult(run, result, context.titleOf(result.id), changes, location, context, shown);
  });
  return { shown, dispose: () => (onActivity.dispose(), onFinished.dispose()) };
}

/** The check's verdicts (a cancelled one's finished verdicts, the rest skipped), or why it did not run. */
export function settle(
  run: vscode.TestRun,
  items: vscode.TestItem[],
  result: CheckAttempt,
  context: ReportContext,
  shown: ReadonlySet<string> = new Set(),
): void {
  const outcome = result.ran ? result.outcome : result.partial;
  if (outcome) {
    if (!result.ran) run.appendOutput(`${result.message}\r\n`);
    report(run, outcome, context, shown);
    return;
  }
  if (result.ran) return;
  run.appendOutput(`${result.message}\r\n`);
  for (const item of items) {
    if (result.reason === 'cancelled') run.skipped(item);
    else run.errored(item, new vscode.TestMessage(result.message));
  }
}

/** Every result of an outcome in the run (outputs not shown yet are appended). */
export function report(
  run: vscode.TestRun,
  outcome: CheckOutcome,
  context: ReportContext,
  shown: ReadonlySet<string> = new Set(),
): void {
  const once = new Set(shown);
  for (const result of outcome.run.results) {
    const title = outcome.specFile.specs.find((s) => s.id === result.id)?.title ?? result.id;
    const location = context.diagnostics.locationsOf(result.id, outcome)[0];
    reportResult(run, result, title, outcome.report, location, context, once);
  }
}

function reportResult(
  run: vscode.TestRun,
  result: SpecResult,
  title: string,
  changes: ChangesView,
  location: vscode.Location | undefined,
  context: ReportContext,
  shown: Set<string>,
): void {
  const item = context.tree.specItem(result.id);
  if (!item) return;
  if (!shown.has(result.id)) run.appendOutput(outputBlock(result), undefined, item);
  shown.add(result.id);
  const message = (): vscode.TestMessage => {
    const m = new vscode.TestMessage(violationMessage(result, title, changes, context.failureLines));
    if (location) m.location = location;
    return m;
  };
  item.description = testItemDescription(result, title, changes);
  if (result.verdict === 'pass' && !isViolation(result, changes)) run.passed(item, result.durationMs);
  else if (result.verdict === 'error') run.errored(item, message(), result.durationMs);
  else if (result.verdict === 'blocked' || result.verdict === 'skipped') run.skipped(item);
  else run.failed(item, message(), result.durationMs);
}

function outputBlock(result: SpecResult): string {
  const header = `── ${result.id}: ${result.verdict}${result.reason ? ` (${result.reason})` : ''} ──`;
  return `${header}\r\n${result.output.replace(/\r?\n/g, '\r\n')}\r\n`;
}
