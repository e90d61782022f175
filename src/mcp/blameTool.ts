// weave_blame: which hunks of the diff since the baseline break a spec (delta debugging in src/core/blame), each
// with its diff and the specs anchored where it lands. It runs the spec's test many times: refused where the
// workspace is not trusted for running.
import { indexWorkspace } from '../core/anchors/anchoredWorkspace';
import { blameSpec } from '../core/blame/blame';
import { refusalFor, ToolRefusal, type RunningToolOptions, type ToolOutput } from './toolContract';
import type { BlameInput } from './toolSchemas';

export interface BlameToolResult {
  /** What a model reads first: which hunks break the spec and the next step. */
  summary: string;
  spec: string;
  baselineCommit: string;
  minimal: boolean;
  runs: number;
  hunks: Array<{ file: string; location: string; symbols: string[]; madeFor: string[]; diff: string }>;
  explanation: string[];
}

export async function blameBrokenSpec(
  workspaceDir: string,
  input: BlameInput,
  options: RunningToolOptions,
): Promise<ToolOutput<BlameToolResult>> {
  if (!options.policy.allowed) throw new ToolRefusal(options.policy.reason);
  try {
    const r = await blameSpec({
      workspaceDir,
      specId: input.spec,
      loadIndex: (dir, signal) => indexWorkspace(dir, signal ? { signal } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const head =
      `${r.specId} is broken (${r.brokenVerdict}) since ${r.baseline.commit.slice(0, 12)}: ` +
      `${r.hunks.length} of ${r.totalHunks} hunk(s) break it${r.minimal ? '' : ' (not minimal: run budget reached)'}`;
    const where = r.hunks.map((h) => h.location).join(', ');
    const summary =
      r.hunks.length > 0
        ? `${head} (${where}). Next: rework those hunks so ${r.specId} passes again, then call weave_check.`
        : `${head}. Next: call weave_check to see the failure; no single hunk explains it.`;
    const structured: BlameToolResult = {
      summary,
      spec: r.specId,
      baselineCommit: r.baseline.commit,
      minimal: r.minimal,
      runs: r.runs,
      hunks: r.hunks.map((h) => ({
        file: h.file,
        location: h.location,
        symbols: h.symbols,
        madeFor: h.anchoredBy,
        diff: h.diff,
      })),
      explanation: r.explanation,
    };
    const text = [summary, ...r.hunks.flatMap((h, i) => [r.explanation[i] ?? h.location, h.diff])].join('\n');
    return { structured, text };
  } catch (error) {
    throw refusalFor(error);
  }
}
