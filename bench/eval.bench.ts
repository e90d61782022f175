// Benchmark of `weave eval`: 20 copies of the demo task (examples/ + the secret-caching fix, exported once),
// each scored with its gold patch. Measured in one run:
//   - the yardstick: a bare `sh` loop doing what a harness minimally must per instance (git clone base.bundle,
//     sh eval.sh gold.patch), sequentially;
//   - `weave eval --workers 1` and `--workers 2`: wall time, per instance, and the 2-vs-1 ratio.
// Environment: WEAVE_BENCH_TASKS (default 20).
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportTask } from '../src/core/tasks/export/exportTask';
import { evaluate } from '../src/core/tasks/eval/evalTasks';

const TASKS = Number(process.env.WEAVE_BENCH_TASKS ?? 20);
const examples = path.resolve(__dirname, '../../examples');

function row(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
}

async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-bench-eval-'));
  try {
    const ws = path.join(dir, 'ws');
    await fs.cp(examples, ws, { recursive: true });
    const git = (...args: string[]): string =>
      execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', ...args], {
        cwd: ws,
        encoding: 'utf8',
      });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'demo');
    git('apply', path.join(ws, 'patches', 'fix-secret-caching.patch'));

    const exportStarted = performance.now();
    const exported = await exportTask({ workspaceDir: ws, outDir: path.join(dir, 'task') });
    const exportMs = performance.now() - exportStarted;
    if (!exported.verified)
      throw new Error(`the demo task did not verify: ${JSON.stringify(exported.reasons)}`);

    const tasksDir = path.join(dir, 'tasks');
    for (let i = 0; i < TASKS; i++) {
      const copy = path.join(tasksDir, `demo-${String(i).padStart(2, '0')}`);
      await fs.cp(path.join(dir, 'task'), copy, { recursive: true });
      const taskFile = path.join(copy, 'task.json');
      const task = JSON.parse(await fs.readFile(taskFile, 'utf8')) as { instance_id: string };
      task.instance_id = `demo-${String(i).padStart(2, '0')}`;
      await fs.writeFile(taskFile, JSON.stringify(task));
    }

    // Yardstick: the bare minimum per instance, in one sh loop.
    const loop = [
      'set -e',
      `for t in ${JSON.stringify(tasksDir)}/*; do`,
      '  d=$(mktemp -d)',
      '  git clone -q "$t/base.bundle" "$d/repo"',
      '  (cd "$d/repo" && sh "$t/eval.sh" "$t/gold.patch" > /dev/null 2>&1) || true',
      '  rm -rf "$d"',
      'done',
    ].join('\n');
    const bareStarted = performance.now();
    execFileSync('sh', ['-c', loop]);
    const bareMs = performance.now() - bareStarted;

    const runs: Array<{ workers: number; ms: number; resolved: number }> = [];
    for (const workers of [1, 2]) {
      const report = await evaluate({ taskDirs: [tasksDir], gold: true, workers });
      runs.push({ workers, ms: report.wall_time_ms, resolved: report.resolved_instances });
    }

    const widths = [30, 10, 14, 12, 10];
    const one = runs[0]?.ms ?? 1;
    console.log(
      `${TASKS} copies of the demo task (8 specs each, node:test), ${os.availableParallelism()} cores; export took ${(exportMs / 1000).toFixed(1)} s`,
    );
    console.log(row(['run', 'wall s', 'per task s', 'vs 1 worker', 'resolved'], widths));
    console.log(
      row(
        [
          'bare sh loop (yardstick)',
          (bareMs / 1000).toFixed(1),
          (bareMs / TASKS / 1000).toFixed(2),
          (bareMs / one).toFixed(2),
          '-',
        ],
        widths,
      ),
    );
    for (const r of runs) {
      console.log(
        row(
          [
            `weave eval --workers ${r.workers}`,
            (r.ms / 1000).toFixed(1),
            (r.ms / TASKS / 1000).toFixed(2),
            (r.ms / one).toFixed(2),
            `${r.resolved}/${TASKS}`,
          ],
          widths,
        ),
      );
    }
    const two = runs[1]?.ms ?? one;
    console.log(
      `speed-up 2 workers vs 1: ${(one / two).toFixed(2)}×; weave overhead vs bare loop at 1 worker: ${((one - bareMs) / TASKS).toFixed(0)} ms per task`,
    );
    if (runs.some((r) => r.resolved !== TASKS)) process.exitCode = 1;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
