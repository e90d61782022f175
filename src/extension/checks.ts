// Runs spec checks for the editor: the trust gate, one check at a time, cancellation, progress, and the
// results handed to diagnostics, Test Explorer, the status bar and the panel through one event.
import * as vscode from 'vscode';
import { checkWorkspace } from '../core/check/checkWorkspace';
import type { RunProgress } from '../core/check/runSpecs';
import type { BaselineReport, Change, RunRecord, SpecResult } from '../core/check/types';
import type { SpecFile } from '../core/spec/schema';
import type { AnchorLocations, AnchorLocator } from './anchors';
import { readSettings } from './settings';
import { isValid, SPECS_RELATIVE_PATH, type SpecStore, type ValidSpecs } from './specStore';
import { UNTRUSTED_REASON } from './trust';

export interface CheckRequest {
  /** Spec ids to run (all when absent). */
  only?: readonly string[];
  /** Shown in the progress notification title ("affected", "on save"). */
  label?: string;
  /** When set the caller shows progress (Test Explorer) and owns cancellation. */
  signal?: AbortSignal;
  /** Background checks (on save) show progress in the status bar instead of a notification. */
  quiet?: boolean;
}

export interface CheckOutcome {
  run: RunRecord;
  report: BaselineReport;
  specFile: SpecFile;
  anchors: AnchorLocations;
  durationMs: number;
  /** Indexing and anchor resolution, which overlap the spec tests. */
  anchorsMs: number;
}

export type CheckResult =
  | { ran: true; outcome: CheckOutcome }
  | {
      ran: false;
      reason: 'untrusted' | 'invalid-specs' | 'unsaved-specs' | 'cancelled' | 'nothing-to-run' | 'failed';
      message: string;
    };

export class CheckService implements vscode.Disposable {
  private queue: Promise<unknown> = Promise.resolve();
  private latest: CheckOutcome | undefined;
  /** Each spec's latest result and change across checks (a check of one spec keeps the others' verdicts). */
  private readonly resultBySpec = new Map<string, SpecResult>();
  private readonly changeBySpec = new Map<string, Change>();
  private readonly finished = new vscode.EventEmitter<CheckOutcome>();
  /** Fires after every completed check (partial ones included: `run.specIds` says which specs ran). */
  readonly onDidFinish = this.finished.event;
  private readonly running = new vscode.EventEmitter<boolean>();
  readonly onDidChangeRunning = this.running.event;
  private active = 0;
  private inFlight: string[] = [];

  constructor(
    private readonly store: SpecStore,
    private readonly anchors: AnchorLocator,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** The latest completed check, if any. */
  get last(): CheckOutcome | undefined {
    return this.latest;
  }

  /** Latest known result of every spec still in the file, in file order, with its change against a baseline. */
  knownResults(): { results: SpecResult[]; changes: Record<string, Change> } {
    const ids = this.latest?.specFile.specs.map((s) => s.id) ?? [];
    const results = ids
      .map((id) => this.resultBySpec.get(id))
      .filter((r): r is SpecResult => r !== undefined);
    const changes: Record<string, Change> = {};
    for (const r of results) {
      const change = this.changeBySpec.get(r.id);
      if (change) changes[r.id] = change;
    }
    return { results, changes };
  }

  /** Spec ids being checked right now. */
  get runningIds(): readonly string[] {
    return this.inFlight;
  }

  get isRunning(): boolean {
    return this.active > 0;
  }

  /** Queues a check behind any running one, so two runs never race over `.weave/runs/` or the worktree. */
  check(request: CheckRequest = {}): Promise<CheckResult> {
    const next = this.queue.then(() => this.checkNow(request));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async checkNow(request: CheckRequest): Promise<CheckResult> {
    if (!vscode.workspace.isTrusted) {
      this.log.warn(`check not run: ${UNTRUSTED_REASON}`);
      return { ran: false, reason: 'untrusted', message: UNTRUSTED_REASON };
    }
    // The engine runs the spec file on disk: running while the editor shows other specs would mislead.
    if (vscode.workspace.textDocuments.some((d) => this.store.isSpecsDocument(d) && d.isDirty)) {
      const message = `${SPECS_RELATIVE_PATH} has unsaved changes; save it to check the specs you see.`;
      return { ran: false, reason: 'unsaved-specs', message };
    }
    const specs = await this.store.reload();
    if (!isValid(specs)) {
      const count = specs.result.ok ? 0 : specs.result.problems.length;
      const message = `${SPECS_RELATIVE_PATH} has ${count} problem(s); fix them first (see Problems).`;
      this.log.warn(message);
      return { ran: false, reason: 'invalid-specs', message };
    }
    if (request.only?.length === 0) {
      return { ran: false, reason: 'nothing-to-run', message: 'No spec to run.' };
    }
    if (request.signal) return this.execute(specs, request, request.signal);
    const title = `Weave: checking ${request.label ?? (request.only ? `${request.only.length} spec(s)` : 'constraints')}`;
    return vscode.window.withProgress(
      {
        location: request.quiet ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification,
        title,
        cancellable: true,
      },
      (progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        const total = request.only?.length ?? specs.result.specFile.specs.length;
        return this.execute(specs, request, abort.signal, (specId) => {
          progress.report({ message: specId, increment: 100 / Math.max(1, total) });
        });
      },
    );
  }

  private async execute(
    specs: ValidSpecs,
    request: CheckRequest,
    signal: AbortSignal,
    reportProgress?: (specId: string) => void,
  ): Promise<CheckResult> {
    const settings = readSettings(this.store.folder);
    const started = performance.now();
    this.active++;
    this.inFlight = [...(request.only ?? specs.result.specFile.specs.map((s) => s.id))];
    this.running.fire(true);
    try {
      this.log.info(`check started${request.only ? ` (${request.only.join(', ')})` : ' (all specs)'}`);
      const onProgress = (event: RunProgress): void => {
        if (event.type !== 'finished') return;
        this.log.info(
          `  ${event.result.id}: ${event.result.verdict} (${Math.round(event.result.durationMs)} ms)`,
        );
        reportProgress?.(event.result.id);
      };
      // Resolve anchors (index the workspace) while the spec tests run: they do not depend on each other.
      const anchorsStarted = performance.now();
      let anchorsMs = 0;
      const anchorsPending = this.anchors
        .locate(specs, signal)
        .catch((e: unknown): AnchorLocations => {
          // Without the index, diagnostics fall back to the specs' entries in specs.json.
          this.log.warn(`could not resolve anchors: ${e instanceof Error ? e.message : String(e)}`);
          return { bySpec: new Map(), problems: [], potential: [] };
        })
        .finally(() => (anchorsMs = performance.now() - anchorsStarted));
      const { run, report, specFile } = await checkWorkspace({
        workspaceDir: this.store.folder.uri.fsPath,
        signal,
        onProgress,
        ...(request.only ? { only: [...request.only] } : {}),
        ...(settings.concurrency ? { concurrency: settings.concurrency } : {}),
        ...(settings.baseline ? { baselineRef: settings.baseline } : {}),
        ...(settings.timeoutSeconds ? { defaultTimeoutSeconds: settings.timeoutSeconds } : {}),
      });
      if (signal.aborted) {
        await anchorsPending;
        this.log.info('check cancelled');
        return { ran: false, reason: 'cancelled', message: 'Check cancelled.' };
      }
      const anchors = await anchorsPending;
      const outcome: CheckOutcome = {
        run,
        report,
        specFile,
        anchors,
        durationMs: performance.now() - started,
        anchorsMs,
      };
      this.latest = outcome;
      for (const r of run.results) this.resultBySpec.set(r.id, r);
      for (const [id, change] of Object.entries(report.changes)) this.changeBySpec.set(id, change);
      this.log.info(
        `check finished in ${Math.round(outcome.durationMs)} ms (anchors ${Math.round(anchorsMs)} ms, run ${run.id})`,
      );
      this.finished.fire(outcome);
      return { ran: true, outcome };
    } catch (e) {
      if (signal.aborted) return { ran: false, reason: 'cancelled', message: 'Check cancelled.' };
      const message = e instanceof Error ? e.message : String(e);
      this.log.error(`check failed: ${message}`);
      return { ran: false, reason: 'failed', message: `Weave check failed: ${message}` };
    } finally {
      this.active--;
      if (this.active === 0) this.inFlight = [];
      this.running.fire(this.active > 0);
    }
  }

  dispose(): void {
    this.finished.dispose();
    this.running.dispose();
  }
}
