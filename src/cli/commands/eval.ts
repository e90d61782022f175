// `weave eval`: scores predictions on exported tasks and writes a SWE-bench-shaped report (core/tasks/eval/evalTasks.ts).
import { trapInterrupts } from '../interrupt';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  defaultWorkers,
  evaluate,
  type EvalReport,
  type InstanceReport,
} from '../../core/tasks/eval/evalTasks';
import { scoringEnvironment, SCORING_ENVIRONMENTS } from '../../core/tasks/eval/dockerScoring';
import { parseVerbFlags, takeList, wholeNumber, withHelpHint } from '../flags';
import type { Verb } from '../verb';

const HELP = `Usage: weave eval --tasks DIR... (--predictions FILE | --gold) [options]

Scores patches on tasks written by \`weave export\`. Each instance runs in its own scratch clone of the task's
base.bundle: the patch is applied (git apply, then git apply --3way, then patch --fuzz=3; the report says which
worked), the spec test files are reset and test.patch applied, and eval.sh runs every spec test.
An instance is resolved when every FAIL_TO_PASS spec passes and every PASS_TO_PASS spec still passes.
tests_status lists, split into success (passes now) / failure: FAIL_TO_PASS and PASS_TO_PASS (the task's lists),
FAIL_TO_FAIL and PASS_TO_FAIL (observed against base + test.patch; PASS_TO_FAIL = constraints the patch broke).

Options:
  --tasks DIR...          task folders, or folders of task folders (several may follow one --tasks)
  --predictions FILE      SWE-bench predictions: JSONL (or a JSON array) of {instance_id, model_name_or_path, model_patch}
  --gold                  score each task's gold.patch instead (checks the tasks themselves)
  --workers N             instances evaluated at once (default: ${defaultWorkers()})
  --timeout-seconds N     per instance (default: the sum of its spec timeouts + set-up allowance); the whole
                          process tree is killed when it runs out
  --env sandbox|docker    where each prediction is scored: sandbox (default) runs eval.sh in bubblewrap; docker
                          builds the task's Harbor environment (harbor/environment, from --format both) and runs
                          Harbor's order in it with --network none: the patch, then tests/ and tests/test.sh —
                          the score Harbor would give. Needs a Docker engine that answers (DOCKER_HOST)
  --out FILE              write the report as JSON to FILE (and each instance's eval.sh log to FILE's .logs/ folder)
  --json                  print the report as JSON instead of the summary table
  -h, --help              show this help

Bad input never stops the run: a malformed predictions line (reported with its line number), an unknown
instance_id, an empty patch, a patch that does not apply, a patch that edits spec test files (flagged, and
the edits discarded), a hanging spec, a task folder with a missing file — each is an entry in the report.

Exit codes: 0 every submitted instance was scored, 1 some input problem or instance error, 2 bad flags or no task.

Examples:
  weave eval --tasks tasks/ --gold
  weave eval --tasks tasks/a tasks/b --predictions preds.jsonl --workers 4 --out report.json`;

export const evalVerb: Verb = {
  name: 'eval',
  summary: 'Score predictions (SWE-bench JSONL) on exported tasks; resolved, PASS_TO_FAIL, compliance',
  help: HELP,
  async run(args) {
    const { list: taskDirs, rest } = takeList(args, '--tasks');
    const flags = parseVerbFlags('eval', rest, {
      predictions: { type: 'string' },
      gold: { type: 'boolean', default: false },
      workers: { type: 'string' },
      'timeout-seconds': { type: 'string' },
      env: { type: 'string', default: 'sandbox' },
      out: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    if (taskDirs.length === 0) throw withHelpHint('eval', '--tasks DIR... is required');
    const env = scoringEnvironment(flags.env);
    if (env === undefined)
      throw withHelpHint(
        'eval',
        `--env must be one of ${SCORING_ENVIRONMENTS.join(', ')}, got '${flags.env}'`,
      );
    if (flags.gold === (flags.predictions !== undefined))
      throw withHelpHint('eval', 'give exactly one of --predictions FILE and --gold');
    const workers = wholeNumber('eval', 'workers', flags.workers);
    const timeout = wholeNumber('eval', 'timeout-seconds', flags['timeout-seconds']);

    const interrupt = trapInterrupts('eval', 'stopping (killing prediction runs, removing scratch folders)…');
    const controller = { signal: interrupt.signal };
    try {
      const outFile = flags.out;
      const report = await evaluate({
        taskDirs,
        ...(flags.predictions === undefined ? {} : { predictionsFile: flags.predictions }),
        gold: flags.gold,
        env,
        ...(workers === undefined ? {} : { workers }),
        ...(timeout === undefined ? {} : { timeoutSeconds: timeout }),
        ...(outFile === undefined ? {} : { logsDir: logsDirFor(outFile) }),
        signal: controller.signal,
        ...(flags.json
          ? {}
          : {
              onSetupProgress: (message: string) => process.stderr.write(`${message}\n`),
              onInstanceDone: (r: InstanceReport, done: number, total: number) =>
                process.stderr.write(`[${done}/${total}] ${r.instance_id}: ${instanceLine(r)}\n`),
            }),
      });
      if (outFile !== undefined) {
        await fs.mkdir(path.dirname(path.resolve(outFile)), { recursive: true });
        await fs.writeFile(outFile, `${JSON.stringify(report, null, 2)}\n`);
      }
      process.stdout.write(
        flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report, outFile),
      );
      return report.problems.length > 0 || report.error_instances > 0 ? 1 : 0;
    } finally {
      interrupt.dispose();
    }
  },
};

function logsDirFor(outFile: string): string {
  const parsed = path.parse(outFile);
  return path.join(parsed.dir, `${parsed.name}.logs`);
}

function instanceLine(r: InstanceReport): string {
  const state = r.resolved ? 'resolved' : 'not resolved';
  const broke = r.tests_status.PASS_TO_FAIL.failure;
  const parts = [state, `${r.compliance.passed}/${r.compliance.total} specs pass`];
  if (r.patch_applied_with !== null && r.patch_applied_with !== 'none')
    parts.push(`applied with ${r.patch_applied_with}`);
  if (broke.length > 0) parts.push(`broke ${broke.join(', ')}`);
  if (r.edits_spec_tests.length > 0) parts.push(`EDITS SPEC TESTS ${r.edits_spec_tests.join(', ')}`);
  if (r.test_infrastructure !== undefined)
    parts.push(
      `TAMPERED: changes test infrastructure ${r.test_infrastructure.map((f) => (f.key === undefined ? f.path : `${f.path} ${f.key}`)).join(', ')}`,
    );
  if (r.edits_test_support.length > 0) parts.push(`EDITS TEST SUPPORT ${r.edits_test_support.join(', ')}`);
  if (r.error !== undefined) parts.push(r.error);
  return parts.join('; ');
}

function formatReport(report: EvalReport, outFile: string | undefined): string {
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  const lines = [
    `Instances: ${report.submitted_instances} scored of ${report.total_instances} tasks (${report.workers} workers, ${(report.wall_time_ms / 1000).toFixed(1)} s)`,
    `Resolved: ${report.resolved_instances}/${report.submitted_instances} (${pct(report.resolved_rate)})`,
    `Strict compliance (every spec passes): ${pct(report.strict_compliance_rate)}; partial (share of specs passing): ${pct(report.mean_partial_compliance)}`,
  ];
  if (report.empty_patch_instances > 0) lines.push(`Empty patches: ${report.empty_patch_ids.join(', ')}`);
  if (report.error_instances > 0) lines.push(`Errors: ${report.error_ids.join(', ')}`);
  if (report.patch_failed_instances > 0)
    lines.push(
      `Patches that do not apply (no spec ran, none counted as broken): ${report.patch_failed_ids.join(', ')}`,
    );
  if (report.infra_failure_instances > 0)
    lines.push(`Infra failures (environment, not the patch): ${report.infra_failure_ids.join(', ')}`);
  const kinds = Object.entries(report.by_kind);
  if (kinds.length > 0) {
    lines.push(
      '',
      `${'kind'.padEnd(14)} ${'specs'.padStart(6)} ${'passed'.padStart(7)} ${'rate'.padStart(7)} ${'broken'.padStart(7)}`,
    );
    for (const [kind, k] of kinds) {
      lines.push(
        `${kind.padEnd(14)} ${String(k.specs).padStart(6)} ${String(k.passed).padStart(7)} ${pct(k.pass_rate).padStart(7)} ${String(k.broken).padStart(7)}`,
      );
    }
  }
  if (Object.keys(report.instances).length > 0) lines.push('');
  for (const r of Object.values(report.instances)) lines.push(`${r.instance_id}: ${instanceLine(r)}`);
  if (report.problems.length > 0) {
    lines.push('', 'Problems:');
    for (const p of report.problems) lines.push(`  ${p.message}`);
  }
  if (outFile !== undefined) lines.push('', `Report written to ${outFile}`);
  return `${lines.join('\n')}\n`;
}
