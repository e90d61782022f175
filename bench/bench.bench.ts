// Benchmark of `weave bench`: 20 copies of the demo task (WEAVE_BENCH_TASKS) × 2 scripted models (one fixes the
// secret caching, one disables the cache) behind the real OpenAI-protocol scripted server, with 1 and 2 workers,
// in one run. Yardstick, measured in the same run: scoring alone — `weave eval --workers 1` of the very
// predictions the bench produced — so the table shows what the agent runs add on top of evaluation.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBench, type BenchResult } from '../src/core/tasks/bench/benchRun';
import { evaluate } from '../src/core/tasks/eval/evalTasks';
import { exportTask } from '../src/core/tasks/export/exportTask';
import { startScriptedServer } from '../test/support/scriptedOpenAiServer';
import { disableCacheSteps, fixSecretCachingSteps } from '../test/e2e/agent/demoScripts';

const TASKS = Number(process.env.WEAVE_BENCH_TASKS ?? 20);
const MODELS = ['careful', 'careless'];
const examples = path.resolve(__dirname, '../../examples');

function row(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
}

async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-bench-bench-'));
  try {
    const ws = path.join(dir, 'ws');
    await fs.cp(examples, ws, { recursive: true, filter: (src) => !src.includes(`${path.sep}runs`) });
    const git = (...args: string[]): string =>
      execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', ...args], {
        cwd: ws,
        encoding: 'utf8',
      });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'demo');
    git('apply', path.join(ws, 'patches', 'fix-secret-caching.patch'));
    const exported = await exportTask({ workspaceDir: ws, outDir: path.join(dir, 'task'), format: 'swe' });
    if (!exported.verified)
      throw new Error(`the demo task did not verify: ${JSON.stringify(exported.reasons)}`);
    const tasksDir = path.join(dir, 'tasks');
    for (let i = 0; i < TASKS; i++) {
      const id = `demo-${String(i).padStart(2, '0')}`;
      const copy = path.join(tasksDir, id);
      await fs.cp(path.join(dir, 'task'), copy, { recursive: true });
      const task = JSON.parse(await fs.readFile(path.join(copy, 'task.json'), 'utf8')) as Record<
        string,
        unknown
      >;
      task.instance_id = id;
      // Its own goal makes each task its own conversation for the scripted server.
      task.goal = `${String(task.goal)} (task ${id})`;
      await fs.writeFile(path.join(copy, 'task.json'), JSON.stringify(task));
    }

    const runs: Array<{ workers: number; result: BenchResult }> = [];
    for (const workers of [1, 2]) {
      // A fresh server per run: the scripts replay from their first step.
      const server = await startScriptedServer({
        scripts: [
          { model: 'careful', matches: () => true, steps: fixSecretCachingSteps() },
          { model: 'careless', matches: () => true, steps: disableCacheSteps() },
        ],
      });
      try {
        const result = await runBench({
          taskDirs: [tasksDir],
          models: MODELS,
          baseUrl: server.baseURL,
          workers,
          outDir: path.join(dir, `out-${workers}`),
        });
        runs.push({ workers, result });
      } finally {
        await server.close();
      }
    }

    // Yardstick: scoring the same 2 × TASKS predictions, nothing else.
    let scoringMs = 0;
    for (const model of MODELS) {
      const report = await evaluate({
        taskDirs: [tasksDir],
        predictionsFile: path.join(dir, 'out-1', model, 'predictions.jsonl'),
        workers: 1,
      });
      scoringMs += report.wall_time_ms;
    }

    const cells = TASKS * MODELS.length;
    const one = runs[0]?.result.leaderboard.wall_time_ms ?? 1;
    const widths = [34, 10, 12, 12, 16];
    console.log(
      `${TASKS} demo tasks × ${MODELS.length} scripted models = ${cells} cells (8 specs each, node:test), ${os.availableParallelism()} cores`,
    );
    console.log(row(['run', 'wall s', 'per cell s', 'vs 1 worker', 'resolved c/c'], widths));
    console.log(
      row(
        [
          'weave eval only, 1 worker (yardstick)',
          (scoringMs / 1000).toFixed(1),
          (scoringMs / cells / 1000).toFixed(2),
          (scoringMs / one).toFixed(2),
          '-',
        ],
        widths,
      ),
    );
    for (const { workers, result } of runs) {
      const ms = result.leaderboard.wall_time_ms;
      const resolved = MODELS.map(
        (m) => result.leaderboard.rows.find((r) => r.model === m)?.resolved ?? 0,
      ).join('/');
      console.log(
        row(
          [
            `weave bench --workers ${workers}`,
            (ms / 1000).toFixed(1),
            (ms / cells / 1000).toFixed(2),
            (ms / one).toFixed(2),
            resolved,
          ],
          widths,
        ),
      );
    }
    const two = runs[1]?.result.leaderboard.wall_time_ms ?? one;
    console.log(
      `speed-up 2 workers vs 1: ${(one / two).toFixed(2)}×; agent runs + scoring vs scoring alone at 1 worker: ${(one / scoringMs).toFixed(2)}×`,
    );
    const expected = `${TASKS}/0`;
    if (
      runs.some(
        ({ result }) =>
          MODELS.map((m) => result.leaderboard.rows.find((r) => r.model === m)?.resolved ?? 0).join('/') !==
          expected,
      )
    )
      process.exitCode = 1;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
