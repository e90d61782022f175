// Safe-selection study (issue #3): on a generated workspace with 30 specs (10 modules × 3, real node:test tests,
// shared and cross-imported modules), apply seeded one-line mutants to source functions. For each mutant,
// `weave affected --since HEAD` picks specs; the yardstick, measured in the same run, is running EVERY spec
// and seeing which verdicts actually changed. Recall must be 100% (no missed breakage); goal: mean fraction of
// specs selected ≤ 30%. Exits 1 if any breakage was missed.
// Environment: WEAVE_BENCH_MUTANTS (default 100), WEAVE_BENCH_SEED (default 20261130).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSpecs } from '../src/core/check/runSpecs';
import type { Verdict } from '../src/core/check/types';
import { selectAffected } from '../src/core/intel/affected';
import { loadSpecFile } from '../src/core/spec/load';
import { seededMutants, writeSelectionFixture } from './selectionFixture';

const MUTANTS = Number(process.env.WEAVE_BENCH_MUTANTS ?? 100);
const SEED = Number(process.env.WEAVE_BENCH_SEED ?? 20261130);

function gitIn(dir: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd: dir,
    stdio: 'ignore',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'b',
      GIT_AUTHOR_EMAIL: 'b@example.invalid',
      GIT_COMMITTER_NAME: 'b',
      GIT_COMMITTER_EMAIL: 'b@example.invalid',
    },
  });
}

function percent(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

async function main(): Promise<number> {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'weave-selection-')));
  try {
    const specCount = writeSelectionFixture(dir);
    gitIn(dir, 'init', '-q', '-b', 'main');
    gitIn(dir, 'add', '-A');
    gitIn(dir, 'commit', '-q', '-m', 'fixture');
    const loaded = await loadSpecFile(dir);
    if (!loaded.ok)
      throw new Error(`fixture spec file invalid: ${loaded.problems.map((p) => p.message).join('; ')}`);
    const concurrency = os.availableParallelism();
    const runAll = async (): Promise<Map<string, Verdict>> =>
      new Map(
        (await runSpecs({ workspaceDir: dir, specFile: loaded.specFile, concurrency })).map((r) => [
          r.id,
          r.verdict,
        ]),
      );

    const baseline = await runAll();
    const notPassing = [...baseline].filter(([, v]) => v !== 'pass');
    if (notPassing.length > 0)
      throw new Error(`fixture specs must pass before mutation: ${JSON.stringify(notPassing)}`);

    const mutants = seededMutants(dir, MUTANTS, SEED);
    let selectedTotal = 0;
    let brokenTotal = 0;
    let missedTotal = 0;
    let killed = 0;
    let allSelected = 0;
    let selectMs = 0;
    let runAllMs = 0;
    const fractions: number[] = [];
    const missedRows: string[] = [];
    for (const [i, mutant] of mutants.entries()) {
      process.stderr.write(`\rmutant ${i + 1}/${mutants.length}`);
      const file = path.join(dir, mutant.file);
      const original = fs.readFileSync(file, 'utf8');
      const lines = original.split('\n');
      lines[mutant.line] = mutant.after;
      fs.writeFileSync(file, lines.join('\n'));
      try {
        let started = performance.now();
        const selection = await selectAffected({ workspaceDir: dir, since: 'HEAD' });
        selectMs += performance.now() - started;
        const selected = new Set(selection.affected.map((s) => s.id));
        started = performance.now();
        const verdicts = await runAll();
        runAllMs += performance.now() - started;
        const changed = [...verdicts].filter(([id, v]) => baseline.get(id) !== v).map(([id]) => id);
        const missed = changed.filter((id) => !selected.has(id));
        selectedTotal += selected.size;
        fractions.push(selected.size / specCount);
        brokenTotal += changed.length;
        if (changed.length > 0) killed++;
        if (selection.all) allSelected++;
        missedTotal += missed.length;
        if (missed.length > 0) {
          missedRows.push(
            `${mutant.file}:${mutant.line + 1} (${mutant.operator}) missed ${missed.join(', ')}`,
          );
        }
      } finally {
        fs.writeFileSync(file, original);
      }
    }

    process.stderr.write('\n');
    const n = mutants.length;
    const recall = brokenTotal === 0 ? 1 : (brokenTotal - missedTotal) / brokenTotal;
    const sorted = [...fractions].sort((a, b) => a - b);
    const meanFraction = selectedTotal / (n * specCount);
    const rows: Array<[string, string, string]> = [
      ['specs in the fixture', String(specCount), String(specCount)],
      ['mutants (seed ' + SEED + ')', String(n), String(n)],
      ['mutants that changed ≥ 1 verdict', String(killed), String(killed)],
      ['verdict changes (spec × mutant)', String(brokenTotal), String(brokenTotal)],
      ['verdict changes caught', String(brokenTotal - missedTotal), String(brokenTotal)],
      ['recall (goal 100%)', percent(recall), '100.0%'],
      ['mean fraction of specs run (goal ≤ 30%)', percent(meanFraction), '100.0%'],
      [
        'median / max fraction',
        `${percent(sorted[Math.floor(n / 2)] ?? 0)} / ${percent(sorted[n - 1] ?? 0)}`,
        '100.0% / 100.0%',
      ],
      ['mutants where every spec was selected', String(allSelected), String(n)],
      ['mean time to select (index + git diff)', `${(selectMs / n).toFixed(0)} ms`, '—'],
      ['mean time to run every spec (yardstick)', '—', `${(runAllMs / n).toFixed(0)} ms`],
    ];
    const width = Math.max(...rows.map((r) => r[0].length));
    console.log(`Safe selection: weave affected vs running every spec (${concurrency} cores)\n`);
    console.log(`${''.padEnd(width)}  ${'weave affected'.padEnd(18)}  run every spec`);
    for (const [label, ours, yardstick] of rows)
      console.log(`${label.padEnd(width)}  ${ours.padEnd(18)}  ${yardstick}`);
    if (missedRows.length > 0) {
      console.log('\nMISSED BREAKAGES:');
      for (const row of missedRows) console.log(`  ${row}`);
      return 1;
    }
    return 0;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
