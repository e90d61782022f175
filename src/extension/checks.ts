// Runs spec checks for the editor: the trust gate, one check at a time, cancellation, progress, and the
// results recorded in the one ResultsStore that diagnostics, Test Explorer, the status bar and the panel read:
// each verdict as its spec finishes, then the whole run (a cancelled one too: what finished, and "not run").
import * as vscode from 'vscode';
import { checkWorkspace, type CheckProgress, type CheckWorkspaceOptions } from '../core/fullCheck';
import type { AnchorLocations, AnchorAnalyzer } from './anchors';
import type { CheckOutcome } from './checkOutcome';
import type { Activity, ResultsStore, ResultsUpdate } from './results';
import { readSettings, type WeaveSettings } from './settings';
import { SPEC_FILE_RELATIVE_PATH } from '../core/spec';
import { isValid, type SpecStore, type ValidSpecs } from './specStore';
import { UNTRUSTED_REASON } from './trust';

export type { CheckOutcome } from './checkOutcome';

export interface CheckRequest {
  /** Spec ids to run (all when absent). */
  only?: readonly string[];
  /** Shown in the progress notification title ("affected", "on save"). */
  label?: string;
  /** When set the caller shows progress (Test Explorer) and owns cancellation. */
  signal?: AbortSignal;
  /** Background checks (on save) show progress in the status bar instead of a notification. */
  quiet?: boolean;
  /** The Test Explorer started it and reports into its own TestRun. */
  fromTestExplorer?: boolean;
  /** Record per-spec coverage whatever `weave.coverage` says (the Coverage profile). */
  coverage?: boolean;
}

/** A check that starts running (fired once its specs are known); `done` settles when it ends. */
export interface CheckStarted {
  specIds: readonly string[];
  fromTestExplorer: boolean;
  done: Promise<CheckAttempt>;
}

export type CheckAttempt =
  | {
      ran: true;
      outcome: CheckOutcome;
      newlyBroken: string[];
      /** Why more ran than asked, in words (Check affected running every spec: the spec file changed). */
      note?: string;
    }
  | {
      ran: false;
      reason: 'untrusted' | 'invalid-specs' | 'unsaved-specs' | 'cancelled' | 'nothing-to-run' | 'failed';
      message: string;
      /** A cancelled check's finished verdicts (the rest "not run"), as recorded in the ResultsStore. */
      partial?: CheckOutcome;
    };

export class CheckService implements vscode.Disposable {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly started = new vscode.EventEmitter<CheckStarted>();
  /** Fires when a check begins running its specs (the Test Explorer opens a TestRun for palette checks). */
  readonly onDidStart = this.started.event;
  private active = 0;
  /** Aborts the checks in progress (the panel's Cancel, whatever started them). */
  private readonly cancels = new Set<AbortController>();

  constructor(
    private readonly store: SpecStore,
    private readonly anchors: AnchorAnalyzer,
    private readonly results: ResultsStore,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** The latest completed check, if any. */
  get last(): CheckOutcome | undefined {
    return this.results.last;
  }

  get isRunning(): boolean {
    return this.active > 0;
  }

  /** Cancels the check in progress, wherever it was started: running specs are killed, the rest "not run". */
  cancel(): boolean {
    for (const c of this.cancels) c.abort();
    return this.cancels.size > 0;
  }

  /** Queues a check behind any running one, so two runs never race over `.weave/runs/` or the worktree. */
  check(request: CheckRequest = {}): Promise<CheckAttempt> {
    const next = this.queue.then(() => this.checkNow(request));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async checkNow(request: CheckRequest): Promise<CheckAttempt> {
    if (!vscode.workspace.isTrusted) {
      this.log.warn(`check not run: ${UNTRUSTED_REASON}`);
      return { ran: false, reason: 'untrusted', message: UNTRUSTED_REASON };
    }
    // The engine runs the spec file on disk: running while the editor shows other specs would mislead.
    if (vscode.workspace.textDocuments.some((d) => this.store.isSpecsDocument(d) && d.isDirty)) {
      const message = `${SPEC_FILE_RELATIVE_PATH} has unsaved changes; save it to check the specs you see.`;
      return { ran: false, reason: 'unsaved-specs', message };
    }
    const specs = await this.store.reload();
    if (!isValid(specs)) {
      const count = specs.result.ok ? 0 : specs.result.problems.length;
      const message = `${SPEC_FILE_RELATIVE_PATH} has ${count} problem${count === 1 ? '' : 's'}; fix ${count === 1 ? 'it' : 'them'} first (see Problems).`;
      this.log.warn(message);
      return { ran: false, reason: 'invalid-specs', message };
    }
    if (request.only?.length === 0) {
      return { ran: false, reason: 'nothing-to-run', message: 'No spec to run.' };
    }
    if (request.signal) return this.execute(specs, request, request.signal);
    const count = request.only?.length ?? 0;
    const title = `Weave: checking ${request.label ?? (request.only ? `${count} spec${count === 1 ? '' : 's'}` : 'constraints')}`;
    return vscode.window.withProgress(
      {
        location: request.quiet ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification,
        title,
        cancellable: true,
      },
      (progress, token) => {
        const abort = new AbortController();
        token.onCancellationRequested(() => abort.abort());
        let reported = 0;
        return this.execute(specs, request, abort.signal, (activity) => {
          // "3/8 done · cache-hit, no-stale-read": the count, and every spec whose test runs now.
          const percent = (100 * activity.done) / Math.max(1, activity.total);
          const running = activity.running.length > 0 ? ` · ${activity.running.join(', ')}` : '';
          progress.report({
            message: `${activity.done}/${activity.total} done${running}`,
            increment: percent - reported,
          });
          reported = percent;
        });
      },
    );
  }

  private execute(
    specs: ValidSpecs,
    request: CheckRequest,
    signal: AbortSignal,
    reportProgress?: (activity: Activity) => void,
  ): Promise<CheckAttempt> {
    const specIds = [...(request.only ?? specs.result.specFile.specs.map((s) => s.id))];
    // The caller's signal (notification, Test Explorer) or the panel's Cancel: either one stops the check.
    const cancel = new AbortController();
    this.cancels.add(cancel);
    const done = this.run(specs, request, AbortSignal.any([signal, cancel.signal]), specIds, reportProgress);
    void done.finally(() => this.cancels.delete(cancel));
    this.started.fire({ specIds, fromTestExplorer: request.fromTestExplorer === true, done });
    return done;
  }

  private async run(
    specs: ValidSpecs,
    request: CheckRequest,
    signal: AbortSignal,
    specIds: string[],
    reportProgress?: (activity: Activity) => void,
  ): Promise<CheckAttempt> {
    const settings = readSettings(this.store.folder);
    const started = performance.now();
    this.active++;
    const activity = this.trackActivity(specIds, reportProgress);
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      this.active--;
      this.results.setActivity(undefined);
    };
    this.results.beginCheck(
      specs.result.specFile.specs.map((s) => s.id),
      request.only ?? specIds,
    );
    activity.publish();
    try {
      this.log.info(`check started${request.only ? ` (${request.only.join(', ')})` : ' (all specs)'}`);
      // Resolve anchors (index the workspace) while the spec tests run: they do not depend on each other, and
      // the verdicts never wait for them (a slow index once held a finished check, and its Cancel, for 77 s).
      const anchorsPending = this.locateAnchors(specs);
      let anchorsReady: { anchors: AnchorLocations; anchorsMs: number } | undefined;
      void anchorsPending.then((a) => (anchorsReady = a));
      const { run, report, specFile } = await checkWorkspace({
        workspaceDir: this.store.folder.uri.fsPath,
        signal,
        onProgress: activity.onProgress,
        ...checkOptions(settings, request),
      });
      // Anchors resolved by now are shown with the verdicts; later ones replace the previous check's when they come.
      const ready = anchorsReady;
      const outcome: CheckOutcome = {
        run,
        report,
        specFile,
        anchors: ready?.anchors ?? this.results.last?.anchors ?? NO_ANCHORS,
        durationMs: performance.now() - started,
        anchorsMs: ready?.anchorsMs ?? NaN,
      };
      const attempt = this.recordOutcome(outcome, signal, finish);
      if (!ready) {
        void anchorsPending.then(({ anchors, anchorsMs }) => {
          this.log.info(`anchors resolved ${Math.round(anchorsMs)} ms after the check started`);
          this.results.updateAnchors(outcome, anchors, anchorsMs);
        });
      }
      return attempt;
    } catch (e) {
      if (signal.aborted) return { ran: false, reason: 'cancelled', message: 'Check cancelled.' };
      const message = e instanceof Error ? e.message : String(e);
      this.log.error(`check failed: ${message}`);
      return { ran: false, reason: 'failed', message: `Weave check failed: ${message}` };
    } finally {
      finish();
    }
  }

  /** What the surfaces show while a check runs (queued, running, done of total), kept from its progress. */
  private trackActivity(
    specIds: string[],
    reportProgress?: (activity: Activity) => void,
  ): { publish: () => void; onProgress: (event: CheckProgress) => void } {
    // Every asked-for spec waits for a slot until its test starts (dependencies that run too join as they start).
    const queued = new Set(specIds);
    const running = new Set<string>();
    let done = 0;
    let total = specIds.length;
    const publish = (): void => {
      const activity: Activity = { queued: [...queued], running: [...running], done, total };
      this.results.setActivity(activity);
      reportProgress?.(activity);
    };
    const onProgress = (event: CheckProgress): void => {
      // A baseline run on a ref (weave.baseline) is not what the surfaces show: only the current phase counts.
      if (event.phase !== 'current') return;
      total = Math.max(total, event.total);
      if (event.type === 'started') {
        queued.delete(event.id);
        running.add(event.id);
      } else {
        queued.delete(event.result.id);
        running.delete(event.result.id);
        done = event.done;
        this.results.noteFinished(event.result, event.change);
        this.log.info(
          `  ${event.result.id}: ${event.result.verdict} (${Math.round(event.result.durationMs)} ms)`,
        );
      }
      publish();
    };
    return { publish, onProgress };
  }

  /** The specs' anchors (the workspace indexed), and how long that took; none when the index fails. */
  private async locateAnchors(specs: ValidSpecs): Promise<{ anchors: AnchorLocations; anchorsMs: number }> {
    const anchorsStarted = performance.now();
    const anchors = await this.anchors.locate(specs).catch((e: unknown): AnchorLocations => {
      // Without the index, diagnostics fall back to the specs' entries in specs.json.
      this.log.warn(`could not resolve anchors: ${e instanceof Error ? e.message : String(e)}`);
      return NO_ANCHORS;
    });
    return { anchors, anchorsMs: performance.now() - anchorsStarted };
  }

  /** The finished check into the ResultsStore: a cancelled one's finished verdicts (the rest "not run"), or all. */
  private recordOutcome(outcome: CheckOutcome, signal: AbortSignal, finish: () => void): CheckAttempt {
    const { run } = outcome;
    if (signal.aborted) {
      // What finished stands; the rest says "not run" (not the previous check's verdicts, now out of date).
      const finishedCount = run.results.filter((r) => r.verdict !== 'skipped').length;
      this.log.info(`check cancelled after ${finishedCount} of ${run.results.length} specs`);
      finish();
      this.results.record(outcome, 'cancelled');
      const message = `Check cancelled: ${finishedCount} of ${run.results.length} specs finished.`;
      return { ran: false, reason: 'cancelled', message, partial: outcome };
    }
    const anchorsText = Number.isNaN(outcome.anchorsMs)
      ? 'anchors still resolving'
      : `anchors ${Math.round(outcome.anchorsMs)} ms`;
    this.log.info(`check finished in ${Math.round(outcome.durationMs)} ms (${anchorsText}, run ${run.id})`);
    // Idle before the results go out, so whoever renders them does not also show "running".
    finish();
    const update: ResultsUpdate = this.results.record(outcome);
    return { ran: true, outcome, newlyBroken: update.newlyBroken };
  }

  dispose(): void {
    this.started.dispose();
  }
}

/** No anchor resolved (the index failed, or none yet): diagnostics sit on the specs' entries in specs.json. */
const NO_ANCHORS: AnchorLocations = { bySpec: new Map(), problems: [], potential: [] };

/** What the settings and the request ask of checkWorkspace: which specs, how many at once, the baseline, coverage. */
function checkOptions(
  settings: WeaveSettings,
  request: CheckRequest,
): Omit<CheckWorkspaceOptions, 'workspaceDir' | 'signal' | 'onProgress'> {
  return {
    ...(request.only ? { only: [...request.only] } : {}),
    ...(settings.concurrency ? { concurrency: settings.concurrency } : {}),
    ...(settings.baseline ? { baselineRef: settings.baseline } : {}),
    ...(settings.timeoutSeconds ? { defaultTimeoutSeconds: settings.timeoutSeconds } : {}),
    ...(settings.retries > 0 ? { retries: settings.retries } : {}),
    coverage: request.coverage ?? settings.coverage,
    // The Coverage profile shows each spec's lines in today's files: coverage recorded on other content of
    // a file (changed only where the spec did not run) is recorded again rather than shown misplaced.
    ...(request.coverage ? { coverageOfCurrentFiles: true } : {}),
  };
}
