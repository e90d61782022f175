// Violated specs as diagnostics at their anchored code (falling back to the spec's entry in specs.json), with
// related information pointing at the spec's entry and at the specs it interacts with. A check replaces the
// diagnostics of the specs it ran, so fixed specs clear theirs and specs it did not run keep theirs.
import * as vscode from 'vscode';
import { isViolation, type SpecResult } from '../core/check';
import type { CheckOutcome } from './checks';
import type { ResultsStore } from './results';
import { verdictText, violationMessage } from './views/resultText';
import { readSettings } from './settings';
import type { SpecStore } from './specStore';
import { plainText } from './plainText';

export class CheckDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('weave');
  /** Diagnostics currently shown, per spec id, so a partial check only replaces its own specs'. */
  private readonly bySpec = new Map<string, Array<[vscode.Uri, vscode.Diagnostic]>>();
  /** Unresolved-anchor warnings on specs.json, replaced by every check. */
  private anchorProblems: vscode.Diagnostic[] = [];

  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly store: SpecStore,
    results: ResultsStore,
  ) {
    this.subscription = results.onDidChange(({ outcome }) => this.update(outcome));
  }

  /** Where a spec's violations are shown: its resolved anchors, else its entry in specs.json. */
  locationsOf(specId: string, outcome: CheckOutcome | undefined): vscode.Location[] {
    const anchored = outcome?.anchors.bySpec.get(specId);
    if (anchored?.length) return anchored;
    const entry = this.store.entryLocation(specId);
    return entry ? [entry] : [new vscode.Location(this.store.specsUri, new vscode.Position(0, 0))];
  }

  update(outcome: CheckOutcome): void {
    const settings = readSettings(this.store.folder);
    const results = new Map(outcome.run.results.map((r) => [r.id, r]));
    // Specs that vanished from the file lose their diagnostics too.
    const known = new Set(outcome.specFile.specs.map((s) => s.id));
    for (const id of [...this.bySpec.keys()]) if (!known.has(id) || results.has(id)) this.bySpec.delete(id);
    for (const result of results.values()) {
      const diagnostics = this.diagnosticsFor(result, outcome, settings.failureLines);
      if (diagnostics.length > 0) this.bySpec.set(result.id, diagnostics);
    }
    this.anchorProblems = outcome.anchors.problems.map((p) => {
      const start = new vscode.Position(Math.max(0, p.line - 1), Math.max(0, p.column - 1));
      const d = new vscode.Diagnostic(
        new vscode.Range(start, start.translate(0, 1)),
        plainText(`${p.path}: ${p.message}`),
        p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
      );
      d.source = 'weave';
      return d;
    });
    this.publish();
  }

  private diagnosticsFor(
    result: SpecResult,
    outcome: CheckOutcome,
    failureLines: number,
  ): Array<[vscode.Uri, vscode.Diagnostic]> {
    const spec = outcome.specFile.specs.find((s) => s.id === result.id);
    const violated = isViolation(result, outcome.report);
    if (!spec || (!violated && result.verdict !== 'blocked')) return [];
    const message =
      result.verdict === 'blocked'
        ? `[${result.id}] ${spec.title} — ${verdictText(result, outcome.report)}`
        : violationMessage(result, spec.title, outcome.report, failureLines);
    // A spec that could not run is a warning (a time-out, a crash may be the machine's), except a command that does
    // not exist (exit 127): nothing can pass until it is fixed, so it is an error like a failing test.
    const severity = !violated
      ? vscode.DiagnosticSeverity.Information
      : result.verdict === 'error' && result.exitCode !== 127
        ? vscode.DiagnosticSeverity.Warning
        : vscode.DiagnosticSeverity.Error;
    const related: vscode.DiagnosticRelatedInformation[] = [];
    const entry = this.store.entryLocation(result.id);
    if (entry)
      related.push(new vscode.DiagnosticRelatedInformation(entry, `spec ${result.id} in specs.json`));
    for (const otherId of spec.interactsWith) {
      const other = this.store.entryLocation(otherId);
      if (!other) continue;
      const otherResult = outcome.run.results.find((r) => r.id === otherId);
      const state = otherResult ? `: ${verdictText(otherResult, outcome.report)}` : '';
      related.push(new vscode.DiagnosticRelatedInformation(other, `interacts with ${otherId}${state}`));
    }
    return this.locationsOf(result.id, outcome).map((location) => {
      const d = new vscode.Diagnostic(location.range, message, severity);
      d.source = 'weave';
      d.code = result.id;
      d.relatedInformation = related;
      return [location.uri, d];
    });
  }

  private publish(): void {
    const byUri = new Map<string, [vscode.Uri, vscode.Diagnostic[]]>();
    const add = (uri: vscode.Uri, d: vscode.Diagnostic): void => {
      const key = uri.toString();
      const entry = byUri.get(key) ?? [uri, []];
      entry[1].push(d);
      byUri.set(key, entry);
    };
    for (const list of this.bySpec.values()) for (const [uri, d] of list) add(uri, d);
    for (const d of this.anchorProblems) add(this.store.specsUri, d);
    this.collection.clear();
    this.collection.set([...byUri.values()]);
  }

  dispose(): void {
    this.subscription.dispose();
    this.collection.dispose();
  }
}
