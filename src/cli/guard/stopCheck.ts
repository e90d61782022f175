// The Stop hook's question: are specs the session's changes can affect broken? The session's changes are the
// uncommitted ones (changes since HEAD); the affected specs are run (not recorded: a hook's run must not become
// a baseline) and compared with the baseline. A spec counts as broken when it passed in the baseline and fails
// now, or, with no baseline recorded yet, when it fails.
import { isFailing } from '../../core/check';
import { checkWorkspace } from '../../core/fullCheck';
import { affectedSpecIds } from '../../core/selection/selectAffected';
import { failureLines } from '../../mcp/checkTool';

export interface StopVerdict {
  /** Ids of the broken affected specs (empty: the agent may stop). */
  broken: string[];
  /** What to tell the agent. */
  reason: string;
}

export async function brokenAffectedSpecs(workspaceDir: string, signal?: AbortSignal): Promise<StopVerdict> {
  const affected = await affectedSpecIds({ workspaceDir, since: 'HEAD' });
  if (affected.length === 0) return { broken: [], reason: 'no spec is affected by the uncommitted changes' };
  const result = await checkWorkspace({
    workspaceDir,
    only: affected,
    record: false,
    ...(signal ? { signal } : {}),
  });
  const broken = result.run.results.filter((r) => {
    const change = result.report.changes[r.id];
    return isFailing(r.verdict) && (change === 'broken' || change === 'new' || result.baselineRun === null);
  });
  if (broken.length === 0)
    return { broken: [], reason: `the ${affected.length} affected spec(s) hold: ${affected.join(', ')}` };
  const details = broken.map((r) => {
    const lines = failureLines(r.output, 5).map((l) => `    ${l}`);
    return [`- ${r.id}: ${r.verdict}${r.reason ? ` (${r.reason})` : ''}`, ...lines].join('\n');
  });
  const reason =
    `Weave: ${broken.length} spec(s) affected by your changes are broken, so the task is not done:\n` +
    `${details.join('\n')}\n` +
    'Fix the code (never the spec tests or .weave/), then check again with `weave check --affected`.';
  return { broken: broken.map((r) => r.id), reason };
}
