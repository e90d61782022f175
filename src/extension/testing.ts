// Specs in the Test Explorer: a Run profile (one spec, a group, all), a continuous profile that re-checks the
// specs affected by each save, and a Coverage profile that shows which lines and functions each spec's test
// executed (per-spec coverage, see coverage.ts). Every check shows up here as a TestRun, including those started
// from the palette, the panel or on save, so the gutter never disagrees with the diagnostics, the status bar or
// the panel (which all read the same ResultsStore); the run restored from .weave/runs/ when the window opens is a
// TestRun of its own ("Weave: last run, 12 min ago"), so the Test Explorer shows the verdicts the other surfaces do. This module runs things; the tree of items is testTree.ts,
// how a check's results show in a run is testRunReport.ts, and what the runs reported is kept by testRunRecord.ts.
import * as vscode from 'vscode';
import type { AffectedSelector } from './affected';
import { codeUnderTestFilter } from '../core/coverage/codeUnderTest';
import { coverageOfSpecs, SpecFileCoverage } from './coverage';
import type { CheckAttempt, CheckService, CheckStarted } from './checks';
import type { CheckDiagnostics } from './diagnostics';
import type { CheckOutcome } from './checks';
import { ageText } from '../core/check';
import type { ResultsStore } from './results';
import { readSettings } from './settings';
import type { SpecStore } from './specStore';
import { emptyReport, recordedRun, type LastReported } from './testRunRecord';
import { followActivity, report, settle, type ReportContext } from './testRunReport';
import { debugSpecs, type DebugRecord } from './testDebug';
import { SpecTestTree } from './testTree';
import { UNTRUSTED_REASON } from './trust';

export class SpecTests implements vscode.Disposable {
  readonly controller = vscode.tests.createTestController('weave', 'Weave specs');
  /**
   * What the latest finished test run reported per spec id, and how many runs finished: VS Code gives
   * extensions no read access to test results, and the in-host tests need to see them.
   */
  readonly lastReported: LastReported = emptyReport();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly tree: SpecTestTree;
  /** The Run profile (also continuous). */
  readonly runProfile: vscode.TestRunProfile;
  /** The Coverage profile: a run that also reports per-spec coverage. */
  readonly coverageProfile: vscode.TestRunProfile;
  /** The Debug profile: each spec's command under the debugger (testDebug.ts). */
  readonly debugProfile: vscode.TestRunProfile;
  /** What the latest Debug profile run did per spec. */
  lastDebug: readonly DebugRecord[] = [];

  constructor(
    private readonly store: SpecStore,
    private readonly checks: CheckService,
    private readonly results: ResultsStore,
    private readonly diagnostics: CheckDiagnostics,
    private readonly affected: AffectedSelector,
    private readonly log: vscode.LogOutputChannel,
  ) {
    const tree = (this.tree = new SpecTestTree(this.controller, store, results));
    // Items load when the Test Explorer first asks for them, not at activation.
    this.controller.resolveHandler = async (item) => {
      if (!item) tree.refresh(await this.store.get());
    };
    this.controller.refreshHandler = async () => {
      tree.refresh(await this.store.reload());
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
    const debug = (this.debugProfile = this.controller.createRunProfile(
      'Debug',
      vscode.TestRunProfileKind.Debug,
      async (request, token) => {
        if (this.tree.isEmpty) this.tree.refresh(await this.store.get());
        this.lastDebug = await debugSpecs(request, token, {
          controller: this.controller,
          store: this.store,
          tree: this.tree,
          log: this.log,
        });
      },
      true,
    ));
    coverage.loadDetailedCoverage = (_run, file) =>
      Promise.resolve(file instanceof SpecFileCoverage ? file.details() : []);
    coverage.loadDetailedCoverageForTest = (_run, file, item) =>
      Promise.resolve(file instanceof SpecFileCoverage ? file.details(item.id) : []);
    this.disposables.push(
      debug,
      coverage,
      run,
      this.controller,
      store.onDidChange((loaded) => tree.refresh(loaded)),
      results.onDidChange(({ outcome, origin, anchorsOnly }) => {
        tree.placeItemsAtAnchors(outcome);
        if (origin === 'restored' && !anchorsOnly) this.showRestored(outcome);
      }),
      checks.onDidStart((started) => {
        if (started.fromTestExplorer) return;
        this.mirror(started).catch((e: unknown) => this.log.error(`test run of a check: ${String(e)}`));
      }),
    );
  }

  private async runHandler(
    request: vscode.TestRunRequest,
    token: vscode.CancellationToken,
    withCoverage = false,
  ): Promise<void> {
    if (this.tree.isEmpty) this.tree.refresh(await this.store.get());
    if (request.continuous) return this.runContinuously(request, token);
    await this.runOnce(request, this.tree.specIdsOf(request), token, withCoverage);
  }

  private async runOnce(
    request: vscode.TestRunRequest,
    specIds: string[],
    token: vscode.CancellationToken,
    withCoverage = false,
  ): Promise<void> {
    const run = recordedRun(this.controller.createTestRun(request, undefined, true), this.lastReported);
    const items = this.tree.itemsOf(specIds);
    try {
      if (!vscode.workspace.isTrusted) {
        run.appendOutput(`${UNTRUSTED_REASON}\r\n`);
        for (const item of items) run.skipped(item);
        return;
      }
      const abort = new AbortController();
      const onCancel = token.onCancellationRequested(() => abort.abort());
      const following = followActivity(run, items, this.results, this.reportContext());
      const result = await this.checks
        .check({
          only: specIds,
          signal: abort.signal,
          fromTestExplorer: true,
          ...(withCoverage ? { coverage: true } : {}),
        })
        .finally(() => {
          onCancel.dispose();
          following.dispose();
        });
      this.settle(run, items, result, following.shown);
      if (withCoverage && result.ran) {
        const ran = result.outcome.run.results.map((r) => r.id);
        const specFile = this.store.valid?.result.ok ? this.store.valid.result.specFile : undefined;
        const isCodeUnderTest = codeUnderTestFilter(specFile?.specs ?? [], specFile?.defaults.cwd);
        for (const file of await coverageOfSpecs(
          this.store.folder.uri,
          ran,
          (id) => this.tree.specItem(id),
          isCodeUnderTest,
        ))
          run.addCoverage(file);
      }
    } finally {
      run.end();
    }
  }

  /** A check started elsewhere (palette, panel, on save): the same verdicts as a TestRun of its own. */
  private async mirror(started: CheckStarted): Promise<void> {
    if (this.tree.isEmpty) this.tree.refresh(await this.store.get());
    const items = this.tree.itemsOf(started.specIds);
    const request = new vscode.TestRunRequest(items, undefined, this.runProfile);
    const run = recordedRun(this.controller.createTestRun(request, 'Weave check', true), this.lastReported);
    const following = followActivity(run, items, this.results, this.reportContext());
    try {
      this.settle(run, items, await started.done, following.shown);
    } finally {
      following.dispose();
      run.end();
    }
  }

  private reportContext(): ReportContext {
    const specs = this.store.valid?.result.ok ? this.store.valid.result.specFile.specs : [];
    return {
      tree: this.tree,
      diagnostics: this.diagnostics,
      failureLines: readSettings(this.store.folder).failureLines,
      titleOf: (id) => specs.find((s) => s.id === id)?.title ?? id,
    };
  }

  private settle(
    run: vscode.TestRun,
    items: vscode.TestItem[],
    result: CheckAttempt,
    shown: ReadonlySet<string>,
  ): void {
    settle(run, items, result, this.reportContext(), shown);
  }

  /** The run restored from .weave/runs/: a TestRun named for its age, with the verdicts it recorded. */
  private showRestored(outcome: CheckOutcome): void {
    const run = (async (): Promise<void> => {
      if (this.tree.isEmpty) this.tree.refresh(await this.store.get());
      const items = this.tree.itemsOf(outcome.run.results.map((r) => r.id));
      const request = new vscode.TestRunRequest(items, undefined, this.runProfile);
      const name = `Weave: last run, ${ageText(outcome.run.finishedAt, new Date())} (restored)`;
      const testRun = recordedRun(this.controller.createTestRun(request, name, true), this.lastReported);
      try {
        report(testRun, outcome, this.reportContext());
      } finally {
        testRun.end();
      }
    })();
    run.catch((e: unknown) => this.log.error(`test run of the restored run: ${String(e)}`));
  }

  /** Continuous run: after each save, re-check the requested specs that the saved files affect. */
  private runContinuously(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const wanted = new Set(this.tree.specIdsOf(request));
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
