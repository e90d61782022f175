// How a check shows in a TestRun: its specs wait as enqueued and start as the check starts their tests, then each
// verdict is reported (passed, failed or errored with the violation message at the spec's location, skipped) with
// the test's output; a check that did not run (cancelled, refused) marks every item instead. The same report for
// runs started from the Test Explorer and for checks started elsewhere, so the two never disagree.
import * as vscode from 'vscode';
import { isViolation, testItemDescription, violationMessage } from '../core/check/resultText';
import type { SpecResult } from '../core/check/types';
import type { CheckAttempt, CheckOutcome } from './checks';
import type { CheckDiagnostics } from './diagnostics';
import type { ResultsStore } from './results';
import type { SpecTestTree } from './testTree';

/** What reporting needs beside the run: the tree's items, the diagnostics' locations, the failure excerpt size. */
export interface ReportContext {
  tree: SpecTestTree;
  diagnostics: CheckDiagnostics;
  failureLines: number;
}

/** Items wait as enqueued and turn to started when their test does (the check's live activity). */
export function followActivity(
  run: vscode.TestRun,
  items: vscode.TestItem[],
  results: ResultsStore,
): vscode.Disposable {
  for (const item of items) run.enqueued(item);
  const started = new Set<string>();
  return results.onDidChangeActivity((activity) => {
    for (const id of activity.running) {
      const item = items.find((i) => i.id === id);
      if (!item || started.has(id)) continue;
      started.add(id);
      run.started(item);
    }
  });
}

/** The check's verdicts, or, when it did not run, why not on every item. */
export function settle(
  run: vscode.TestRun,
  items: vscode.TestItem[],
  result: CheckAttempt,
  context: ReportContext,
): void {
  if (result.ran) {
    report(run, result.outcome, context);
    return;
  }
  run.appendOutput(`${result.message}\r\n`);
  for (const item of items) {
    if (result.reason === 'cancelled') run.skipped(item);
    else run.errored(item, new vscode.TestMessage(result.message));
  }
}

function report(run: vscode.TestRun, outcome: CheckOutcome, context: ReportContext): void {
  for (const result of outcome.run.results) {
    const item = context.tree.specItem(result.id);
    if (!item) continue;
    run.appendOutput(outputBlock(result), undefined, item);
    const title = outcome.specFile.specs.find((s) => s.id === result.id)?.title ?? result.id;
    const message = (): vscode.TestMessage => {
      const m = new vscode.TestMessage(violationMessage(result, title, outcome.report, context.failureLines));
      const location = context.diagnostics.locationsOf(result.id, outcome)[0];
      if (location) m.location = location;
      return m;
    };
    item.description = testItemDescription(result, result.id);
    if (result.verdict === 'pass' && !isViolation(result, outcome.report))
      run.passed(item, result.durationMs);
    else if (result.verdict === 'error') run.errored(item, message(), result.durationMs);
    else if (result.verdict === 'blocked' || result.verdict === 'skipped') run.skipped(item);
    else run.failed(item, message(), result.durationMs);
  }
}

function outputBlock(result: SpecResult): string {
  const header = `── ${result.id}: ${result.verdict}${result.reason ? ` (${result.reason})` : ''} ──`;
  return `${header}\r\n${result.output.replace(/\r?\n/g, '\r\n')}\r\n`;
}
