// weave_affected: which specs the changes since a commit can affect, each with the reasons it was selected
// (src/core/selection/affected.ts decides). Nothing runs but git, yet that is refused in an untrusted workspace.
import { selectAffected } from '../core/selection/selectAffected';
import { refusalFor, ToolRefusal, type RunPolicy, type ToolOutput } from './toolContract';
import type { AffectedInput } from './toolSchemas';

export interface AffectedToolResult {
  /** What a model reads first: how many specs are affected and the next step. */
  summary: string;
  source: string;
  all: boolean;
  allReasons: string[];
  affected: Array<{ id: string; reasons: string[] }>;
  unaffected: string[];
  changes: Array<{ path: string; status: string }>;
}

export async function affectedSpecs(
  workspaceDir: string,
  input: AffectedInput,
  policy: RunPolicy,
): Promise<ToolOutput<AffectedToolResult>> {
  // The changes come from git, which an untrusted repository's config can make run commands.
  if (!policy.allowed) throw new ToolRefusal(policy.reason);
  try {
    const r = await selectAffected({ workspaceDir, since: input.since ?? 'HEAD' });
    const summary =
      r.changes.length === 0
        ? `No changes (${r.source}): no spec is affected. Next: nothing to check.`
        : `${r.changes.length} changed file(s) (${r.source}): ${r.affected.length} of ${r.specCount} specs affected` +
          `${r.affected.length > 0 ? ` (${r.affected.map((s) => s.id).join(', ')})` : ''}. Next: ` +
          (r.affected.length > 0 ? 'call weave_check {affected: true} to run them.' : 'nothing to check.');
    const structured: AffectedToolResult = {
      summary,
      source: r.source,
      all: r.all,
      allReasons: r.allReasons,
      affected: r.affected,
      unaffected: r.unaffected,
      changes: r.changes.map((c) => ({ path: c.path, status: c.status })),
    };
    const lines = [
      summary,
      ...(r.all ? r.allReasons.map((x) => `every spec is selected: ${x}`) : []),
      ...r.affected.flatMap((s) => [`${s.id}`, ...s.reasons.map((x) => `    ${x}`)]),
      ...(r.unaffected.length > 0 ? [`not affected: ${r.unaffected.join(', ')}`] : []),
    ];
    return { structured, text: lines.join('\n') };
  } catch (error) {
    throw refusalFor(error);
  }
}
