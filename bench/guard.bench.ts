// `npm run bench -- guard`: what an agent pays per tool call for Weave's PreToolUse hook, `dist/guard.js` as the
// installed hooks start it, against its yardstick in the same run: a bare `node -e 0` process start. Three events
// on a git copy of examples/: an Edit of source, a plain shell command (read by src/cli/guard/plainShell.ts, no
// bash grammar), a shell command that needs tree-sitter-bash (a loop and an expansion: the grammar's WebAssembly is
// compiled and started), and the first event of a session (the protected set is recorded). Wall time per process and CPU per process
// (user + system of the process and its children, from a cgroup where one can be made, see cpuMeter.ts).
// Target (#38.4): ≤ 100 ms CPU and ≤ 150 ms wall per event on a quiet machine.
// Environment: WEAVE_BENCH_ROUNDS (default 10).
import { spawnSync, execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startCpuMeter } from './cpuMeter';

const ROUNDS = Number(process.env.WEAVE_BENCH_ROUNDS ?? 10);
const root = path.resolve(__dirname, '../..');
const guard = path.join(root, 'dist/guard.js');

interface Figure {
  wallMs: number[];
  cpuMs: number[];
}

function measure(
  meter: ReturnType<typeof startCpuMeter>,
  args: string[],
  stdin: string,
  env: NodeJS.ProcessEnv,
  before?: () => void,
): { wall: number; cpu: number } {
  before?.();
  const cpu0 = meter.readMs();
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { input: stdin, env, stdio: ['pipe', 'ignore', 'pipe'] });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0 && r.status !== 2) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { wall, cpu: meter.readMs() - cpu0 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const ws = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-bench-guard-'));
  const state = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-bench-guard-state-'));
  await fs.cp(path.join(root, 'examples'), ws, {
    recursive: true,
    filter: (src) => !/[\\/](node_modules|runs|cache)$/.test(src),
  });
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: ws, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@weave.invalid', 'commit', '-q', '-m', 'demo');
  const env = { ...process.env, WEAVE_STATE_DIR: state };
  const event = (extra: Record<string, unknown>): string =>
    JSON.stringify({ session_id: 'bench', cwd: ws, hook_event_name: 'PreToolUse', ...extra });
  const edit = event({ tool_name: 'Edit', tool_input: { file_path: 'src/client.js' } });
  const shell = event({
    tool_name: 'Bash',
    tool_input: { command: 'cd src && grep -n get client.js > /tmp/x' },
  });
  const grammarShell = event({
    tool_name: 'Bash',
    tool_input: { command: 'for f in src/*.js; do grep -n get "$f"; done > /tmp/x' },
  });
  const forget = (): void => void execFileSync('rm', ['-rf', path.join(state, 'sessions')]);
  const meter = startCpuMeter('weave-bench-guard');
  const rows: Array<[string, Figure]> = [
    ['node -e 0 (yardstick)', { wallMs: [], cpuMs: [] }],
    ['guard: Edit of source', { wallMs: [], cpuMs: [] }],
    ['guard: Bash command (plain)', { wallMs: [], cpuMs: [] }],
    ['guard: Bash command (bash grammar)', { wallMs: [], cpuMs: [] }],
    ['guard: first event (records the session)', { wallMs: [], cpuMs: [] }],
  ];
  const cases: Array<[string[], string, (() => void) | undefined]> = [
    [['-e', '0'], '', undefined],
    [[guard, '--agent', 'claude-code'], edit, undefined],
    [[guard, '--agent', 'claude-code'], shell, undefined],
    [[guard, '--agent', 'claude-code'], grammarShell, undefined],
    [[guard, '--agent', 'claude-code'], edit, forget],
  ];
  try {
    // One warm-up of each (the compile cache is filled by the first guard call), then alternating rounds.
    for (const [args, stdin, before] of cases) measure(meter, args, stdin, env, before);
    for (let round = 0; round < ROUNDS; round++)
      cases.forEach(([args, stdin, before], i) => {
        const { wall, cpu } = measure(meter, args, stdin, env, before);
        rows[i]![1].wallMs.push(wall);
        rows[i]![1].cpuMs.push(cpu);
      });
  } finally {
    meter.dispose();
    await fs.rm(ws, { recursive: true, force: true });
    await fs.rm(state, { recursive: true, force: true });
  }
  console.log(
    `${ROUNDS} rounds, median per process; CPU by ${meter.method}; load ${os.loadavg()[0]?.toFixed(1)}`,
  );
  console.log('event'.padEnd(44) + 'wall ms'.padStart(10) + 'CPU ms'.padStart(10));
  for (const [name, f] of rows)
    console.log(
      name.padEnd(44) + median(f.wallMs).toFixed(0).padStart(10) + median(f.cpuMs).toFixed(0).padStart(10),
    );
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
