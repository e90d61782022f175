// `weave draft`'s output: progress on stderr; the kept drafts with their verification, the rejected ones with
// the reason and the review of the set on stdout, or the --json document.
import type { DraftProgress, DraftResult } from '../../core/draft/runDraft';

export function printDraftProgress(event: DraftProgress): void {
  if (event.type === 'phase') process.stderr.write(`draft: ${event.message}\n`);
  else if (event.type === 'step')
    process.stderr.write(
      `draft: step ${event.step}/${event.maxSteps} · ${event.tokens.toLocaleString('en')} tokens\n`,
    );
  else process.stderr.write(`  ${event.kept ? '✓' : '✗'} ${event.message.split('\n')[0]}\n`);
}

export function draftJson(result: DraftResult, accepted: string[] | undefined): unknown {
  return {
    kept: result.kept.map((k) => ({
      ...k.specInput,
      goal: k.verification.goal,
      verification: k.verification,
      testFiles: k.testFiles,
    })),
    rejected: result.rejected,
    review: result.review,
    stopReason: result.stopReason,
    ...(result.error ? { error: result.error } : {}),
    ...(accepted ? { accepted } : {}),
    trajectoryFile: result.trajectoryFile,
  };
}

export function formatDraft(result: DraftResult, accepted: string[] | undefined): string {
  const lines: string[] = [];
  lines.push(`Kept ${result.kept.length} draft(s):`);
  for (const k of result.kept) {
    const v = k.verification;
    lines.push(
      `  ✓ ${k.spec.id} (${k.spec.kind}${v.goal ? ', goal: fails now by an assertion' : ''}): ${k.spec.statement}`,
    );
    lines.push(
      `      test: ${k.spec.test.command} — ${v.tests} test(s), ${v.runner}, ${v.repeats.join('/')}` +
        (v.killedExample ? `; kills ${v.killedExample}` : ''),
    );
  }
  if (result.rejected.length > 0) {
    lines.push('', `Rejected ${result.rejected.length}:`);
    for (const r of result.rejected) lines.push(`  ✗ ${r.id} (${r.stage}): ${r.reason.split('\n')[0]}`);
  }
  const review = result.review;
  lines.push('', 'Review of the set:');
  if (
    review.uncoveredGoalParts.length === 0 &&
    review.missingEdges.length === 0 &&
    review.contradictions.length === 0
  )
    lines.push('  nothing to report');
  for (const g of review.uncoveredGoalParts) lines.push(`  goal not covered (${g.source}): ${g.text}`);
  for (const e of review.missingEdges)
    lines.push(`  undeclared interaction ${e.a} ↔ ${e.b} (${e.source}): ${e.why}`);
  for (const c of review.contradictions)
    lines.push(`  contradiction ${c.a} ↔ ${c.b} (${c.source}): ${c.why}`);
  if (!review.model.ok && 'error' in review.model)
    lines.push(`  model review unavailable: ${review.model.error}`);
  lines.push(
    '',
    `Stopped: ${result.stopReason}${result.error ? ` (${result.error})` : ''} after ${result.steps} step(s)`,
  );
  if (accepted) lines.push(`Accepted into .weave/specs.json: ${accepted.join(', ')}`);
  else if (result.kept.length > 0)
    lines.push('Nothing written: pass --accept to add the kept drafts to your workspace.');
  return lines.join('\n') + '\n';
}
