// What a spec's badge says: the change against the baseline (broken / fixed) wins over the plain verdict,
// because "this passed before and fails now" is the news.
import type { ParsedPanelState } from '../../src/shared/protocol';
import { specStatus, type SpecStatus } from '../../src/shared/checkCounts';

export type { SpecStatus } from '../../src/shared/checkCounts';

/**
 * Each verdict's icon and word: the panel never says a verdict by colour alone (high-contrast themes draw
 * every row in the same few colours), so the icon's shape and the word carry it.
 */
export const STATUS_LOOK: Record<SpecStatus, { icon: string; label: string }> = {
  pass: { icon: 'pass', label: 'pass' },
  fail: { icon: 'error', label: 'fail' },
  error: { icon: 'warning', label: 'error' },
  blocked: { icon: 'circle-slash', label: 'blocked' },
  skipped: { icon: 'debug-step-over', label: 'not run' },
  flaky: { icon: 'question', label: 'flaky' },
  tampered: { icon: 'shield', label: 'tampered' },
  unverified: { icon: 'unverified', label: 'unverified' },
  broken: { icon: 'flame', label: 'broken' },
  fixed: { icon: 'check-all', label: 'fixed' },
  queued: { icon: 'watch', label: 'queued' },
  running: { icon: 'loading', label: 'running' },
  unchecked: { icon: 'circle-large-outline', label: 'unchecked' },
};

/** The one rule the status bar counts by too (src/shared/checkCounts.ts): running / queued, broken / fixed, verdict. */
export function statusOf(state: ParsedPanelState, id: string): SpecStatus {
  return specStatus(state, id);
}

/** The verdicts "Failing only" keeps: a spec that needs the user's attention (blocked: its dependency failed). */
const FAILING: ReadonlySet<SpecStatus> = new Set(['fail', 'broken', 'error', 'tampered', 'flaky', 'blocked']);

export function isFailing(status: SpecStatus): boolean {
  return FAILING.has(status);
}
