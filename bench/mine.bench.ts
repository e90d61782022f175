// `weave mine` on a real Slurm: the six fixture repositories of the e2e test mined as one array task and as two
// (plus the merge job each time), in the same run. Reported per setting: wall time, CPU time (the daemons were
// started inside this bench's CPU cgroup, so the jobs' processes are counted), candidates screened per CPU-minute
// and verified tasks per hour, and the two-task run's speed-up over the one-task run (goal ≥ 1.8× on a machine
// with two free cores; the figure says what this machine gave, loaded or not). Then shared environments (issue
// #37): the e2e test's repositories whose set-up installs something (an npm lockfile with two versions, a venv with
// requirements.txt) mined in one process with environments shared and with --no-env-reuse, in the same run, each
// from an empty cache: the same figures and the ratio. MINE_BENCH=slurm or MINE_BENCH=reuse runs one half only.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startCpuMeter } from './cpuMeter';
import { makeMineFixtures } from '../test/e2e/mine/mineFixtures';
import { makeEnvFixtures } from '../test/e2e/mine/envFixtures';
import { startSlurm } from '../test/support/slurmCluster';
import { until } from '../test/support/polling';

const CLI = path.resolve(__dirname, '../../dist/cli.js');

interface Measure {
  shards: number;
  wallMs: number;
  cpuMs: number;
  candidates: number;
  tasks: number;
}

function row(label: string, m: Measure): string {
  return `${label.padStart(11)} | ${(m.wallMs / 1000).toFixed(1).padStart(6)} | ${(m.cpuMs / 1000).toFixed(1).padStart(5)} | ${String(m.candidates).padStart(10)} | ${String(m.tasks).padStart(5)} | ${(m.candidates / (m.cpuMs / 60_000)).toFixed(1).padStart(20)} | ${(m.tasks / (m.wallMs / 3_600_000)).toFixed(0).padStart(12)}`;
}

function funnelOf(out: string): { candidates: number; tasks: number } {
  const results = fs.readdirSync(path.join(out, 'repos')).map(
    (key) =>
      JSON.parse(fs.readFileSync(path.join(out, 'repos', key, 'result.json'), 'utf8')) as {
        funnel: { candidates: number; task_verified: number };
      },
  );
  return {
    candidates: results.reduce((sum, r) => sum + r.funnel.candidates, 0),
    tasks: results.reduce((sum, r) => sum + r.funnel.task_verified, 0),
  };
}

/** Shared environments against every run setting up on its own, one process each, in the same run. */
function measureReuse(meter: ReturnType<typeof startCpuMeter>): void {
  const fixtures = makeEnvFixtures();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-mine-reuse-bench-'));
  const measures: Array<Measure & { label: string }> = [];
  try {
    for (const [label, extra] of [
      ['shared', []],
      ['own', ['--no-env-reuse']],
    ] as const) {
      const out = path.join(scratch, label);
      const cpuBefore = meter.readMs();
      const start = performance.now();
      execFileSync(process.execPath, [CLI, 'mine', '--repos', fixtures.sharedList, '--out', out, ...extra], {
        stdio: 'ignore',
      });
      measures.push({
        label,
        shards: 1,
        wallMs: performance.now() - start,
        cpuMs: meter.readMs() - cpuBefore,
        ...funnelOf(out),
      });
    }
  } finally {
    fixtures.cleanup();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  console.log(
    `\nshared environments (npm lockfile + venv repositories); load average ${os.loadavg()[0]?.toFixed(1)}`,
  );
  console.log('environment | wall s | CPU s | candidates | tasks | candidates / CPU-min | tasks / hour');
  for (const m of measures) console.log(row(m.label, m));
  const [shared, own] = measures;
  if (shared && own)
    console.log(
      `shared vs own set-up: ${(own.wallMs / shared.wallMs).toFixed(2)}× (wall), ${(own.cpuMs / shared.cpuMs).toFixed(2)}× (CPU)`,
    );
}

async function main(): Promise<void> {
  const meter = startCpuMeter('weave-mine-bench');
  if (process.env.MINE_BENCH !== 'slurm') measureReuse(meter);
  if (process.env.MINE_BENCH === 'reuse') {
    meter.dispose();
    return;
  }
  const fixtures = makeMineFixtures();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-mine-bench-'));
  const slurm = await startSlurm();
  const measures: Measure[] = [];
  try {
    for (const shards of [1, 2]) {
      const out = path.join(scratch, `shards-${shards}`);
      const emitted = JSON.parse(
        execFileSync(
          process.execPath,
          [
            CLI,
            'mine',
            '--repos',
            fixtures.reposFile,
            '--out',
            out,
            '--emit',
            'slurm',
            '--shards',
            String(shards),
            '--json',
          ],
          { encoding: 'utf8' },
        ),
      ) as { files: string[] };
      const cpuBefore = meter.readMs();
      const start = performance.now();
      const [, mergeJob] = execFileSync('sh', [emitted.files[0] as string], {
        env: slurm.env,
        encoding: 'utf8',
      })
        .trim()
        .split(' ');
      const state = await until(
        `merge job ${mergeJob}`,
        () =>
          /JobState=(COMPLETED|FAILED|CANCELLED|TIMEOUT)/.exec(
            execFileSync('scontrol', ['show', 'job', mergeJob as string], {
              env: slurm.env,
              encoding: 'utf8',
            }),
          )?.[1],
        { timeoutMs: 1_800_000, intervalMs: 200 },
      );
      const wallMs = performance.now() - start;
      const cpuMs = meter.readMs() - cpuBefore;
      if (state !== 'COMPLETED')
        throw new Error(`the merge job ended ${state} (logs in ${path.join(out, 'jobs')})`);
      measures.push({ shards, wallMs, cpuMs, ...funnelOf(out) });
    }
  } finally {
    slurm.stop();
    fixtures.cleanup();
    fs.rmSync(scratch, { recursive: true, force: true });
    meter.dispose();
  }
  console.log(
    `CPU: ${meter.method}; ${os.availableParallelism()} CPUs, load average ${os.loadavg()[0]?.toFixed(1)}`,
  );
  console.log('array tasks | wall s | CPU s | candidates | tasks | candidates / CPU-min | tasks / hour');
  for (const m of measures) console.log(row(String(m.shards), m));
  const [one, two] = measures;
  if (one && two) console.log(`two array tasks vs one: ${(one.wallMs / two.wallMs).toFixed(2)}× (wall)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
