// Specs in the Test Explorer: one item per spec, grouped by kind; a Run profile (one, a group, all), a
// continuous profile that re-checks the specs affected by each save, and a Coverage profile that shows which
// lines and functions each spec's test executed (per-spec coverage, see coverage.ts). Every check shows up here
// as a TestRun, including those started from the palette, the panel or on save, so the gutter never disagrees
// with the diagnostics, the status bar or the panel (which all read the same ResultsStore).
import * as vscode from 'vscode';
import type { SpecResult } from '../core/check/types';
import type { Spec, SpecKind } from '../shared/specSchema';
import type { AffectedSelector } from './affected';
import { coverageOfSpecs, SpecFileCoverage } from './coverage';
import type { CheckOutcome, CheckAttempt, CheckService, CheckStarted } from './checks';
import type { CheckDiagnostics } from './diagnostics';
import { isViolation, testItemDescription, violationMessage } from '../core/check/resultText';
import type { ResultsStore } from './results';
import { readSettings } from './settings';
import type { LoadedSpecs, SpecStore } from './specStore';
import { UNTRUSTED_REASON } from './trust';

const KIND_PREFIX = 'kind:';

export type TestState = 'passed' | 'failed' | 'errored' | 'skipped';

export class SpecTests implements vscode.Disposable {
  readonly controller = vscode.tests.createTestController('weave', 'Weave specs');
  /**
   * What the latest finished test run reported per spec id, and how many runs finished: VS Code gives
   * extensions no read access to test results, and the in-host tests need to see them.
   */
  readonly lastReported = {
    finishedRuns: 0,
    states: new Map<string, TestState>(),
    coverage: [] as vscode.FileCoverage[],
  };
  private readonly disposables: vscode.Disposable[] = [];
  /** The Run profile (also continuous). */
  readonly runProfile: vscode.TestRunProfile;
  /** The Coverage profile: a run that also reports per-spec coverage. */
  readonly coverageProfile: vscode.TestRunProfile;

  constructor(
    private readonly store: SpecStore,
    private readonly checks: CheckService,
    private readonly results: ResultsStore,
    private readonly diagnostics: CheckDiagnostics,
    private readonly affected: AffectedSelector,
    private readonly log: vscode.LogOutputChannel,
  ) {
    // Items load when the Test Explorer first asks for them, not at activation.
    this.controller.resolveHandler = async (item) => {
      if (!item) this.refresh(await this.store.get());
    };
    this.controller.refreshHandler = async () => {
      this.refresh(await this.store.reload());
    };
    const run = (this.runProfile = this.controller.createRunProfile(
      'Run',
      vscode.TestRunProfileKind.Run,
      (request, token) => this.runHandler(request, token),
      true,
      undefined,
      true,
    ));
    const coverage = (this.coverageProfile = this.controller.createRunProfile(
      'Coverage',
      vscode.TestRunProfileKind.Coverage,
      (request, token) => this.runHandler(request, token, true),
      true,
    ));
    coverage.loadDetailedCoverage = (_run, file) =>
      Promise.resolve(file instanceof SpecFileCoverage ? file.details() : []);
    coverage.loadDetailedCoverageForTest = (_run, file, item) =>
      Promise.resolve(file instanceof SpecFileCoverage ? file.details(item.id) : []);
    this.disposables.push(
      coverage,
      run,
      this.controller,
      store.onDidChange((loaded) => this.refresh(loaded)),
      results.onDidChange(({ outcome }) => this.placeItemsAtAnchors(outcome)),
      checks.onDidStart((started) => {
        if (started.fromTestExplorer) return;
        this.mirror(started).catch((e: unknown) => this.log.error(`test run of a check: ${String(e)}`));
      }),
    );
  }

  /** Rebuilds the tree from the latest valid spec file (a mid-edit invalid file keeps the old tree). */
  refresh(loaded: LoadedSpecs): void {
    if (!loaded.result.ok) return;
    const byKind = new Map<SpecKind, Spec[]>();
    for (const spec of loaded.result.specFile.specs)
      byKind.set(spec.kind, [...(byKind.get(spec.kind) ?? []), spec]);
    const groups: vscode.TestItem[] = [];
    for (const [kind, specs] of [...byKind].sort(([a], [b]) => a.localeCompare(b))) {
      const group = this.controller.createTestItem(KIND_PREFIX + kind, kind);
      for (const spec of specs) {
        const anchored = this.results.last?.anchors.bySpec.get(spec.id)?.[0];
        const item = this.controller.createTestItem(
          spec.id,
          spec.title,
          anchored?.uri ?? this.store.specsUri,
        );
        item.description = spec.id;
        item.tags = [new vscode.TestTag(kind)];
        const range = anchored?.range ?? this.store.entryRange(spec.id);
        if (range) item.range = range;
        group.children.add(item);
      }
      groups.push(group);
    }
    this.controller.items.replace(groups);
  }

  /** Spec items by id (for the run handler and for the exported API). */
  specItem(specId: string): vscode.TestItem | undefined {
    for (const [, group] of this.controller.items) {
      const item = group.children.get(specId);
      if (item) return item;
    }
    return undefined;
  }

  private placeItemsAtAnchors(outcome: CheckOutcome): void {
    for (const [specId, locations] of outcome.anchors.bySpec) {
      const item = this.specItem(specId);
      const first = locations[0];
      if (!item || !first || item.uri?.toString() === first.uri.toString()) continue;
      // A TestItem's uri is fixed at creation: replace the item to move it to the spec's code.
      const moved = this.controller.createTestItem(item.id, item.label, first.uri);
      if (item.description !== undefined) moved.description = item.description;
      moved.tags = item.tags;
      moved.range = first.range;
      item.parent?.children.add(moved);
    }
  }

  private specIdsOf(request: vscode.TestRunRequest): string[] {
    const excluded = new Set((request.exclude ?? []).map((i) => i.id));
    const roots = request.include ?? [...this.controller.items].map(([, item]) => item);
    const ids: string[] = [];
    const visit = (item: vscode.TestItem): void => {
      if (excluded.has(item.id)) return;
      if (item.id.startsWith(KIND_PREFIX)) item.children.forEach(visit);
      else ids.push(item.id);
    };
    roots.forEach(visit);
    return [...new Set(ids)];
  }

  private async runHandler(
    request: vscode.TestRunRequest,
    token: vscode.CancellationToken,
    withCoverage = false,
  ): Promise<void> {
    if (this.controller.items.size === 0) this.refresh(await this.store.get());
    if (request.continuous) return this.runContinuously(request, token);
    await this.runOnce(request, this.specIdsOf(request), token, withCoverage);
  }

  private async runOnce(
    request: vscode.TestRunRequest,
    specIds: string[],
    token: vscode.CancellationToken,
    withCoverage = false,
  ): Promise<void> {
    const run = this.recording(this.controller.createTestRun(request, undefined, true));
    const items = this.itemsOf(specIds);
    try {
      if (!vscode.workspace.isTrusted) {
        run.appendOutput(`${UNTRUSTED_REASON}\r\n`);
        for (const item of items) run.skipped(item);
        return;
      }
      const abort = new AbortController();
      const onCancel = token.onCancellationRequested(() => abort.abort());
      const following = this.follow(run, items);
      const result = await this.checks
        .check({ only: specIds, signal: abort.signal, fromTestExplorer: true })
        .finally(() => {
          onCancel.dispose();
          following.dispose();
        });
      this.settle(run, items, result);
      if (withCoverage && result.ran) {
        const ran = result.outcome.run.results.map((r) => r.id);
        for (const file of await coverageOfSpecs(this.store.folder.uri, ran, (id) => this.specItem(id)))
          run.addCoverage(file);
      }
    } finally {
      run.end();
    }
  }

  /** A check started elsewhere (palette, panel, on save): the same verdicts as a TestRun of its own. */
  private async mirror(started: CheckStarted): Promise<void> {
    if (this.controller.items.size === 0) this.refresh(await this.store.get());
    const items = this.itemsOf(started.specIds);
    const request = new vscode.TestRunRequest(items, undefined, this.runProfile);
    const run = this.recording(this.controller.createTestRun(request, 'Weave check', true));
    const following = this.follow(run, items);
    try {
      this.settle(run, items, await started.done);
    } finally {
      following.dispose();
      run.end();
    }
  }

  private itemsOf(specIds: readonly string[]): vscode.TestItem[] {
    return specIds.map((id) => this.specItem(id)).filter((i): i is vscode.TestItem => i !== undefined);
  }

  /** Items wait as enqueued and turn to started when their test does (the check's live activity). */
  private follow(run: vscode.TestRun, items: vscode.TestItem[]): vscode.Disposable {
    for (const item of items) run.enqueued(item);
    const started = new Set<string>();
    return this.results.onDidChangeActivity((activity) => {
      for (const id of activity.running) {
        const item = items.find((i) => i.id === id);
        if (!item || started.has(id)) continue;
        started.add(id);
        run.started(item);
      }
    });
  }

  private settle(run: vscode.TestRun, items: vscode.TestItem[], result: CheckAttempt): void {
    if (result.ran) {
      this.report(run, result.outcome);
      return;
    }
    run.appendOutput(`${result.message}\r\n`);
    for (const item of items) {
      if (result.reason === 'cancelled') run.skipped(item);
      else run.errored(item, new vscode.TestMessage(result.message));
    }
  }

  /** The run, with its verdicts also noted in `lastReported`. */
  private recording(run: vscode.TestRun): vscode.TestRun {
    const states = new Map<string, TestState>();
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
        this.lastReported.states = states;
        this.lastReported.coverage = coverage;
        this.lastReported.finishedRuns++;
      },
    };
  }

  private report(run: vscode.TestRun, outcome: CheckOutcome): void {
    const failureLines = readSettings(this.store.folder).failureLines;
    for (const result of outcome.run.results) {
      const item = this.specItem(result.id);
      if (!item) continue;
      run.appendOutput(outputBlock(result), undefined, item);
      const title = outcome.specFile.specs.find((s) => s.id === result.id)?.title ?? result.id;
      const message = (): vscode.TestMessage => {
        const m = new vscode.TestMessage(violationMessage(result, title, outcome.report, failureLines));
        const location = this.diagnostics.locationsOf(result.id, outcome)[0];
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

  /** Continuous run: after each save, re-check the requested specs that the saved files affect. */
  private runContinuously(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const wanted = new Set(this.specIdsOf(request));
    return new Promise<void>((resolve) => {
      const onSave = vscode.workspace.onDidSaveTextDocument(async (doc) => {
        if (
          token.isCancellationRequested ||
          vscode.workspace.getWorkspaceFolder(doc.uri) !== this.store.folder
        )
          return;
        try {
          const affected = (await this.affected.specsAffectedBy([doc.uri])).filter((id) => wanted.has(id));
          this.log.info(
            `continuous run: ${doc.uri.fsPath} saved, affected: ${affected.join(', ') || 'none'}`,
          );
          if (affected.length > 0) await this.runOnce(request, affected, token);
        } catch (e) {
          this.log.error(`continuous run after saving ${doc.uri.fsPath} failed: ${String(e)}`);
        }
      });
      token.onCancellationRequested(() => {
        onSave.dispose();
        resolve();
      });
    });
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

function outputBlock(result: SpecResult): string {
  const header = `── ${result.id}: ${result.verdict}${result.reason ? ` (${result.reason})` : ''} ──`;
  return `${header}\r\n${result.output.replace(/\r?\n/g, '\r\n')}\r\n`;
}
