// `weave export`: the workspace as a verified benchmark task folder (core/tasks/export/exportTask.ts).
import { trapInterrupts } from '../interrupt';
import path from 'node:path';
import {
  EXPORT_FORMATS,
  exportTask,
  HARBOR_SUBDIR,
  type ExportFormat,
  type ExportOptions,
  type ExportResult,
} from '../../core/tasks/export/exportTask';
import { exportHistory, type HistoryEntry, type HistoryOptions } from '../../core/tasks/export/exportHistory';
import { describeRunEnvironment } from '../../core/tasks/run/taskRunner';
import { parseVerbFlags, wholeNumber, withHelpHint, WORKSPACE_FLAG } from '../flags';
import type { Verb } from '../verb';

const HELP = `Usage: weave export --out DIR [options]

Turns the workspace into a benchmark task an agent can be scored on, in SWE-bench's shape: DIR gets
task.json (SWE-bench's 12 fields + Weave's specs, interactions, run defaults, set-up commands), problem_statement.md,
gold.patch (the non-test changes from the base to the working tree, uncommitted and untracked files included),
test.patch (changes to the spec test files and .weave/), eval.sh (applies a patch, runs every spec test between
markers; plain sh + git) and base.bundle (the base commit of the workspace folder alone: git clone base.bundle).

The task is verified before it is written, in scratch clones of base.bundle: every FAIL_TO_PASS spec fails on
base + test.patch and passes with gold.patch; every PASS_TO_PASS spec passes on both. Your working tree is only read.
Left out, and listed: .gitignore'd files, .env*, *.pem, *.key, id_rsa*, credentials* and any file containing
something that looks like a key (sk-…, AKIA…, -----BEGIN … PRIVATE KEY-----). Absolute paths of this machine and
your home directory are rewritten (workspace → ".", home → "~") in every file and field.

With --format harbor (or both, into DIR/${HARBOR_SUBDIR}/) the same verified task is also written in Harbor's shape:
task.toml, instruction.md, environment/Dockerfile (+ environment/repo/, the base commit), tests/test.sh (writes
/logs/verifier/reward.json and reward.txt), solution/solve.sh. Export runs Harbor's contract locally to verify it
(the oracle scores 1, no agent scores < 1); scale it out with
  harbor run -p DIR/${HARBOR_SUBDIR} -a <agent> -m <model> -e modal -n 8

With --from-history RANGE (e.g. v1.0..main) every commit of the range becomes its own task when its non-test
change makes some spec go from fail to pass (judged by the spec file and tests of that commit): DIR/tasks/<sha>/
(SWE-bench shape), DIR/harbor/<sha>/ (Harbor shape). A commit that fixes nothing a spec sees yields no task, and
the output says why.

Options:
  --from-history RANGE  mine a revision range instead of exporting the working tree
  --format F            swe | harbor | both (default both)
  --agent-timeout-seconds N   Harbor's [agent] timeout_sec (default 1800)
  --harbor-offline      Harbor's allow_internet = false (for agents that run outside the environment)
  --allow-install-scripts   let the set-up run dependencies' install scripts (default: npm/pnpm/yarn installs
                        run with --ignore-scripts; see docs/task-setup.md)
  --workspace DIR       the workspace folder (default: the current directory); may be a subfolder of its repository
  --base REF            the task's starting point (default: HEAD when the workspace has uncommitted changes, else HEAD~1)
  --out DIR             the task folder to write (new, empty, or a previous export)
  --dataset FILE.jsonl  also append the task as one SWE-bench dataset line (FAIL_TO_PASS/PASS_TO_PASS as JSON strings)
  --allow-unverified    write the task even when it does not verify ("verified": false, with the reasons)
  --instance-id ID      the task's instance_id (default: <repo>-<8 hex digits of the task's content>)
  --json                print the result as JSON
  -h, --help            show this help

Exit codes: 0 the task was written, 1 it did not verify and was not written, 2 bad input (no git history,
spec file problems, nothing to export, a non-empty --out).

Examples:
  weave export --workspace examples --out tasks/secret-caching
  weave export --base main --out task --dataset dataset.jsonl`;

export const exportVerb: Verb = {
  name: 'export',
  summary: 'Export the workspace as a verified benchmark task (SWE-bench fields + specs)',
  help: HELP,
  async run(args) {
    const { flags, shared } = parseExportFlags(args);
    const interrupt = trapInterrupts(
      'export',
      'stopping (killing verification runs, removing scratch folders)…',
    );
    try {
      const common = { ...shared, signal: interrupt.signal };
      const range = flags['from-history'];
      if (range !== undefined) return await exportFromHistory({ ...common, range }, flags.json);
      return await exportWorkingTree(common, flags);
    } finally {
      interrupt.dispose();
    }
  },
};

/** What both ways of exporting take from the command line. */
type SharedExportOptions = Pick<
  ExportOptions,
  | 'workspaceDir'
  | 'outDir'
  | 'datasetFile'
  | 'allowUnverified'
  | 'weaveVersion'
  | 'format'
  | 'harborAllowInternet'
  | 'agentTimeoutSeconds'
  | 'allowInstallScripts'
>;

/** The flags, refused when wrong, and the options both ways of exporting share. */
function parseExportFlags(args: string[]) {
  const flags = parseVerbFlags('export', args, {
    ...WORKSPACE_FLAG,
    base: { type: 'string' },
    out: { type: 'string' },
    dataset: { type: 'string' },
    'allow-unverified': { type: 'boolean', default: false },
    'instance-id': { type: 'string' },
    json: { type: 'boolean', default: false },
    format: { type: 'string', default: 'both' },
    'agent-timeout-seconds': { type: 'string' },
    'harbor-offline': { type: 'boolean', default: false },
    'allow-install-scripts': { type: 'boolean', default: false },
    'from-history': { type: 'string' },
  });
  if (!(EXPORT_FORMATS as readonly string[]).includes(flags.format))
    throw withHelpHint(
      'export',
      `--format must be one of ${EXPORT_FORMATS.join(', ')}, got '${flags.format}'`,
    );
  const agentTimeout = wholeNumber('export', 'agent-timeout-seconds', flags['agent-timeout-seconds']);
  if (flags.out === undefined)
    throw withHelpHint('export', '--out DIR is required (the task folder to write)');
  if (flags['from-history'] !== undefined && (flags.base !== undefined || flags['instance-id'] !== undefined))
    throw withHelpHint(
      'export',
      '--from-history takes each commit’s parent as its base and names each task itself',
    );
  const shared: SharedExportOptions = {
    workspaceDir: flags.workspace,
    outDir: flags.out,
    ...(flags.dataset === undefined ? {} : { datasetFile: flags.dataset }),
    allowUnverified: flags['allow-unverified'],
    weaveVersion: WEAVE_VERSION,
    format: flags.format as ExportFormat,
    harborAllowInternet: !flags['harbor-offline'],
    allowInstallScripts: flags['allow-install-scripts'],
    ...(agentTimeout === undefined ? {} : { agentTimeoutSeconds: agentTimeout }),
  };
  return { flags: { ...flags, out: flags.out }, shared };
}

/** `--from-history RANGE`: a task per commit in RANGE; 0 when at least one was written. */
async function exportFromHistory(options: HistoryOptions, json: boolean): Promise<number> {
  const entries = await exportHistory({
    ...options,
    ...(json
      ? {}
      : {
          onCommit: (e: HistoryEntry, i: number, n: number) =>
            process.stderr.write(`[${i + 1}/${n}] ${historyLine(e)}\n`),
        }),
  });
  process.stdout.write(
    json
      ? `${JSON.stringify(
          entries.map((e) => ({
            commit: e.commit,
            subject: e.subject,
            ...(e.result ? { task: toJson(e.result) } : { skipped: e.skipped }),
          })),
          null,
          2,
        )}\n`
      : formatHistory(entries, options.outDir),
  );
  return entries.some((e) => e.result !== undefined) ? 0 : 1;
}

/** The working tree against --base as one task; 0 when it was written. */
async function exportWorkingTree(
  common: SharedExportOptions & { outDir: string; signal: AbortSignal },
  flags: { base?: string | undefined; 'instance-id'?: string | undefined; json: boolean; out: string },
): Promise<number> {
  const result = await exportTask({
    ...common,
    ...(flags.base === undefined ? {} : { base: flags.base }),
    ...(flags['instance-id'] === undefined ? {} : { instanceId: flags['instance-id'] }),
    ...(flags.json ? {} : { onProgress: (m: string) => process.stderr.write(`${m}\n`) }),
  });
  process.stdout.write(
    flags.json ? `${JSON.stringify(toJson(result), null, 2)}\n` : formatResult(result, flags.out),
  );
  return result.written ? 0 : 1;
}

function toJson(result: ExportResult): Record<string, unknown> {
  return {
    written: result.written,
    verified: result.verified,
    verified_in: result.verifiedIn,
    out: result.outDir,
    instance_id: result.instanceId,
    base: result.baseRef,
    base_commit: result.task.base_commit,
    FAIL_TO_PASS: result.failToPass,
    PASS_TO_PASS: result.passToPass,
    reasons: result.reasons,
    excluded_files: result.excluded,
    ...(result.harborDir === undefined ? {} : { harbor_dir: result.harborDir }),
  };
}

function formatResult(result: ExportResult, outArg: string): string {
  const lines: string[] = [];
  const where = path.relative(process.cwd(), result.outDir) || outArg;
  if (result.written) {
    lines.push(
      `Task ${result.instanceId} written to ${where}` +
        (result.verified ? ` (verified ${describeRunEnvironment(result.verifiedIn)})` : ' — NOT verified'),
    );
  } else {
    lines.push(
      `Task ${result.instanceId} did not verify, so nothing was written (--allow-unverified writes it anyway):`,
    );
  }
  lines.push(
    `  base          ${result.baseRef} → base_commit ${result.task.base_commit.slice(0, 12)} (in base.bundle)`,
  );
  if (result.harborDir !== undefined) {
    const harbor = path.relative(process.cwd(), result.harborDir) || '.';
    lines.push(
      `  harbor        ${harbor} (oracle reward 1, no agent < 1): harbor run -p ${harbor} -a <agent> -m <model>`,
    );
  }
  lines.push(`  FAIL_TO_PASS  ${result.failToPass.join(', ') || '(none)'}`);
  lines.push(`  PASS_TO_PASS  ${result.passToPass.join(', ') || '(none)'}`);
  for (const r of result.reasons) lines.push(`  ✗ ${r.spec === '*' ? 'task' : r.spec}: ${r.reason}`);
  if (result.excluded.length > 0) {
    lines.push(`  left out (${result.excluded.length}):`);
    for (const e of result.excluded) lines.push(`    ${e.path}  (${e.reason})`);
  }
  return `${lines.join('\n')}\n`;
}

function historyLine(entry: HistoryEntry): string {
  const head = `${entry.commit.slice(0, 12)} ${entry.subject}`;
  return entry.result
    ? `${head}: task ${entry.result.instanceId} (FAIL_TO_PASS ${entry.result.failToPass.join(', ')})`
    : `${head}: no task — ${entry.skipped ?? 'unknown reason'}`;
}

function formatHistory(entries: HistoryEntry[], outArg: string): string {
  const written = entries.filter((e) => e.result !== undefined).length;
  return `${[
    `${written} task${written === 1 ? '' : 's'} from ${entries.length} commit${entries.length === 1 ? '' : 's'} in ${outArg}:`,
    ...entries.map((e) => `  ${historyLine(e)}`),
  ].join('\n')}\n`;
}

declare const WEAVE_VERSION: string;
