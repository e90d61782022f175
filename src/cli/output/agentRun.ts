// `weave agent`'s output: progress lines on stderr, the verdict table (before → after), review and patch on
// stdout, or the --json document.
import path from 'node:path';
import { applyRefusal } from '../../core/agent/applyPolicy';
import type { AgentRunResult } from '../../core/agent/agentRunResult';
import type { AgentProgress } from '../../core/agent/runAgent';
import { findingLabel } from '../../core/sandbox/diffPolicy/classifyChanges';
import { describeAttempt } from '../../shared/attempts';

export function printAgentProgress(event: AgentProgress): void {
  const tag = `[${event.target}]`;
  if (event.type === 'phase') process.stderr.write(`${tag} ${event.message}\n`);
  else if (event.type === 'step') {
    process.stderr.write(
      `${tag} step ${event.step}/${event.maxSteps} · ${event.tokens.toLocaleString('en')} tokens\n`,
    );
  } else process.stderr.write(`${tag}   ${event.ok ? '✓' : '✗'} ${event.name}: ${event.summary}\n`);
}

export function formatAgentRun(
  result: AgentRunResult,
  workspaceDir: string,
  applied: string | undefined,
): string {
  const lines: string[] = [];
  const width = Math.max(4, ...result.verdicts.map((v) => v.id.length));
  lines.push(`${'spec'.padEnd(width)}  before   →  after`);
  for (const v of result.verdicts) {
    const mark =
      v.after === 'tampered'
        ? '  TAMPERED'
        : v.before === 'pass' && v.after !== 'pass'
          ? '  BROKEN'
          : v.before !== 'pass' && v.after === 'pass'
            ? '  fixed'
            : '';
    const review = result.modelReview?.ok ? result.modelReview.specs.find((s) => s.id === v.id) : undefined;
    lines.push(
      `${v.id.padEnd(width)}  ${v.before.padEnd(7)}  →  ${v.after.padEnd(7)}${mark}${review ? `  review: ${review.verdict} — ${review.evidence}` : ''}`,
    );
  }
  lines.push('');
  lines.push(
    `Stopped: ${result.stopReason}${result.error ? ` (${result.error})` : ''} after ${result.steps} step(s), ` +
      `${result.usage.totalTokens.toLocaleString('en')} tokens, ${(result.durationMs / 1000).toFixed(1)} s`,
  );
  if (result.finishSummary) lines.push(`Agent's summary: ${result.finishSummary}`);
  lines.push(
    result.sandboxed
      ? 'Sandbox: every spec run was contained (bubblewrap: own checkout, no network, private PID namespace).'
      : `Sandbox: NONE — ${result.unsandboxedReason ?? 'unsandboxed'}; the agent's code ran with your permissions.`,
  );
  for (const f of result.testInfrastructure)
    lines.push(`Tampering: the patch changes test infrastructure: ${findingLabel(f)} (${f.why}).`);
  if (result.tamperedSpecs.length > 0)
    lines.push(
      `Tampering: spec runs changed protected files or forged runner evidence (${result.tamperedSpecs.join(', ')}); changed files were restored.`,
    );
  for (const a of result.attempts ?? [])
    lines.push(`Attempt (tampered): ${describeAttempt(a)} [${a.kind}, ${a.at}].`);
  if (result.modelReview && !result.modelReview.ok)
    lines.push(`Model review unavailable: ${result.modelReview.error}`);
  if (result.findings.length > 0) {
    lines.push('', 'Review findings:');
    for (const f of result.findings) {
      lines.push(
        `  ${f.severity === 'error' ? '✗' : '!'} ${f.check}${f.file ? ` ${f.file}${f.line ? `:${f.line}` : ''}` : ''}: ${f.message}`,
      );
    }
  } else {
    lines.push('Review findings: none');
  }
  lines.push('', `Trajectory: ${path.relative(workspaceDir, result.trajectoryFile)}`);
  if (result.patch.trim() === '') lines.push('The agent changed nothing.');
  else {
    lines.push(`Patch (${result.changedFiles.join(', ')}): ${path.relative(workspaceDir, result.patchFile)}`);
    if (applied === 'applied') lines.push('Applied to your workspace.');
    else if (applied === 'not-applied')
      lines.push('NOT applied: it does not apply cleanly to your workspace any more.');
    else if (applied === 'refused' || applyRefusal(result))
      lines.push(`NOT applicable: ${applyRefusal(result) ?? ''}.`, '', result.patch.trimEnd());
    else lines.push('Not applied (use --apply, or `git apply` the patch file).', '', result.patch.trimEnd());
  }
  return lines.join('\n') + '\n';
}

export function agentRunJson(result: AgentRunResult, applied: string | undefined): unknown {
  const brief = (list: AgentRunResult['before']) =>
    list.map((r) => ({ id: r.id, verdict: r.verdict, ...(r.reason ? { reason: r.reason } : {}) }));
  return {
    ...result,
    before: brief(result.before),
    after: brief(result.after),
    ...(applied ? { applied } : {}),
  };
}
