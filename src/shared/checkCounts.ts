// One count of the check state, which the status bar (extension host) and the side panel's summary line (webview)
// both render, so they show the same numbers at every moment: each spec of the file has one status, a spec being
// checked now is "queued" or "running" and never counts with the verdict it had before (the restored run's, or an
// earlier check's), and the run the verdicts came from is named only while no check replaces it. They once
// disagreed mid-check ("Weave 6/8 · 1 broken · 1 failing · checking 2/8" beside "8 specs · checking 2/8 · 2 pass ·
// 1 running · 5 queued"): the status bar counted the old verdicts of the specs the check was running again.
// Plain data and pure functions, shared with the webview bundle: no 'vscode', no Node.
import { ageText } from './runAge';
import type { Verdict } from './verdicts';

/** What a spec shows: the change against the baseline (broken / fixed) wins over the plain verdict. */
export type SpecStatus = Verdict | 'broken' | 'fixed' | 'queued' | 'running' | 'unchecked';

/** Where the verdicts shown came from: a check of this window, one that was cancelled, or .weave/runs/. */
export type RunOrigin = 'check' | 'cancelled' | 'restored';

/** The state both surfaces count from (the panel's PanelState holds it, under the spec file's specs). */
export interface CheckView {
  /** The specs the spec file holds now, in file order: what is counted (a spec added on disk counts at once). */
  specIds: readonly string[];
  /** The latest known verdict per spec id (a spec without one was never checked). */
  verdicts: Readonly<Record<string, { verdict: Verdict } | undefined>>;
  /** Changes against the baseline, only where they describe the verdict shown ("broken" only of a failure). */
  changes: Readonly<Record<string, string | undefined>>;
  /** Specs of the check in progress whose test runs now, and those waiting for a slot (empty when idle). */
  running: readonly string[];
  queued: readonly string[];
  /** How far the check in progress is; null when idle. */
  progress: { done: number; total: number } | null;
  /** The run the verdicts come from (null: nothing checked nor restored yet). */
  lastRun: { finishedAt: string; origin: RunOrigin } | null;
}

/** The panel's state (PanelState, before or after parsing its defaults) as the CheckView it counts from. */
export function panelCheckView(state: {
  specs: ReadonlyArray<{ id: string }>;
  verdicts: CheckView['verdicts'];
  changes: CheckView['changes'];
  running: readonly string[];
  queued?: readonly string[] | undefined;
  progress?: CheckView['progress'] | undefined;
  lastRun?: CheckView['lastRun'] | undefined;
}): CheckView {
  return {
    specIds: state.specs.map((s) => s.id),
    verdicts: state.verdicts,
    changes: state.changes,
    running: state.running,
    queued: state.queued ?? [],
    progress: state.progress ?? null,
    lastRun: state.lastRun ?? null,
  };
}

export function specStatus(
  view: Pick<CheckView, 'verdicts' | 'changes' | 'running' | 'queued'>,
  id: string,
): SpecStatus {
  if (view.running.includes(id)) return 'running';
  if (view.queued.includes(id)) return 'queued';
  const change = view.changes[id];
  if (change === 'broken' || change === 'fixed') return change;
  return view.verdicts[id]?.verdict ?? 'unchecked';
}

/** The status bar's groups: each status in exactly one, broken before its verdict; queued and running in none. */
export type StatusGroup = 'passed' | 'broken' | 'failing' | 'flaky' | 'not run' | 'unchecked' | 'checking';

export function groupOf(status: SpecStatus): StatusGroup {
  switch (status) {
    case 'pass':
    case 'fixed':
      return 'passed';
    case 'broken':
      return 'broken';
    case 'flaky':
      return 'flaky';
    case 'skipped':
      return 'not run';
    case 'unchecked':
      return 'unchecked';
    case 'queued':
    case 'running':
      return 'checking';
    // fail, error, blocked, tampered, unverified: the spec does not hold (blocked: its dependency failed).
    default:
      return 'failing';
  }
}

export interface RunCounts {
  total: number;
  passed: number;
  /** Passed in the baseline and fail now. */
  broken: number;
  /** Every other spec that does not hold: fail, error, tampered, blocked, unverified (never counted again as broken). */
  failing: number;
  /** Passed and failed on the same tree (repeats, or a new failure that passed when run again). */
  flaky: number;
  /** Skipped: the check was cancelled before the spec's test ran (or a dependency was). */
  notRun: number;
  /** In the spec file but never checked (added since the last check). */
  unchecked: number;
}

export interface CheckCounts extends RunCounts {
  /** Queued or running in the check in progress: counted in no verdict group. */
  checking: number;
  /** Each status with how many specs have it, in the order the spec file first shows it (the panel lists them). */
  byStatus: ReadonlyArray<readonly [SpecStatus, number]>;
  /** How far the check in progress is; null when idle. */
  progress: { done: number; total: number } | null;
  /** The finished run the verdicts come from, unless a check runs now (it replaces that run: never both). */
  shownRun: { finishedAt: string; origin: RunOrigin } | null;
}

export function checkCounts(view: CheckView): CheckCounts {
  const counts = {
    total: view.specIds.length,
    passed: 0,
    broken: 0,
    failing: 0,
    flaky: 0,
    notRun: 0,
    unchecked: 0,
    checking: 0,
  };
  const byStatus = new Map<SpecStatus, number>();
  for (const id of view.specIds) {
    const status = specStatus(view, id);
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    const group = groupOf(status);
    if (group === 'not run') counts.notRun++;
    else counts[group]++;
  }
  return {
    ...counts,
    byStatus: [...byStatus],
    progress: view.progress,
    shownRun: view.progress ? null : view.lastRun,
  };
}

/** "Weave 5/11 · 1 broken · 4 failing · 1 flaky · 1 not run · 1 unchecked": passes of all, then each group that is not empty. */
export function statusText(counts: RunCounts): string {
  const parts = [`Weave ${counts.passed}/${counts.total}`];
  if (counts.broken > 0) parts.push(`${counts.broken} broken`);
  if (counts.failing > 0) parts.push(`${counts.failing} failing`);
  if (counts.flaky > 0) parts.push(`${counts.flaky} flaky`);
  if (counts.notRun > 0) parts.push(`${counts.notRun} not run`);
  if (counts.unchecked > 0) parts.push(`${counts.unchecked} unchecked`);
  return parts.join(' · ');
}

/** "checking 3/9" while a check runs; nothing otherwise. */
export function progressText(counts: Pick<CheckCounts, 'progress'>): string | undefined {
  const p = counts.progress;
  return p && p.total > 0 ? `checking ${p.done}/${p.total}` : undefined;
}

/**
 * "18 min ago" of a restored run, "check cancelled just now" of a cancelled one: said while those verdicts are what
 * is shown (never while a check runs). Nothing for a finished check of this window.
 */
export function shownRunText(counts: Pick<CheckCounts, 'shownRun'>, now: Date): string | undefined {
  const run = counts.shownRun;
  if (!run || run.origin === 'check') return undefined;
  const age = ageText(run.finishedAt, now);
  return run.origin === 'restored' ? `last run ${age} (restored)` : `check cancelled ${age}`;
}

/** A status in words, as the panel's badges say it ("not run" for skipped). */
export function statusWord(status: SpecStatus): string {
  return status === 'skipped' ? 'not run' : status;
}

/** The status bar's text (without its icon): "Weave 6/8 · 1 broken · 1 failing · 18 min ago", "Weave 2/8 · checking 2/8". */
export function statusBarText(counts: CheckCounts, now: Date): string {
  const parts = [statusText(counts)];
  const run = counts.shownRun;
  // A restored run says its age; a cancelled one says "· 2 not run" already.
  if (run?.origin === 'restored') parts.push(ageText(run.finishedAt, now));
  const progress = progressText(counts);
  if (progress) parts.push(progress);
  return parts.join(' · ');
}

/** The side panel's summary line: "8 specs · checking 2/8 · 2 pass · 1 running · 5 queued", then whose run it is. */
export function panelSummaryText(
  counts: CheckCounts,
  now: Date,
  word: (status: SpecStatus) => string = statusWord,
): string {
  const parts = [`${counts.total} spec${counts.total === 1 ? '' : 's'}`];
  const progress = progressText(counts);
  if (progress) parts.push(progress);
  for (const [status, n] of counts.byStatus) parts.push(`${n} ${word(status)}`);
  const run = shownRunText(counts, now);
  if (run) parts.push(run);
  return parts.join(' · ');
}
