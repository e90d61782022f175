// `weave audit`: mutation adequacy per spec. Progress goes to stderr; the per-spec table and the holes (surviving
// mutants with their diff) to stdout, or one JSON document with --json. The report is stored as the last audit
// (.weave/cache/audit.json), which `weave graph` reads for observed interactions.
import { trapInterrupts } from '../interrupt';
import path from 'node:path';
import { DEFAULT_AUDIT_TIME_BUDGET_SECONDS, DEFAULT_MAX_MUTANTS, runAudit } from '../../core/audit/runAudit';
import { saveAuditReport } from '../../core/audit/report';
import { loadAnchoredWorkspace } from '../../core/anchors/anchoredWorkspace';
import { commaList, parseVerbFlags, wholeNumberFlags, WORKSPACE_FLAG } from '../flags';
import { printProblems } from '../output/problems';
import { formatAudit, printAuditProgress } from '../output/auditReport';
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

Exit codes: 0 no spec is vacuous, 1 a spec is vacuous, 2 bad input; stopped by Ctrl-C, SIGTERM or SIGHUP
(after removing the scratch checkouts): 130, 143 or 129.`;

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
    const numbers = wholeNumberFlags('audit', flags, ['max-mutants', 'time-budget-seconds', 'concurrency']);
    const interrupt = trapInterrupts('audit', 'cancelling (restoring and removing scratch checkouts)…');
    const abort = { signal: interrupt.signal };
    try {
      const ws = await loadAnchoredWorkspace(path.resolve(flags.workspace));
      printProblems(ws.anchorProblems);
      const only = commaList(flags.only);
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
        onProgress: printAuditProgress,
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
