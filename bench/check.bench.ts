// Benchmark of `weave check`: 64 specs whose tests each do ~200 ms of real CPU work (a fixed amount of hashing,
// calibrated once, so a test takes longer when it has to share a core — no sleeping). Measured in one run:
//   - Weave, sequential (concurrency 1) vs a bare `sh -c 'for …; do cmd; done'` loop of the same 64 commands:
//     Weave's overhead per spec;
//   - Weave, parallel (concurrency = cores) vs `xargs -P cores` of the same commands, and against the goal
//     parallel ≤ 1.2 × sequential / cores;
//   - per-spec coverage (V8 for every Node process, mapped and stored after the run): parallel with coverage on
//     vs off (goal ≤ 10% more wall). The other rows run with coverage off, as before it existed.
// Environment: WEAVE_BENCH_SPECS (default 64), WEAVE_BENCH_WORK_MS (default 200), WEAVE_BENCH_ROUNDS (default 1).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkWorkspace } from '../src/core/check/checkWorkspace';

const SPECS = Number(process.env.WEAVE_BENCH_SPECS ?? 64);
const WORK_MS = Number(process.env.WEAVE_BENCH_WORK_MS ?? 200);
const ROUNDS = Number(process.env.WEAVE_BENCH_ROUNDS ?? 1);
const cores = os.availableParallelism();

// The test each spec runs: N rounds of SHA-256 over a small buffer, then a summary line Weave recognises.
const WORKER = `const { createHash } = require('node:crypto');
const rounds = Number(process.argv[2]);
let digest = Buffer.alloc(64, 1);
for (let i = 0; i < rounds; i++) digest = createHash('sha256').update(digest).digest();
console.log(digest.toString('hex').slice(0, 8));
console.log('1 passed, 0 failed');
`;

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

/**
 * CPU milliseconds used by this process and by its waited-for descendants (Linux /proc/self/stat utime, stime,
 * cutime, cstime): independent of how loaded the machine is, unlike wall time.
 */
function cpuMsWithChildren(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = [11, 12, 13, 14].reduce((n, i) => n + Number(fields[i] ?? 0), 0);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}
/** USER_HZ: 100 on every Linux architecture Node supports. */
const CLOCK_TICKS_PER_SECOND = 100;

const hasProcStat = process.platform === 'linux';

/** Wall and total CPU (this process + children) of one measurement. */
async function measure(fn: () => Promise<unknown> | unknown): Promise<{ wallMs: number; cpuMs: number }> {
  const cpuBefore = hasProcStat ? cpuMsWithChildren() : 0;
  const started = performance.now();
  await fn();
  const wallMs = performance.now() - started;
  return { wallMs, cpuMs: hasProcStat ? cpuMsWithChildren() - cpuBefore : Number.NaN };
}

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
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-bench-check-'));
  try {
    await fs.writeFile(path.join(dir, 'work.js'), WORKER);
    const command = `node work.js ${rounds}`;
    const specs = Array.from({ length: SPECS }, (_, i) => ({
      id: `spec-${String(i + 1).padStart(2, '0')}`,
      title: `busy ${i + 1}`,
      kind: 'performance',
      statement: `~${WORK_MS} ms of hashing`,
      test: { command },
    }));
    await fs.mkdir(path.join(dir, '.weave'));
    await fs.writeFile(path.join(dir, '.weave/specs.json'), JSON.stringify({ version: 1, specs }, null, 2));

    const shell = (script: string) => (): Promise<void> => runShell(script, dir);
    const single = (await measure(shell(command))).wallMs;
    const bareLoop = shell(`for i in $(seq ${SPECS}); do ${command} > /dev/null || exit 1; done`);
    const bareParallel = shell(`seq ${SPECS} | xargs -P ${cores} -I{} ${command} > /dev/null`);
    const weaveCpuMs: number[] = [];
    const check =
      (concurrency: number, coverage = false) =>
      async (): Promise<void> => {
        const cpu = process.cpuUsage();
        const { run } = await checkWorkspace({ workspaceDir: dir, concurrency, coverage });
        const used = process.cpuUsage(cpu);
        if (!coverage) weaveCpuMs.push((used.user + used.system) / 1000);
        const passed = run.results.filter((r) => r.verdict === 'pass').length;
        if (passed !== SPECS) throw new Error(`only ${passed} of ${SPECS} specs passed`);
      };
    // Interleaved rounds, medians: on a shared machine the load drifts, and interleaving spreads the drift
    // evenly over the four measurements.
    type Sample = { wallMs: number; cpuMs: number };
    type Measurement = 'bareLoop' | 'weaveSequential' | 'bareParallel' | 'weaveParallel' | 'weaveCoverage';
    const samples: Record<Measurement, Sample[]> = {
      bareLoop: [],
      weaveSequential: [],
      bareParallel: [],
      weaveParallel: [],
      weaveCoverage: [],
    };
    const loadBefore = os.loadavg()[0] ?? 0;
    for (let round = 0; round < ROUNDS; round++) {
      samples.bareLoop.push(await measure(bareLoop));
      samples.weaveSequential.push(await measure(check(1)));
      samples.bareParallel.push(await measure(bareParallel));
      samples.weaveParallel.push(await measure(check(cores)));
      samples.weaveCoverage.push(await measure(check(cores, true)));
    }
    const loadAfter = os.loadavg()[0] ?? 0;
    const wall = (list: Sample[]): number => median(list.map((x) => x.wallMs));
    const cpu = (list: Sample[]): number => median(list.map((x) => x.cpuMs));
    const bare = wall(samples.bareLoop);
    const sequential = wall(samples.weaveSequential);
    const xargs = wall(samples.bareParallel);
    const parallel = wall(samples.weaveParallel);
    const withCoverage = wall(samples.weaveCoverage);
    const goal = (1.2 * sequential) / cores;
    const wallOverheadMs = (sequential - bare) / SPECS;
    const cpuOverheadMs = (cpu(samples.weaveSequential) - cpu(samples.bareLoop)) / SPECS;
    const ownCpuMs = median(weaveCpuMs) / SPECS;
    const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
    const ms = (value: number): string => `${value.toFixed(1)} ms`;

    const rows: string[][] = [
      ['measurement', 'value', 'ratio / note'],
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
      [
        'total CPU per spec, bare loop',
        ms(cpu(samples.bareLoop) / SPECS),
        'test + node start (load-independent)',
      ],
      ['weave CPU overhead per spec', ms(cpuOverheadMs), 'total CPU, weave − bare loop'],
      ['  of which in the weave process', ms(ownCpuMs), 'spawn, capture, verdict, record'],
      [
        `weave check --concurrency ${cores}, coverage on`,
        seconds(withCoverage),
        `${(((withCoverage - parallel) / parallel) * 100).toFixed(1)} % more wall than coverage off (goal ≤ 10 %)`,
      ],
      [
        '  coverage CPU per spec (tests + weave)',
        ms((cpu(samples.weaveCoverage) - cpu(samples.weaveParallel)) / SPECS),
        'total CPU, coverage on − off',
      ],
    ];
    const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
    console.log(
      `check: ${SPECS} specs × ~${WORK_MS} ms CPU (${rounds} SHA-256 rounds; one alone: ${Math.round(single)} ms wall ` +
        `incl. node start); ${cores} cores; Node ${process.version}; median of ${ROUNDS} interleaved round(s); ` +
        `load avg ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}`,
    );
    for (const r of rows) console.log(row(r, widths));
    console.log(parallel <= goal ? 'goal met' : 'GOAL MISSED: parallel wall above 1.2 × sequential / cores');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
