// Benchmark in the real extension host on a committed copy of examples/: activation time, and the time from
// "Weave: check constraints" to the diagnostics being visible through vscode.languages (cold: first check, which
// also builds the tree-sitter index; warm: later checks). Yardstick, same run, same workspace: the CLI's
// `weave check` (same core, no editor). Figures go to WEAVE_BENCH_OUT as JSON and to the log as a table.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { CheckAttempt } from '../../../src/extension/checks';
import { until, weaveApi, workspaceUri } from '../helpers';

const WARM_RUNS = 3;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

function weaveDiagnosticCount(): number {
  return vscode.languages
    .getDiagnostics()
    .reduce(
      (n, [, ds]) => n + ds.filter((d) => d.source === 'weave' && typeof d.code === 'string').length,
      0,
    );
}

async function commandToDiagnostics(): Promise<number> {
  vscode.languages.getDiagnostics(); // nothing cached: each measurement starts from the call below
  const t0 = performance.now();
  const result = await vscode.commands.executeCommand<CheckAttempt>('weave.check');
  assert.equal(result.ran, true, result.ran ? '' : result.message);
  await until('weave diagnostics', () => (weaveDiagnosticCount() > 0 ? true : undefined), 60_000);
  return performance.now() - t0;
}

/** `weave check` as a child process (async: a blocked extension host would lose its connection). */
async function cliCheck(): Promise<number> {
  const repo = process.env.WEAVE_REPO_ROOT;
  assert.ok(repo, 'WEAVE_REPO_ROOT not set');
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [path.join(repo, 'dist/cli.js'), 'check', '--workspace', workspaceUri().fsPath],
    {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.ok(status === 0 || status === 1, `weave check exited ${status}: ${stderr}`);
  return performance.now() - t0;
}

suite('benchmark: examples/ in the real extension host', () => {
  test('activation and command-to-diagnostics, with the CLI as yardstick', async () => {
    const api = await weaveApi();
    const specCount = (await vscode.workspace.findFiles('.weave/specs.json')).length;
    assert.equal(specCount, 1);
    const cold = await commandToDiagnostics();
    const warm: number[] = [];
    for (let i = 0; i < WARM_RUNS; i++) warm.push(await commandToDiagnostics());
    const cli: number[] = [];
    for (let i = 0; i < WARM_RUNS; i++) cli.push(await cliCheck());
    const last = api.lastRun();
    const figures = {
      vscodeVersion: vscode.version,
      specs: last?.specFile.specs.length ?? 0,
      activationMs: Number(api.activationMs.toFixed(2)),
      commandToDiagnosticsColdMs: Math.round(cold),
      commandToDiagnosticsWarmMedianMs: Math.round(median(warm)),
      cliCheckMedianMs: Math.round(median(cli)),
      lastCheckInsideExtensionMs: Math.round(last?.durationMs ?? NaN),
      lastAnchorsMs: Math.round(last?.anchorsMs ?? NaN),
      warmRuns: warm.map(Math.round),
      cliRuns: cli.map(Math.round),
      diagnostics: weaveDiagnosticCount(),
    };
    console.log('\nWeave in the extension host (examples/)');
    console.log(`  activation                         ${figures.activationMs} ms`);
    console.log(
      `  command → diagnostics, cold        ${figures.commandToDiagnosticsColdMs} ms (incl. first index)`,
    );
    console.log(`  command → diagnostics, warm median ${figures.commandToDiagnosticsWarmMedianMs} ms`);
    console.log(
      `  yardstick: \`weave check\` CLI      ${figures.cliCheckMedianMs} ms (median of ${WARM_RUNS})`,
    );
    const out = process.env.WEAVE_BENCH_OUT;
    if (out) {
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, `${JSON.stringify(figures, null, 2)}\n`);
    }
    assert.ok(figures.diagnostics > 0, 'the demo has a failing spec: there must be diagnostics');
  });
});
