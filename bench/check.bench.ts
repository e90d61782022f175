// Benchmark of `weave check`: 64 specs whose tests each do ~200 ms of real CPU work (a fixed amount of hashing,
// calibrated once, so a test takes longer when it has to share a core — no sleeping). Measured in one run:
//   - Weave, sequential (concurrency 1) vs a bare `sh -c 'for …; do cmd; done'` loop of the same 64 commands:
//     Weave's overhead per spec;
//   - Weave, parallel (concurrency = cores) vs `xargs -P cores` of the same commands, and against the goal
//     parallel ≤ 1.2 × sequential / cores;
//   - per-spec coverage (V8 for every Node process, mapped and stored after the run): parallel with coverage on
//     vs off (goal ≤ 10% more wall), on two workloads: the hashing script above, which is all hot code in one
//     process (the worst case for V8 coverage, which holds back inlining until a function's first call has been
//     reported), and the same work as a package's own test suite would run it — `npm test`, whose script is
//     `node --test`, with tests that `require('..')` — where most Node processes (npm, the node --test parent)
//     run no workspace code. Those two workspaces are not git repositories, so every spec records every time
//     (a first check). A third, in git, splits the hashing over 8 modules and changes one before each measured
//     check: the 8 specs that run it record again, the other 56 keep their coverage (coverage/reuse.ts), the
//     steady state of full checks while someone works. The other rows run with coverage off, as before.
// CPU is counted in a cgroup of the bench's own (cpuMeter.ts), which sees processes in the specs' PID namespaces.
// Environment: WEAVE_BENCH_SPECS (default 64), WEAVE_BENCH_WORK_MS (default 200), WEAVE_BENCH_ROUNDS (default 1),
// WEAVE_BENCH_COVERAGE_ONLY=1 (only the coverage rows: many rounds of them fit in the time of a few full ones),
// WEAVE_BENCH_SCHEDULING_ONLY=1 (only the four yardstick and Weave rows, coverage off: a quarter of the time).
// Two goals are printed: issue #35's, parallel Weave ≤ 1.1 × xargs -P cores, and the older 1.2 × sequential / cores.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkWorkspace } from '../src/core/fullCheck/checkWorkspace';
import {
  MODULES,
  MODULE_FILES,
  RUNNER_FILES,
  WORKER,
  commitAll,
  editModule,
  writeWorkspace,
  type BenchSpecs,
} from './checkWorkspaces';
import { startCpuMeter, type CpuMeter } from './cpuMeter';

const SPECS = Number(process.env.WEAVE_BENCH_SPECS ?? 64);
const WORK_MS = Number(process.env.WEAVE_BENCH_WORK_MS ?? 200);
const ROUNDS = Number(process.env.WEAVE_BENCH_ROUNDS ?? 1);
const COVERAGE_ONLY = process.env.WEAVE_BENCH_COVERAGE_ONLY === '1';
const SCHEDULING_ONLY = !COVERAGE_ONLY && process.env.WEAVE_BENCH_SCHEDULING_ONLY === '1';
/** Issue #35: `weave check --concurrency cores` at most this many times `xargs -P cores` of the same commands. */
const XARGS_GOAL = 1.1;
const cores = os.availableParallelism();

/** Rounds of hashing that take WORK_MS of CPU on this machine (CPU time, so a loaded machine does not skew it). */
function calibrate(): number {
  let digest = Buffer.alloc(64, 1);
  const sample = 200_000;
  const started = process.cpuUsage();
  for (let i = 0; i < sample; i++) digest = createHash('sha256').update(digest).digest();
  const used = process.cpuUsage(started);
  const perRoundMs = (used.user + used.system) / 1000 / sample;
  return Math.round(WORK_MS / perRoundMs);
}

/** Wall and total CPU (this process + every descendant) of one measurement. */
async function measure(meter: CpuMeter, fn: () => Promise<unknown> | unknown): Promise<Sample> {
  const cpuBefore = meter.readMs();
  const started = performance.now();
  await fn();
  const wallMs = performance.now() - started;
  return { wallMs, cpuMs: meter.readMs() - cpuBefore };
}
type Sample = { wallMs: number; cpuMs: number };

/**
 * Runs a yardstick script in its own session, as Weave runs spec commands: with the kernel's autogroup
 * scheduling every session is its own scheduling group, so on a busy machine running in the caller's session
 * instead would give the yardstick a different share of the CPU than Weave's commands get.
 */
function runShell(script: string, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', script], { cwd, detached: true, stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`'${script}' exited ${code}`))));
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function row(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
}

async function main(): Promise<void> {
  const rounds = calibrate();
  const meter = startCpuMeter('weave-bench-check');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-bench-check-'));
  const runnerDir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-bench-check-runner-'));
  const modulesDir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-bench-check-modules-'));
  try {
    const command = `node work.js ${rounds}`;
    const same = (cmd: string): BenchSpecs => ({ count: SPECS, workMs: WORK_MS, command: () => cmd });
    await writeWorkspace(dir, { 'work.js': WORKER }, same(command));
    await writeWorkspace(runnerDir, RUNNER_FILES(rounds), same('npm test'));
    // Coverage reuse needs git: the module workspace is a repository, recorded once before the rounds.
    await writeWorkspace(modulesDir, MODULE_FILES(), {
      count: SPECS,
      workMs: WORK_MS,
      command: (i) => `node work${i % MODULES}.js ${rounds}`,
      files: (i) => [`work${i % MODULES}.js`],
    });
    commitAll(modulesDir);
    if (!SCHEDULING_ONLY)
      await checkWorkspace({ workspaceDir: modulesDir, concurrency: cores, coverage: true });
    let revision = 0;

    const shell = (script: string) => (): Promise<void> => runShell(script, dir);
    const single = (await measure(meter, shell(command))).wallMs;
    const bareLoop = shell(`for i in $(seq ${SPECS}); do ${command} > /dev/null || exit 1; done`);
    const bareParallel = shell(`seq ${SPECS} | xargs -P ${cores} -I{} ${command} > /dev/null`);
    const weaveCpuMs: number[] = [];
    const check =
      (workspaceDir: string, concurrency: number, coverage = false) =>
      async (): Promise<void> => {
        const cpu = process.cpuUsage();
        const { run } = await checkWorkspace({ workspaceDir, concurrency, coverage });
        const used = process.cpuUsage(cpu);
        if (!coverage && concurrency === 1) weaveCpuMs.push((used.user + used.system) / 1000);
        const passed = run.results.filter((r) => r.verdict === 'pass').length;
        if (passed !== SPECS) {
          const failed = run.results.find((r) => r.verdict !== 'pass');
          throw new Error(`only ${passed} of ${SPECS} specs passed: ${failed?.output ?? ''}`);
        }
      };
    // Interleaved rounds, medians: on a shared machine the load drifts, and interleaving spreads the drift
    // evenly over the measurements.
    const measurements = {
      ...(COVERAGE_ONLY
        ? {}
        : { bareLoop: bareLoop, weaveSequential: check(dir, 1), bareParallel: bareParallel }),
      weaveParallel: check(dir, cores),
      ...(SCHEDULING_ONLY ? {} : coverageMeasurements()),
    };
    function coverageMeasurements() {
      return {
        weaveCoverage: check(dir, cores, true),
        runnerParallel: check(runnerDir, cores),
        runnerCoverage: check(runnerDir, cores, true),
        modulesParallel: check(modulesDir, cores),
        modulesCoverage: async (): Promise<void> => {
          revision++;
          await editModule(modulesDir, revision % MODULES, revision);
          const { coverage } = await checkWorkspace({
            workspaceDir: modulesDir,
            concurrency: cores,
            coverage: true,
          });
          const recordedAgain = SPECS / MODULES;
          if (coverage?.specs !== recordedAgain || coverage.reused.length !== SPECS - recordedAgain)
            throw new Error(
              `expected ${recordedAgain} specs to record and ${SPECS - recordedAgain} to keep their coverage, got ` +
                `${coverage?.specs} and ${coverage?.reused.length} (${coverage?.recordedAgainBecause ?? ''})`,
            );
        },
      };
    }
    type Measurement =
      | 'bareLoop'
      | 'weaveSequential'
      | 'bareParallel'
      | 'weaveParallel'
      | 'weaveCoverage'
      | 'runnerParallel'
      | 'runnerCoverage'
      | 'modulesParallel'
      | 'modulesCoverage';
    const samples = Object.fromEntries(Object.keys(measurements).map((k) => [k, [] as Sample[]])) as Record<
      Measurement,
      Sample[]
    >;
    const loadBefore = os.loadavg()[0] ?? 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, fn] of Object.entries(measurements) as Array<[Measurement, () => Promise<void>]>) {
        samples[name].push(await measure(meter, fn));
      }
    }
    const loadAfter = os.loadavg()[0] ?? 0;
    const wall = (name: Measurement): number => median((samples[name] ?? []).map((x) => x.wallMs));
    const cpu = (name: Measurement): number => median((samples[name] ?? []).map((x) => x.cpuMs));
    const bare = wall('bareLoop');
    const sequential = wall('weaveSequential');
    const xargs = wall('bareParallel');
    const parallel = wall('weaveParallel');
    const goal = (1.2 * sequential) / cores;
    const wallOverheadMs = (sequential - bare) / SPECS;
    const cpuOverheadMs = (cpu('weaveSequential') - cpu('bareLoop')) / SPECS;
    const ownCpuMs = median(weaveCpuMs) / SPECS;
    const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
    const ms = (value: number): string => `${value.toFixed(1)} ms`;
    const percentMore = (on: number, off: number): string => `${(((on - off) / off) * 100).toFixed(1)} %`;
    // The load on a shared machine drifts within a run: each round's on/off pair (measured back to back) gives
    // one ratio, and their median is quoted beside the ratio of the medians.
    const pairedMedian = (on: Measurement, off: Measurement, of: (x: Sample) => number): number =>
      median(samples[on].map((x, i) => of(x) / of(samples[off][i]!) - 1)) * 100;
    const coverageRows = (label: string, off: Measurement, on: Measurement): string[][] => [
      [`${label}, coverage off`, seconds(wall(off)), `${ms(cpu(off) / SPECS)} CPU per spec`],
      [
        `${label}, coverage on`,
        seconds(wall(on)),
        `${percentMore(wall(on), wall(off))} more wall (goal ≤ 10 %), ${percentMore(cpu(on), cpu(off))} more CPU; ` +
          `per round: ${pairedMedian(on, off, (x) => x.wallMs).toFixed(1)} % wall, ` +
          `${pairedMedian(on, off, (x) => x.cpuMs).toFixed(1)} % CPU`,
      ],
    ];

    const schedulingRows: string[][] = [
      ['bare sh loop (sequential yardstick)', seconds(bare), '1.00 × bare loop'],
      ['weave check --concurrency 1', seconds(sequential), `${(sequential / bare).toFixed(2)} × bare loop`],
      [
        `bare xargs -P ${cores} (parallel yardstick)`,
        seconds(xargs),
        `${(xargs / bare).toFixed(2)} × bare loop`,
      ],
      [
        `weave check --concurrency ${cores}`,
        seconds(parallel),
        `${(parallel / xargs).toFixed(2)} × xargs -P ${cores}`,
      ],
      [
        `goal (issue #35): ${XARGS_GOAL} × xargs -P ${cores}`,
        seconds(XARGS_GOAL * xargs),
        `parallel = ${(parallel / xargs / XARGS_GOAL).toFixed(2)} × goal`,
      ],
      [
        'goal: 1.2 × weave sequential / cores',
        seconds(goal),
        `parallel = ${(parallel / goal).toFixed(2)} × goal`,
      ],
      [
        'speed-up, weave parallel vs sequential',
        `${(sequential / parallel).toFixed(2)} ×`,
        `ideal ${cores}.00 ×`,
      ],
      [
        'weave wall overhead per spec',
        ms(wallOverheadMs),
        `${((wallOverheadMs / (bare / SPECS)) * 100).toFixed(1)} % of a bare spec`,
      ],
      ['total CPU per spec, bare loop', ms(cpu('bareLoop') / SPECS), 'test + node start'],
      ['weave CPU overhead per spec', ms(cpuOverheadMs), 'total CPU, weave − bare loop'],
      ['  of which in the weave process', ms(ownCpuMs), 'spawn, capture, verdict, record'],
    ];
    const rows: string[][] = [
      ['measurement', 'value', 'ratio / note'],
      ...(COVERAGE_ONLY ? [] : schedulingRows),
      ...(SCHEDULING_ONLY
        ? []
        : [
            ...coverageRows(`hashing script, --concurrency ${cores}`, 'weaveParallel', 'weaveCoverage'),
            ...coverageRows(
              `npm test → node --test, --concurrency ${cores}`,
              'runnerParallel',
              'runnerCoverage',
            ),
            ...coverageRows(
              `${MODULES} modules, one changed (${SPECS / MODULES} of ${SPECS} specs record, the rest keep theirs)`,
              'modulesParallel',
              'modulesCoverage',
            ),
          ]),
    ];
    const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
    console.log(
      `check: ${SPECS} specs × ~${WORK_MS} ms CPU (${rounds} SHA-256 rounds; one alone: ${Math.round(single)} ms wall ` +
        `incl. node start); ${cores} cores; Node ${process.version}; median of ${ROUNDS} interleaved round(s); ` +
        `load avg ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}; CPU from ${meter.method}`,
    );
    for (const r of rows) console.log(row(r, widths));
    if (!COVERAGE_ONLY) {
      console.log(
        parallel <= XARGS_GOAL * xargs
          ? `issue #35 goal met: parallel wall ≤ ${XARGS_GOAL} × xargs -P ${cores}`
          : `ISSUE #35 GOAL MISSED: parallel wall above ${XARGS_GOAL} × xargs -P ${cores}`,
      );
      console.log(
        parallel <= goal ? 'goal met' : 'GOAL MISSED: parallel wall above 1.2 × sequential / cores',
      );
    }
  } finally {
    meter.dispose();
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rm(runnerDir, { recursive: true, force: true });
    await fs.rm(modulesDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
