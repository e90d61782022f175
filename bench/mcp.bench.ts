// Benchmark of `weave_check` over MCP: the round trip an agent pays (tools/call → every spec of the demo runs →
// result), against its yardstick measured in the same run, `weave check` on the command line (a fresh process per
// check, as a hook or a person runs it). Both run the same specs on the same copy of examples/, alternating, and
// both record their run. Also shown: starting the MCP server (spawn + initialize handshake + tools/list), and
// what an agent pays per tool call for the PreToolUse guard hook: `dist/guard.js` and `weave guard` (the full CLI)
// against a bare `node -e ''` process start.
// Environment: WEAVE_BENCH_ROUNDS (default 5).
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const ROUNDS = Number(process.env.WEAVE_BENCH_ROUNDS ?? 5);
const root = path.resolve(__dirname, '../..');
const cli = path.join(root, 'dist/cli.js');

async function demoWorkspace(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-bench-mcp-'));
  await fs.cp(path.join(root, 'examples'), dir, {
    recursive: true,
    filter: (src) => !/[\\/](node_modules|runs|cache)$/.test(src),
  });
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@weave.invalid', 'commit', '-q', '-m', 'demo');
  return dir;
}

function cliCheck(workspace: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, 'check', '--workspace', workspace], { stdio: 'ignore' });
    child.on('error', reject);
    // Exit code 1 is expected: the demo has failing specs on purpose.
    child.on('close', (code) =>
      code === 0 || code === 1 ? resolve(performance.now() - started) : reject(new Error(`exit ${code}`)),
    );
  });
}

/** Wall time of one process fed `stdin`, exit code ignored (a guard answers 0 or 2). */
function timedProcess(args: string[], stdin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - started));
    child.stdin.end(stdin);
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function main(): Promise<void> {
  const workspace = await demoWorkspace();
  try {
    const startedServer = performance.now();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'mcp', '--workspace', workspace],
      stderr: 'ignore',
    });
    const client = new Client({ name: 'weave-bench', version: '1.0.0' });
    await client.connect(transport);
    await client.listTools();
    const startupMs = performance.now() - startedServer;

    const mcp: number[] = [];
    const cliRuns: number[] = [];
    let specs = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      const result = await client.callTool({ name: 'weave_check', arguments: {} });
      mcp.push(performance.now() - started);
      if (result.isError) throw new Error(`weave_check failed: ${JSON.stringify(result.content)}`);
      specs = (result.structuredContent as { specs: unknown[] }).specs.length;
      cliRuns.push(await cliCheck(workspace));
    }
    await client.close();

    const payload = JSON.stringify({
      hook_event_name: 'PreToolUse',
      cwd: workspace,
      tool_name: 'Edit',
      tool_input: { file_path: path.join(workspace, 'src/cache.js') },
    });
    const hooks = { bundle: [] as number[], cli: [] as number[], bare: [] as number[] };
    for (let round = 0; round < ROUNDS * 2; round++) {
      hooks.bundle.push(await timedProcess([path.join(root, 'dist/guard.js')], payload));
      hooks.cli.push(await timedProcess([cli, 'guard'], payload));
      hooks.bare.push(await timedProcess(['-e', ''], ''));
    }

    const m = median(mcp);
    const c = median(cliRuns);
    const widths = [42, 12, 12];
    const row = (cells: string[]): string => cells.map((x, i) => x.padEnd(widths[i] ?? 10)).join('');
    console.log(
      `demo workspace: ${specs} specs, ${ROUNDS} rounds each, alternating, on ${os.availableParallelism()} cores`,
    );
    console.log(row(['', 'median ms', 'min ms']));
    console.log(row(['weave_check over MCP (round trip)', m.toFixed(0), Math.min(...mcp).toFixed(0)]));
    console.log(row(['weave check on the CLI (yardstick)', c.toFixed(0), Math.min(...cliRuns).toFixed(0)]));
    console.log(row(['MCP server start + tools/list', startupMs.toFixed(0), '']));
    console.log(
      row([
        'PreToolUse hook: dist/guard.js',
        median(hooks.bundle).toFixed(0),
        Math.min(...hooks.bundle).toFixed(0),
      ]),
    );
    console.log(
      row([
        'PreToolUse hook: weave guard (full CLI)',
        median(hooks.cli).toFixed(0),
        Math.min(...hooks.cli).toFixed(0),
      ]),
    );
    console.log(
      row(["bare node -e '' (yardstick)", median(hooks.bare).toFixed(0), Math.min(...hooks.bare).toFixed(0)]),
    );
    console.log(`ratio MCP / CLI: ${(m / c).toFixed(2)} (goal ≤ 1.0: a warm server saves the process start)`);
  } finally {
    await fs.rm(workspace, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
