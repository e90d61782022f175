// `weave audit`: mutation adequacy per spec. Progress goes to stderr; the per-spec table and the holes (surviving
// mutants with their diff) to stdout, or one JSON document with --json. The report is stored as the last audit
// (.weave/cache/audit.json), which `weave graph` reads for observed interactions.
import { trapInterrupts } from '../interrupt';
import path from 'node:path';
import {
  DEFAULT_AUDIT_TIME_BUDGET_SECONDS,
  DEFAULT_MAX_MUTANTS,
  runAudit,
  type AuditProgress,
} from '../../core/audit/runAudit';
import { saveAuditReport } from '../../core/audit/report';
import type { AuditReport } from '../../core/audit/types';
import { loadAnchoredWorkspace } from '../../core/anchors/anchoredWorkspace';
import { parseVerbFlags, wholeNumberFlags, WORKSPACE_FLAG } from '../flags';
import { printProblems } from '../output/problems';
import type { Verb } from '../verb';

const HELP = `Usage: weave audit [--only ID,…] [--json] [--max-mutants N] [options]

Mutation testing per spec: does each spec's test notice when the code it is about changes? Weave makes small
changes (mutants) to the code each spec anchors — comparisons flipped (> to >=), arithmetic and boolean operators
swapped, constants off by one, conditions negated, return values replaced, statements deleted — and runs the
spec's test against each, in scratch checkouts (your files are never touched). A mutant the test does not notice
is a hole; a spec that notices none is vacuous (it passes whatever the code does). Mutants that several specs
notice are observed interactions, shown by \`weave graph\`.

Options:
  --only ID,…              audit these specs only
  --max-mutants N          mutants to run at most, shared fairly between the specs (default ${DEFAULT_MAX_MUTANTS})
  --time-budget-seconds N  stop starting mutants after N seconds (default ${DEFAULT_AUDIT_TIME_BUDGET_SECONDS})
  --concurrency N          scratch checkouts working at once (default min(4, CPUs))
  --every-spec             run every mutant against every spec, not only the specs exercising its code
  --workspace DIR          the workspace folder (default: the current directory)
  --json                   print {specs: [{id, mutants, killed, survived, timedOut, score, vacuous,
                           survivors: [{file, line, column, operator, diff}]}], observed, totals}
  -h, --help               show this help

Which code a spec exercises: its anchors (file or file#Symbol); a spec without anchors gets the source files
its test imports. Specs that do not pass on the current code are reported, not audited.

Exit codes: 0 no spec is vacuous, 1 a spec is vacuous (or the audit was cancelled), 2 bad input.`;

export const auditVerb: Verb = {
  name: 'audit',
  summary: 'Mutation-test every spec: find vacuous specs and the changes no spec notices',
  help: HELP,
  async run(args) {
    const flags = parseVerbFlags('audit', args, {
      only: { type: 'string' },
      'max-mutants': { type: 'string' },
      'time-budget-seconds': { type: 'string' },
      concurrency: { type: 'string' },
      'every-spec': { type: 'boolean', default: false },
      ...WORKSPACE_FLAG,
      json: { type: 'boolean', default: false },
    });
    const numbers = wholeNumberFlags(flags, ['max-mutants', 'time-budget-seconds', 'concurrency']);
    const interrupt = trapInterrupts('audit', 'cancelling (restoring and removing scratch checkouts)…');
    const abort = { signal: interrupt.signal };
    try {
      const ws = await loadAnchoredWorkspace(path.resolve(flags.workspace));
      printProblems(ws.anchorProblems);
      const only = flags.only
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const report = await runAudit({
        ws,
        ...(only ? { only } : {}),
        ...(numbers['max-mutants'] !== undefined ? { maxMutants: numbers['max-mutants'] } : {}),
        ...(numbers['time-budget-seconds'] !== undefined
          ? { timeBudgetSeconds: numbers['time-budget-seconds'] }
          : {}),
        ...(numbers.concurrency !== undefined ? { concurrency: numbers.concurrency } : {}),
        prune: !flags['every-spec'],
        signal: abort.signal,
        onProgress: printProgress,
      });
      if (!abort.signal.aborted) await saveAuditReport(ws.workspaceDir, report);
      if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else process.stdout.write(formatAudit(report));
      return abort.signal.aborted || report.specs.some((s) => s.vacuous) ? 1 : 0;
    } finally {
      interrupt.dispose();
    }
  },
};

function printProgress(event: AuditProgress): void {
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
