// Mutation audit: wall time and mutants/s of `weave audit` on the demo (examples/) and on the
// 30-spec selection fixture, each mutant run only against the specs whose anchored code it mutates ("pruned"),
// next to the yardstick measured in the same run on the same mutants: every mutant against every spec.
// Also reported: how many (mutant, spec) kills and observed-interaction pairs the pruning leaves out (a test can
// exercise code beyond its spec's anchors; per-spec coverage is what closes that gap).
// Environment: WEAVE_BENCH_AUDIT_MUTANTS (default 24 per workspace), WEAVE_BENCH_AUDIT_WORKERS (default 2).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAudit } from '../src/core/audit/runAudit';
import type { AuditReport } from '../src/core/audit/types';
import { loadAnchoredWorkspace } from '../src/core/anchors/anchoredWorkspace';
import { writeSelectionFixture } from './selectionFixture';

const MUTANTS = Number(process.env.WEAVE_BENCH_AUDIT_MUTANTS ?? 24);
const WORKERS = Number(process.env.WEAVE_BENCH_AUDIT_WORKERS ?? 2);
const ROOT = path.resolve(__dirname, '../..');

function gitRepo(dir: string): void {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'b',
    GIT_AUTHOR_EMAIL: 'b@example.invalid',
    GIT_COMMITTER_NAME: 'b',
    GIT_COMMITTER_EMAIL: 'b@example.invalid',
  };
  for (const args of [
    ['init', '-q', '-b', 'main'],
    ['add', '-A'],
    ['commit', '-q', '-m', 'bench'],
  ])
    execFileSync('git', args, { cwd: dir, stdio: 'ignore', env });
}

function demoWorkspace(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'weave-audit-bench-demo-')));
  const examples = path.join(ROOT, 'examples');
  fs.cpSync(examples, dir, {
    recursive: true,
    filter: (src) => !path.relative(examples, src).startsWith(path.join('.weave', 'runs')),
  });
  gitRepo(dir);
  return dir;
}

function fixtureWorkspace(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'weave-audit-bench-30-')));
  writeSelectionFixture(dir);
  gitRepo(dir);
  return dir;
}

interface Row {
  workspace: string;
  mode: string;
  report: AuditReport;
}

function kills(report: AuditReport): number {
  return report.specs.reduce((n, s) => n + s.killed + s.timedOut, 0);
}

async function measure(name: string, dir: string): Promise<Row[]> {
  const ws = await loadAnchoredWorkspace(dir, { useCache: false });
  const common = { ws, maxMutants: MUTANTS, concurrency: WORKERS, timeBudgetSeconds: 3_600 };
  const pruned = await runAudit({ ...common, prune: true });
  const everySpec = await runAudit({ ...common, prune: false });
  return [
    { workspace: name, mode: 'anchor-pruned', report: pruned },
    { workspace: name, mode: 'every spec (yardstick)', report: everySpec },
  ];
}

async function main(): Promise<void> {
  const dirs = [demoWorkspace(), fixtureWorkspace()];
  try {
    const rows = [
      ...(await measure('demo (8 specs)', dirs[0]!)),
      ...(await measure('fixture (30 specs)', dirs[1]!)),
    ];
    console.log(
      `${MUTANTS} mutants per workspace, ${WORKERS} scratch checkouts, ${os.availableParallelism()} CPUs\n`,
    );
    console.log(
      'workspace           mode                     mutants  test runs  wall s  mutants/s  kills  observed pairs',
    );
    for (const r of rows) {
      const t = r.report.totals;
      console.log(
        [
          r.workspace.padEnd(18),
          r.mode.padEnd(23),
          String(t.ran).padStart(8),
          String(t.testRuns).padStart(10),
          (t.durationMs / 1000).toFixed(1).padStart(7),
          t.mutantsPerSecond.toFixed(2).padStart(10),
          String(kills(r.report)).padStart(6),
          String(r.report.observed.length).padStart(15),
        ].join(' '),
      );
    }
    for (let i = 0; i < rows.length; i += 2) {
      const pruned = rows[i]!.report.totals;
      const every = rows[i + 1]!.report.totals;
      console.log(
        `\n${rows[i]!.workspace}: pruning runs ${((pruned.testRuns / every.testRuns) * 100).toFixed(0)}% of the test runs, ` +
          `${(every.durationMs / pruned.durationMs).toFixed(1)}× faster wall time; it leaves out ` +
          `${kills(rows[i + 1]!.report) - kills(rows[i]!.report)} kill(s) of code outside the specs' anchors and ` +
          `${rows[i + 1]!.report.observed.length - rows[i]!.report.observed.length} observed pair(s).`,
      );
    }
  } finally {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
