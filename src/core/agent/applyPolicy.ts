// When an agent's result may reach the user's files. There is no override: a run that tried what the sandbox or
// the agent's tools refused or contained (attempts: agentAttempts.ts), a run whose patch changes test
// infrastructure (the diff policy), whose spec runs changed protected files or forged runner evidence (verdict
// `tampered`, at any point of the run), whose final check has a spec that passes without the runner's signed
// results (verdict `unverified`), whose patch carries Weave's state or a link out of the workspace
// (patchSafety.ts), or whose patch the deterministic review found in violation (protected files changed, tests
// deleted, skipped or weakened), is never applied — by the CLI's --apply, the extension's Apply button, or
// anything else going through applyAgentResult. (Its patch is still shown and saved, for the user to review.)
import { describeInfrastructureChange } from '../sandbox/diffPolicy/classifyChanges';
import { describeAttempts } from '../../shared/attempts';
import type { AgentRunResult } from './agentRunResult';
import { patchHazards } from './patchSafety';
import { applyPatchToWorkspace, PatchApplyError } from './workspacePatch';

type Appliable = Pick<
  AgentRunResult,
  'patch' | 'tamperedSpecs' | 'testInfrastructure' | 'after' | 'findings'
> &
  Pick<Partial<AgentRunResult>, 'attempts'>;

/** Why this result must not be applied, or undefined when it may be. */
export function applyRefusal(result: Appliable): string | undefined {
  if (result.testInfrastructure.length > 0)
    return `refused (tampered): ${describeInfrastructureChange(result.testInfrastructure)}`;
  const attempts = result.attempts ?? [];
  if (attempts.length > 0) {
    return `refused (tampered): the run tried what the sandbox or the agent's tools refused — ${describeAttempts(attempts)}`;
  }
  const tampered = new Set([
    ...result.tamperedSpecs,
    ...result.after.filter((r) => r.verdict === 'tampered').map((r) => r.id),
  ]);
  if (tampered.size > 0) {
    return `refused: the agent's code changed protected files or forged runner evidence while specs ran (tampered: ${[...tampered].sort().join(', ')})`;
  }
  const unverified = result.after.filter((r) => r.verdict === 'unverified').map((r) => r.id);
  if (unverified.length > 0) {
    return `refused: ${unverified.sort().join(', ')} pass${unverified.length === 1 ? 'es' : ''} only on a printed summary or the exit code, without the test runner's signed results (unverified)`;
  }
  const hazards = patchHazards(result.patch);
  if (hazards.length > 0) {
    return `refused: the patch ${hazards.map((h) => `${h.path} ${h.why}`).join('; ')}`;
  }
  const violations = result.findings.filter((f) => f.severity === 'error');
  if (violations.length > 0) {
    const checks = [...new Set(violations.map((f) => f.check))].join(', ');
    return `refused: the review found violations in the patch (${checks}); see the findings`;
  }
  return undefined;
}

/** Applies the result's patch to the workspace, unless applyRefusal forbids it (PatchApplyError either way). */
export async function applyAgentResult(workspaceDir: string, result: Appliable): Promise<void> {
  const refusal = applyRefusal(result);
  if (refusal) throw new PatchApplyError(refusal);
  await applyPatchToWorkspace(workspaceDir, result.patch);
}
