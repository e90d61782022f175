// `weave audit`'s output: progress per mutant on stderr; the per-spec table, the holes (surviving mutants with
// their diff) and the observed interactions on stdout.
import type { AuditProgress } from '../../core/audit/runAudit';
import type { AuditReport } from '../../core/audit/types';

export function printAuditProgress(event: AuditProgress): void {
  if (event.type === 'phase') process.stderr.write(`audit: ${event.message}\n`);
  else {
    const who = event.killedBy.length > 0 ? `killed by ${event.killedBy.join(', ')}` : 'SURVIVED';
    process.stderr.write(
      `  [${event.done}/${event.total}] ${event.mutant.file}:${event.mutant.line} ${event.mutant.operator}: ${who}\n`,
    );
  }
}

export function formatAudit(report: AuditReport): string {
  const lines: string[] = [];
  const width = Math.max(4, ...report.specs.map((s) => s.id.length));
  lines.push(`${'spec'.padEnd(width)}  mutants  killed  survived  timed-out  score`);
  for (const s of report.specs) {
    const score = s.score === null ? '  –' : `${Math.round(s.score * 100)}%`.padStart(4);
    const tag = s.vacuous ? '  VACUOUS' : s.note ? `  (${s.note})` : '';
    lines.push(
      `${s.id.padEnd(width)}  ${String(s.mutants).padStart(7)}  ${String(s.killed).padStart(6)}  ${String(s.survived).padStart(8)}  ${String(s.timedOut).padStart(9)}  ${score}${tag}`,
    );
  }
  for (const s of report.specs.filter((x) => x.survivors.length > 0)) {
    lines.push('', `Holes in ${s.id} (mutants its test does not notice):`);
    for (const v of s.survivors) {
      lines.push(`  ${v.file}:${v.line}:${v.column} ${v.operator}: \`${v.original}\` → \`${v.replacement}\``);
      lines.push(...v.diff.split('\n').map((l) => `      ${l}`));
    }
  }
  if (report.observed.length > 0) {
    lines.push('', 'Observed interactions (mutants killed by both specs):');
    for (const o of report.observed)
      lines.push(`  ${o.a} ↔ ${o.b}: ${o.mutants} mutant(s), e.g. ${o.examples[0]!}`);
  }
  const t = report.totals;
  lines.push(
    '',
    `${t.ran} of ${t.selected} selected mutants run (${t.generated} generated), ${t.testRuns} test runs, ` +
      `${(t.durationMs / 1000).toFixed(1)} s, ${t.mutantsPerSecond} mutants/s` +
      (t.stoppedBy ? ` — stopped by the ${t.stoppedBy === 'cancelled' ? 'cancel' : 'time budget'}` : ''),
  );
  return lines.join('\n') + '\n';
}
