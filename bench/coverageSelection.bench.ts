// Safe-selection study: seeded one-line mutants applied to source functions of three generated
// workspaces with 30 specs and real tests: (1) 10 modules × 3 specs with node:test, shared and cross-imported
// modules; (2) the same functions in a single-module library whose tests all `require('..')`; (3) the same
// functions in a src-layout Python package whose __init__.py re-exports three of its modules, with pytest
// specs (see pythonSelectionFixture.ts). For each mutant,
// `weave affected --since HEAD` picks specs twice in the same run: from recorded per-spec coverage first (the
// check before the mutants recorded it) and from the static import cones alone. The yardstick is running
// EVERY spec and seeing which verdicts actually changed. Recall must be 100% (no missed breakage); goals:
// mean fraction selected ≤ 30% (multi-module, Python) and ≤ 50% (single-module) with coverage. Exits 1 if
// coverage selection missed a breakage.
// Two more workspaces are TypeScript libraries whose code runs transpiled (test/support/transpiledLibraries.ts,
// dependencies installed from the npm registry and cached under ~/.cache/weave/): (4) vitest over one
// src/index.ts, (5) lib/*.ts compiled by tsc in `pretest` to a git-ignored build/ with source maps, tests
// requiring build/*.js. Coverage reaches their functions through source maps; their tables add a per-file
// column (a spec is picked when its recorded run executed the changed file at all). Goal ≤ 35% on both.
// Environment: WEAVE_BENCH_MUTANTS (default 100 per workspace; the TypeScript ones take at most
// WEAVE_BENCH_TS_MUTANTS, default 40), WEAVE_BENCH_SEED (default 20261130), WEAVE_BENCH_STUDY (run only the
// workspaces whose name contains it: `modules`, `single`, `python`, `vitest`, `tsc`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkWorkspace } from '../src/core/check/checkWorkspace';
import { runSpecs } from '../src/core/check/runSpecs';
import type { Verdict } from '../src/core/check/types';
import { selectAffected } from '../src/core/selection/selectAffected';
import { loadSpecFile } from '../src/core/spec/load';
import { seededPythonMutants, writePythonFixture } from './pythonSelectionFixture';
import { readCoverageStore } from '../src/core/coverage/store';
import { transpiledSources, writeTranspiledLibrary } from '../test/support/transpiledLibraries';
import { seededMutants, seededMutantsIn, type Mutant } from './seededMutants';
import { gitIn, percent, writeSelectionFixture, writeSingleModuleFixture } from './selectionFixture';

const MUTANTS = Number(process.env.WEAVE_BENCH_MUTANTS ?? 100);
const SEED = Number(process.env.WEAVE_BENCH_SEED ?? 20261130);
const TS_MUTANTS = Math.min(MUTANTS, Number(process.env.WEAVE_BENCH_TS_MUTANTS ?? 40));

interface Tally {
  selected: number;
  missed: number;
  all: number;
  ms: number;
  fractions: number[];
  missedRows: string[];
}

const emptyTally = (): Tally => ({ selected: 0, missed: 0, all: 0, ms: 0, fractions: [], missedRows: [] });

interface Study {
  name: string;
  write: (dir: string) => number;
  mutants: (dir: string) => Mutant[];
  goal: number;
  /** Also report per-file selection from the same recorded coverage (the transpiled studies). */
  perFile?: true;
}

async function study({ name, write, mutants: seed, goal, perFile }: Study): Promise<boolean> {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'weave-selection-')));
  try {
    const specCount = write(dir);
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

    // The full check that records coverage is also the unmutated baseline.
    const recorded = await checkWorkspace({ workspaceDir: dir, concurrency });
    const baseline = new Map(recorded.run.results.map((r) => [r.id, r.verdict]));
    const notPassing = [...baseline].filter(([, v]) => v !== 'pass');
    if (notPassing.length > 0)
      throw new Error(`fixture specs must pass before mutation: ${JSON.stringify(notPassing)}`);
    if (recorded.coverage?.specs !== specCount)
      throw new Error(`coverage recorded for ${recorded.coverage?.specs ?? 0} of ${specCount} specs`);

    const mutants = seed(dir);
    const covered = emptyTally();
    const cones = emptyTally();
    const fileLevel = emptyTally();
    const store = await readCoverageStore(dir);
    let brokenTotal = 0;
    let flaky = 0;
    let killed = 0;
    let runAllMs = 0;
    for (const [i, mutant] of mutants.entries()) {
      process.stderr.write(`\r${name}: mutant ${i + 1}/${mutants.length}`);
      const file = path.join(dir, mutant.file);
      const original = fs.readFileSync(file, 'utf8');
      const lines = original.split('\n');
      lines[mutant.line] = mutant.after;
      fs.writeFileSync(file, lines.join('\n'));
      try {
        const picks: Array<[Tally, Set<string>]> = [];
        for (const [tally, useCoverage] of [
          [covered, true],
          [cones, false],
        ] as const) {
          const started = performance.now();
          const selection = await selectAffected({ workspaceDir: dir, since: 'HEAD', useCoverage });
          tally.ms += performance.now() - started;
          if (selection.all) tally.all++;
          picks.push([tally, new Set(selection.affected.map((s) => s.id))]);
        }
        if (perFile) {
          // What coverage kept per file selects: every spec whose recorded run executed the changed file.
          const ids = Object.entries(store.specs)
            .filter(([, entry]) => entry.files[mutant.file] !== undefined)
            .map(([id]) => id);
          if (ids.length === specCount) fileLevel.all++;
          picks.push([fileLevel, new Set(ids)]);
        }
        const started = performance.now();
        const verdicts = await runAll();
        runAllMs += performance.now() - started;
        let changed = [...verdicts].filter(([id, v]) => baseline.get(id) !== v).map(([id]) => id);
        if (perFile && changed.length > 0) {
          // The transpiled studies' specs start vitest or tsc, which a loaded machine can time out: a change
          // counts when a second run of the spec on the same mutant sees it too.
          const again = await runSpecs({
            workspaceDir: dir,
            specFile: loaded.specFile,
            concurrency,
            only: changed,
          });
          const still = new Set(again.filter((r) => baseline.get(r.id) !== r.verdict).map((r) => r.id));
          flaky += changed.filter((id) => !still.has(id)).length;
          changed = changed.filter((id) => still.has(id));
        }
        brokenTotal += changed.length;
        if (changed.length > 0) killed++;
        for (const [tally, selected] of picks) {
          const missed = changed.filter((id) => !selected.has(id));
          tally.selected += selected.size;
          tally.fractions.push(selected.size / specCount);
          tally.missed += missed.length;
          if (missed.length > 0)
            tally.missedRows.push(
              `${mutant.file}:${mutant.line + 1} (${mutant.operator}) missed ${missed.join(', ')}`,
            );
        }
      } finally {
        fs.writeFileSync(file, original);
      }
    }

    process.stderr.write('\n');
    const n = mutants.length;
    const recall = (t: Tally): string =>
      percent(brokenTotal === 0 ? 1 : (brokenTotal - t.missed) / brokenTotal);
    const mean = (t: Tally): string => percent(t.selected / (n * specCount));
    const spread = (t: Tally): string => {
      const sorted = [...t.fractions].sort((a, b) => a - b);
      return `${percent(sorted[Math.floor(n / 2)] ?? 0)} / ${percent(sorted[n - 1] ?? 0)}`;
    };
    const rows: Array<[string, string, string, string]> = [
      ['specs in the fixture', String(specCount), String(specCount), String(specCount)],
      [`mutants (seed ${SEED})`, String(n), String(n), String(n)],
      ['mutants that changed ≥ 1 verdict', String(killed), String(killed), String(killed)],
      ['verdict changes (spec × mutant)', String(brokenTotal), String(brokenTotal), String(brokenTotal)],
      [
        'verdict changes caught',
        String(brokenTotal - covered.missed),
        String(brokenTotal - cones.missed),
        String(brokenTotal),
      ],
      ['recall (goal 100%)', recall(covered), recall(cones), '100.0%'],
      [`mean fraction of specs run (goal ≤ ${goal}%)`, mean(covered), mean(cones), '100.0%'],
      ['median / max fraction', spread(covered), spread(cones), '100.0% / 100.0%'],
      ['mutants where every spec was selected', String(covered.all), String(cones.all), String(n)],
      ['mean time to select', `${(covered.ms / n).toFixed(0)} ms`, `${(cones.ms / n).toFixed(0)} ms`, '—'],
      ['mean time to run every spec (yardstick)', '—', '—', `${(runAllMs / n).toFixed(0)} ms`],
    ];
    const width = Math.max(...rows.map((r) => r[0].length));
    console.log(
      `\n${name}: weave affected, coverage first vs static cones only vs running every spec (${concurrency} cores)\n`,
    );
    console.log(
      `${''.padEnd(width)}  ${'coverage first'.padEnd(16)}  ${'static cones'.padEnd(16)}  run every spec`,
    );
    for (const [label, ours, cone, yardstick] of rows)
      console.log(`${label.padEnd(width)}  ${ours.padEnd(16)}  ${cone.padEnd(16)}  ${yardstick}`);
    if (perFile) {
      console.log(`verdict changes a second run did not confirm (left out): ${flaky}`);
      // The same run's coverage at file granularity: what a transpiled file kept per file would select.
      console.log(
        `per file (same coverage, file granularity): recall ${recall(fileLevel)}, mean ${mean(fileLevel)}, ` +
          `median / max ${spread(fileLevel)}, every spec selected on ${fileLevel.all} of ${n} mutants`,
      );
    }
    for (const [label, t] of [
      ['coverage first', covered],
      ['static cones', cones],
      ...(perFile ? ([['per file', fileLevel]] as const) : []),
    ] as const) {
      if (t.missedRows.length === 0) continue;
      console.log(`\nMISSED BREAKAGES (${label}):`);
      for (const row of t.missedRows.slice(0, 10)) console.log(`  ${row}`);
      if (t.missedRows.length > 10) console.log(`  … and ${t.missedRows.length - 10} more mutants`);
    }
    return covered.missed === 0;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Seeded mutants of a transpiled library that still type-check: `'a' + b` → `'a' - b` fails tsc, and a build
 * that fails in `pretest` fails every spec at once — a build break, which selection does not model (see the
 * README). Every candidate in seeded order, those kept, the first TS_MUTANTS of them.
 */
function typeCorrectMutants(dir: string, kind: 'vitest' | 'tsc'): Mutant[] {
  return seededMutantsIn(dir, transpiledSources(kind), Number.MAX_SAFE_INTEGER, SEED)
    .filter((m) => !(m.operator === '+ → -' && /['"]/.test(m.before)))
    .slice(0, TS_MUTANTS);
}

async function main(): Promise<number> {
  const studies: Study[] = [
    {
      name: '10 modules × 3 specs',
      write: writeSelectionFixture,
      mutants: (dir) => seededMutants(dir, MUTANTS, SEED),
      goal: 30,
    },
    {
      name: 'single-module library, tests require(..)',
      write: writeSingleModuleFixture,
      mutants: (dir) => seededMutants(dir, MUTANTS, SEED, ['index.js']),
      goal: 50,
    },
    {
      name: 'python src-layout package, __init__ re-exports 3 of 10',
      write: writePythonFixture,
      mutants: (dir) => seededPythonMutants(dir, MUTANTS, SEED),
      goal: 30,
    },
    {
      name: 'vitest + TypeScript, one src/index.ts',
      write: (dir) => writeTranspiledLibrary(dir, 'vitest'),
      mutants: (dir) => typeCorrectMutants(dir, 'vitest'),
      goal: 35,
      perFile: true,
    },
    {
      name: 'tsc in pretest to a git-ignored build/ with source maps',
      write: (dir) => writeTranspiledLibrary(dir, 'tsc'),
      mutants: (dir) => typeCorrectMutants(dir, 'tsc'),
      goal: 35,
      perFile: true,
    },
  ];
  let ok = true;
  for (const s of studies.filter((x) => x.name.includes(process.env.WEAVE_BENCH_STUDY ?? ''))) {
    if (!(await study(s))) ok = false;
  }
  return ok ? 0 : 1;
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
