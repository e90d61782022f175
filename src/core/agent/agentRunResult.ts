// What one agent run hands back and leaves behind: the AgentRunResult that every view reads (the CLI, the
// result tab, the matrix, the bench), the per-spec verdict changes, and the stored copy under the run's
// folder (patch.diff, and result.json with the verdicts in brief and secrets redacted).
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SpecResult, Verdict } from '../check';
import type { InfrastructureFinding } from '../sandbox/diffPolicy/classifyChanges';
import type { Attempt } from '../../shared/attempts';
import type { SpecFile } from '../../shared/specSchema';
import type { StopReason } from './agentLoop';
import type { ReviewFinding } from './deterministicReview';
import type { ModelUsage } from '../model';
import type { ModelReview } from './modelReview';
import type { AgentTarget } from './prompt';

export interface VerdictChange {
  id: string;
  before: Verdict | 'not-run';
  after: Verdict | 'not-run';
}

export interface AgentRunResult {
  runId: string;
  target: AgentTarget;
  stopReason: StopReason;
  /** Why the run stopped early: the model's failure or the budget spent. */
  error?: string;
  finishSummary?: string;
  steps: number;
  usage: ModelUsage;
  durationMs: number;
  patch: string;
  changedFiles: string[];
  before: SpecResult[];
  after: SpecResult[];
  verdicts: VerdictChange[];
  findings: ReviewFinding[];
  modelReview?: ModelReview;
  /** False when the user opted out of the sandbox; then unsandboxedReason says why. */
  sandboxed: boolean;
  unsandboxedReason?: string;
  /** Spec ids whose runs (before, during or after the agent's work) changed protected files. */
  tamperedSpecs: string[];
  /**
   * What the run's code or the agent tried that the sandbox or the tools refused or contained (shared/attempts.ts):
   * any makes the result tampered, never applied. Absent in results stored before attempts were recorded.
   */
  attempts?: Attempt[];
  /**
   * The patch's changes to test infrastructure (a runner's configuration, a plugin entry point, a module that
   * shadows the runner): each makes the run tampered and the result never applicable. Empty when none.
   */
  testInfrastructure: InfrastructureFinding[];
  runDir: string;
  trajectoryFile: string;
  patchFile: string;
}

export function verdictChanges(
  specFile: SpecFile,
  before: SpecResult[],
  after: SpecResult[],
): VerdictChange[] {
  const b = new Map(before.map((r) => [r.id, r.verdict]));
  const a = new Map(after.map((r) => [r.id, r.verdict]));
  return specFile.specs.map((s) => ({
    id: s.id,
    before: b.get(s.id) ?? 'not-run',
    after: a.get(s.id) ?? 'not-run',
  }));
}

/** Spec results without their output: what the trajectory and result.json keep. */
export function briefResults(
  results: SpecResult[],
): Array<{ id: string; verdict: Verdict; reason?: string }> {
  return results.map((r) => ({ id: r.id, verdict: r.verdict, ...(r.reason ? { reason: r.reason } : {}) }));
}

/** Writes the run's patch.diff and result.json into its run folder. */
export async function storeRunResult(
  result: AgentRunResult,
  redact: (text: string) => string,
): Promise<void> {
  await fs.writeFile(result.patchFile, result.patch);
  const stored = { ...result, before: briefResults(result.before), after: briefResults(result.after) };
  await fs.writeFile(path.join(result.runDir, 'result.json'), redact(JSON.stringify(stored, null, 2)) + '\n');
}
