// Benchmark of `weave check`: 64 specs whose tests each do ~200 ms of real CPU work (a fixed amount of hashing,
// calibrated once, so a test takes longer when it has to share a core — no sleeping). Measured in one run:
//   - Weave, sequential (concurrency 1) vs a bare `sh -c 'for …; do cmd; done'` loop of the same 64 commands:
//     Weave's overhead per spec;
//   - Weave, parallel (concurrency = cores) vs `xargs -P cores` of the same commands, and against the goal
//     parallel ≤ 1.2 × sequential / cores.
// Environment: WEAVE_BENCH_SPECS (default 64), WEAVE_BENCH_WORK_MS (default 200), WEAVE_BENCH_ROUNDS (default 1).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
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

/** Rounds of hashing that take WORK_MS of CPU on this machine (measured in-process, single thread). */
function calibrate(): number {
  let digest = Buffer.alloc(64, 1);
  const sample = 200_000;
  const started = performance.now();
  for (let i = 0; i < sample; i++) digest = createHash('sha256').update(digest).digest();
  const perRoundMs = (performance.now() - started) / sample;
  return Math.round(WORK_MS / perRoundMs);
}

async function timed(fn: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
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

    const single = await timed(() => execFileSync('/bin/sh', ['-c', command], { cwd: dir }));
    const bareLoop = (): unknown =>
      execFileSync('/bin/sh', ['-c', `for i in $(seq ${SPECS}); do ${command} > /dev/null || exit 1; done`], {
        cwd: dir,
      });
    const bareParallel = (): unknown =>
      execFileSync('/bin/sh', ['-c', `seq ${SPECS} | xargs -P ${cores} -I{} ${command} > /dev/null`], {
        cwd: dir,
      });
    const weaveCpuMs: number[] = [];
    const check = (concurrency: number) => async (): Promise<void> => {
      const cpu = process.cpuUsage();
      const { run } = await checkWorkspace({ workspaceDir: dir, concurrency });
      const used = process.cpuUsage(cpu);
      weaveCpuMs.push((used.user + used.system) / 1000);
      const passed = run.results.filter((r) => r.verdict === 'pass').length;
      if (passed !== SPECS) throw new Error(`only ${passed} of ${SPECS} specs passed`);
    };
    // Interleaved rounds, medians: on a shared machine the load drifts, and interleaving spreads the drift
    // evenly over the four measurements.
    const samples = {
      bareLoop: [] as number[],
      weaveSequential: [] as number[],
      bareParallel: [] as number[],
      weaveParallel: [] as number[],
    };
    const loadBefore = os.loadavg()[0] ?? 0;
    for (let round = 0; round < ROUNDS; round++) {
      samples.bareLoop.push(await timed(bareLoop));
      samples.weaveSequential.push(await timed(check(1)));
      samples.bareParallel.push(await timed(bareParallel));
      samples.weaveParallel.push(await timed(check(cores)));
    }
    const loadAfter = os.loadavg()[0] ?? 0;
    const bare = median(samples.bareLoop);
    const sequential = median(samples.weaveSequential);
    const xargs = median(samples.bareParallel);
    const parallel = median(samples.weaveParallel);

    const goal = (1.2 * sequential) / cores;
    const overheadMs = (sequential - bare) / SPECS;
    const cpuPerSpec = median(weaveCpuMs) / SPECS;
    const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
    const widths = [44, 10, 30];
    console.log(
      `check: ${SPECS} specs × ~${WORK_MS} ms CPU (${rounds} SHA-256 rounds; one alone: ${Math.round(single)} ms wall incl. node start); ` +
        `${cores} cores; Node ${process.version}; median of ${ROUNDS} interleaved round(s); load avg ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}`,
    );
    console.log(row(['measurement', 'wall', 'ratio'], widths));
    console.log(row(['bare sh loop (sequential yardstick)', seconds(bare), '1.00 × bare loop'], widths));
    console.log(
      row(
        ['weave check --concurrency 1', seconds(sequential), `${(sequential / bare).toFixed(2)} × bare loop`],
        widths,
      ),
    );
    console.log(
      row(
        [
          `bare xargs -P ${cores} (parallel yardstick)`,
          seconds(xargs),
          `${(xargs / bare).toFixed(2)} × bare loop`,
        ],
        widths,
      ),
    );
    console.log(
      row(
        [
          `weave check --concurrency ${cores}`,
          seconds(parallel),
          `${(parallel / xargs).toFixed(2)} × xargs -P ${cores}`,
        ],
        widths,
      ),
    );
    console.log(
      row(
        [
          'goal: 1.2 × weave sequential / cores',
          seconds(goal),
          `parallel = ${(parallel / goal).toFixed(2)} × goal`,
        ],
        widths,
      ),
    );
    console.log(
      row(
        [
          'speed-up, weave parallel vs sequential',
          `${(sequential / parallel).toFixed(2)} ×`,
          `ideal ${cores}.00 ×`,
        ],
        widths,
      ),
    );
    console.log(
      row(
        [
          'weave wall overhead per spec (vs bare loop)',
          `${overheadMs.toFixed(1)} ms`,
          `${((overheadMs / (bare / SPECS)) * 100).toFixed(1)} % of a spec`,
        ],
        widths,
      ),
    );
    console.log(
      row(
        ['weave process CPU per spec', `${cpuPerSpec.toFixed(1)} ms`, 'spawn, capture, verdict, record'],
        widths,
      ),
    );
    console.log(parallel <= goal ? 'goal met' : 'GOAL MISSED: parallel wall above 1.2 × sequential / cores');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
