// `npm run bench -- affected`: what `weave affected` costs on a warm index and coverage store (#40.5: ≤ 1 s on
// a quiet machine), and where it goes, against yardsticks measured in the same run: a bare `node -e 0` (process
// start), `git diff --name-only` (what any tool pays to know the change), `weave --version` (the CLI's own
// start-up: loading its bundle) and `weave affected --no-coverage` (without the coverage store). Two workspaces: a
// git copy of examples/ (8 specs) and the selection bench's generated one (30 specs over 10 modules). Each gets
// one `weave check` (index and coverage recorded), then a one-line edit of a source file that stays uncommitted.
// Wall time and CPU (user + system, process and children; cgroup where one can be made, cpuMeter.ts) per process.
// Environment: WEAVE_BENCH_ROUNDS (default 10).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startCpuMeter } from './cpuMeter';
import { gitIn, writeSelectionFixture } from './selectionFixture';

const ROUNDS = Number(process.env.WEAVE_BENCH_ROUNDS ?? 10);
const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'dist/cli.js');

interface Row {
  name: string;
  command: string[];
  wallMs: number[];
  cpuMs: number[];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function run(command: string[], cwd: string, env: NodeJS.ProcessEnv): void {
  const r = spawnSync(command[0]!, command.slice(1), { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`${command.join(' ')} exited ${r.status}: ${r.stderr}`);
}

function prepare(name: string, state: string): { dir: string; edit: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `weave-bench-affected-${name}-`));
  let edit: string;
  if (name === 'examples') {
    fs.cpSync(path.join(root, 'examples'), dir, {
      recursive: true,
      filter: (src) => !/[\\/](node_modules|runs|cache)$/.test(src),
    });
    edit = 'src/client.js';
  } else {
    writeSelectionFixture(dir);
    edit = 'src/m4.js';
  }
  gitIn(dir, 'init', '-q', '-b', 'main');
  gitIn(dir, 'add', '-A');
  gitIn(dir, 'commit', '-q', '-m', 'bench');
  // One check records the index and every spec's coverage; its exit code is the specs' business.
  spawnSync(process.execPath, [cli, 'check'], {
    cwd: dir,
    env: { ...process.env, WEAVE_STATE_DIR: state },
    stdio: 'ignore',
  });
  fs.appendFileSync(path.join(dir, edit), '\nconst benchEdit = 1;\n');
  return { dir, edit };
}

function main(): void {
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-bench-affected-state-'));
  const env = { ...process.env, WEAVE_STATE_DIR: state };
  const meter = startCpuMeter('weave-bench-affected');
  const lines: string[] = [];
  const dirs: string[] = [];
  try {
    for (const name of ['examples', 'generated']) {
      const { dir } = prepare(name, state);
      dirs.push(dir);
      const rows: Row[] = [
        { name: 'node -e 0', command: [process.execPath, '-e', '0'], wallMs: [], cpuMs: [] },
        { name: 'git diff --name-only', command: ['git', 'diff', '--name-only'], wallMs: [], cpuMs: [] },
        {
          name: 'weave --version (CLI start-up)',
          command: [process.execPath, cli, '--version'],
          wallMs: [],
          cpuMs: [],
        },
        {
          name: 'weave affected --no-coverage',
          command: [process.execPath, cli, 'affected', '--no-coverage'],
          wallMs: [],
          cpuMs: [],
        },
        { name: 'weave affected', command: [process.execPath, cli, 'affected'], wallMs: [], cpuMs: [] },
      ];
      // One warm-up of each (compile cache, index refresh of the edited file), then alternating rounds.
      for (const row of rows) run(row.command, dir, env);
      for (let round = 0; round < ROUNDS; round++)
        for (const row of rows) {
          const cpu0 = meter.readMs();
          const t0 = process.hrtime.bigint();
          run(row.command, dir, env);
          row.wallMs.push(Number(process.hrtime.bigint() - t0) / 1e6);
          row.cpuMs.push(meter.readMs() - cpu0);
        }
      lines.push(`${name} (${dir.includes('examples') ? 8 : 30} specs, one source file edited):`);
      for (const row of rows)
        lines.push(
          `  ${row.name.padEnd(34)}${median(row.wallMs).toFixed(0).padStart(9)}${median(row.cpuMs).toFixed(0).padStart(9)}`,
        );
    }
  } finally {
    meter.dispose();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  }
  console.log(
    `${ROUNDS} rounds, median per process; CPU by ${meter.method}; load ${os.loadavg()[0]?.toFixed(1)}`,
  );
  console.log(`  ${'command'.padEnd(34)}${'wall ms'.padStart(9)}${'CPU ms'.padStart(9)}`);
  for (const line of lines) console.log(line);
}

main();
