// The safe-selection study (`npm run bench -- selection`): seeded mutants from the core's mutation operators
// (selectionMutants.ts) are applied one at a time to the source of ten workspaces with real tests, and for
// each the same run compares what every way of selecting specs picks against the yardstick, running EVERY spec
// and seeing which verdicts actually changed:
//   coverage      `weave affected --since HEAD` from the per-spec coverage the first check recorded
//   per file      the same coverage at file granularity: every spec whose recorded run executed the changed file
//   static cones  `weave affected` from the static import cones alone (no coverage)
//   naive         the old per-package reading of the cones (naiveSelection.ts)
// The workspaces: (1) 10 modules × 3 specs with node:test, shared and cross-imported modules; (2) the same
// functions in one module whose tests all `require('..')`; (3) tinylib, an npm library whose tests load it by
// `require('..')` and its own name; (4) the same 10 modules in a src-layout Python package whose __init__.py
// re-exports three of them (pythonSelectionFixture.ts); (5) pyslim, a src-layout package with `from . import X`
// plugins; (6) vitest over one src/index.ts and (7) lib/*.ts compiled by tsc in `pretest` to a git-ignored
// build/ with source maps (test/support/transpiledLibraries.ts; dependencies from the npm registry, cached under
// ~/.cache/weave/); (8) a vitest 4 URL library, half its specs in the forks pool and half in threads
// (test/support/vitest4Library.ts; the project's own vitest), recorded by 5 full checks, each counted in
// `checks mapped` when every spec's coverage mapped to functions; (9) the same library under jest 30's worker
// pool and (10) under `node --test` with Node's own type stripping (test/support/tsRunnerLibraries.ts), 5 checks
// each. On the three real-shaped TypeScript libraries the `weave affected` CLI is timed too (wall and CPU, with
// `weave --version` as the start-up yardstick). Recall must be 100% for coverage and static cones; exits 1 if
// either missed a breakage.
// A verdict change counts when a second run of the spec on the same mutant sees it too (a loaded machine can
// time a spec out); the ones left out are reported.
// Environment: WEAVE_BENCH_MUTANTS (at most this many per workspace; default 100: tinylib takes at most 40,
// pyslim 20, the TypeScript ones WEAVE_BENCH_TS_MUTANTS, default 40), WEAVE_BENCH_SEED (default 20261130),
// WEAVE_BENCH_STUDY (only the workspaces whose name contains it: `modules`, `single`, `tinylib`, `python`,
// `pyslim`, `vitest`, `tsc`, `vitest 4`, `jest 30`, `node --test`, `URL library`), WEAVE_BENCH_VITEST4_MUTANTS and
// WEAVE_BENCH_TS_RUNNER_MUTANTS (default 20 each), WEAVE_BENCH_AFFECTED_ROUNDS (default 5).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadAnchoredWorkspace } from '../src/core/anchors/anchoredWorkspace';
import { checkWorkspace } from '../src/core/fullCheck/checkWorkspace';
import { runSpecs } from '../src/core/check/runSpecs';
import type { Verdict } from '../src/core/check/types';
import { readCoverageStore } from '../src/core/coverage/store';
import { selectAffected } from '../src/core/selection/selectAffected';
import { applyMutant } from '../src/core/audit/mutants';
import {
  transpiledSources,
  writeTranspiledLibrary,
  type TranspiledKind,
} from '../test/support/transpiledLibraries';
import { VITEST4_SOURCES, writeVitest4Library } from '../test/support/vitest4Library';
import { TS_RUNNER_SOURCES, writeTsRunnerLibrary } from '../test/support/tsRunnerLibraries';
import { startCpuMeter, type CpuMeter } from './cpuMeter';
import { naiveSelector, withDependents } from './naiveSelection';
import { PYTHON_PACKAGE, writePythonFixture } from './pythonSelectionFixture';
import { firstKept, seededOrder, typeChecker } from './selectionMutants';
import { gitIn, percent, writeSelectionFixture, writeSingleModuleFixture } from './selectionFixture';

const MUTANTS = Number(process.env.WEAVE_BENCH_MUTANTS ?? 100);
const SEED = Number(process.env.WEAVE_BENCH_SEED ?? 20261130);
const TS_MUTANTS = Math.min(MUTANTS, Number(process.env.WEAVE_BENCH_TS_MUTANTS ?? 40));
const TS_RUNNER_MUTANTS = Number(process.env.WEAVE_BENCH_TS_RUNNER_MUTANTS ?? 20);
const AFFECTED_ROUNDS = Number(process.env.WEAVE_BENCH_AFFECTED_ROUNDS ?? 5);
const repoRoot = path.resolve(__dirname, '../..');
const cli = path.join(repoRoot, 'dist/cli.js');

interface Study {
  name: string;
  /** Writes the workspace into dir. */
  write: (dir: string) => void;
  /** Workspace-relative files the mutants go into. */
  sources: (dir: string) => string[];
  count: number;
  /** Goal for the coverage column's mean fraction selected, in percent (the fixtures' own libraries have none). */
  goal?: number;
  /** Only mutants that still type-check under this tsconfig. */
  tsconfig?: string;
  /**
   * Full checks recording every spec's coverage afresh before the mutants (default 1), each counted when every
   * spec's coverage maps to functions (no file kept whole): vitest 4 used to map for only some specs.
   */
  recordedChecks?: number;
  /** Time the `weave affected` CLI on the recorded workspace (the real-shaped TypeScript libraries). */
  timeAffected?: boolean;
}

const jsFiles = (dir: string, folder: string, ext: string): string[] =>
  fs
    .readdirSync(path.join(dir, folder))
    .filter((f) => f.endsWith(ext))
    .sort()
    .map((f) => `${folder}/${f}`);

function copyFixture(name: string, dir: string): void {
  fs.cpSync(path.join(repoRoot, 'test/fixtures/intel', name), dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, '.gitignore'),
    '.weave/runs/\n.weave/cache/\n__pycache__/\n.pytest_cache/\n',
  );
}

const transpiled = (name: string, kind: TranspiledKind, tsconfig: string): Study => ({
  name,
  write: (dir) => void writeTranspiledLibrary(dir, kind),
  sources: () => transpiledSources(kind),
  count: TS_MUTANTS,
  goal: 35,
  tsconfig,
});

const STUDIES: Study[] = [
  {
    name: 'generated: 10 modules × 3 specs',
    write: (dir) => void writeSelectionFixture(dir),
    sources: (dir) => jsFiles(dir, 'src', '.js'),
    count: MUTANTS,
    goal: 30,
  },
  {
    name: 'single-module library, tests require(..)',
    write: (dir) => void writeSingleModuleFixture(dir),
    sources: () => ['index.js'],
    count: MUTANTS,
    goal: 50,
  },
  {
    name: 'tinylib (npm, require(..))',
    write: (dir) => copyFixture('tinylib', dir),
    sources: () => ['index.js', 'index.mjs', 'lib/pad.js', 'lib/words.js'],
    count: Math.min(40, MUTANTS),
  },
  {
    name: 'python src-layout package, __init__ re-exports 3 of 10',
    write: (dir) => void writePythonFixture(dir),
    sources: (dir) => jsFiles(dir, `src/${PYTHON_PACKAGE}`, '.py'),
    count: MUTANTS,
    goal: 30,
  },
  {
    name: 'pyslim (src layout, pytest)',
    write: (dir) => copyFixture('pyslim', dir),
    sources: () =>
      ['__init__.py', 'core.py', 'func.py', 'plugins/alpha.py', 'plugins/beta.py', 'plugins/registry.py'].map(
        (f) => `src/pyslim/${f}`,
      ),
    // pytest starts slowly: every mutant runs all five specs once more as the yardstick.
    count: Math.min(20, MUTANTS),
  },
  transpiled('vitest + TypeScript, one src/index.ts', 'vitest', 'tsconfig.json'),
  transpiled('tsc in pretest to a git-ignored build/ with source maps', 'tsc', 'tsconfig.test.json'),
  {
    name: 'vitest 4 URL library, forks + threads',
    write: (dir) => void writeVitest4Library(dir),
    sources: () => VITEST4_SOURCES,
    // Every mutant runs all 8 vitest specs (and again the ones whose verdict changed).
    count: Math.min(Number(process.env.WEAVE_BENCH_VITEST4_MUTANTS ?? 20), MUTANTS),
    goal: 35,
    tsconfig: 'tsconfig.json',
    recordedChecks: 5,
    timeAffected: true,
  },
  {
    name: 'jest 30 URL library, worker pool',
    write: (dir) => writeTsRunnerLibrary(dir, 'jest'),
    sources: () => TS_RUNNER_SOURCES,
    count: Math.min(TS_RUNNER_MUTANTS, MUTANTS),
    goal: 35,
    tsconfig: 'tsconfig.json',
    recordedChecks: 5,
    timeAffected: true,
  },
  {
    name: 'node --test URL library, Node type stripping',
    write: (dir) => writeTsRunnerLibrary(dir, 'node'),
    sources: () => TS_RUNNER_SOURCES,
    count: Math.min(TS_RUNNER_MUTANTS, MUTANTS),
    goal: 35,
    tsconfig: 'tsconfig.json',
    recordedChecks: 5,
    timeAffected: true,
  },
];

interface Tally {
  selected: number;
  missed: number;
  all: number;
  ms: number;
  max: number;
  missedRows: string[];
}

const emptyTally = (): Tally => ({ selected: 0, missed: 0, all: 0, ms: 0, max: 0, missedRows: [] });
const COLUMNS = ['coverage', 'per file', 'static cones', 'naive'] as const;
type Column = (typeof COLUMNS)[number];

interface Outcome {
  name: string;
  goal: number | undefined;
  specs: number;
  mutants: number;
  /** Candidates the operators offered in the chosen bodies (before the type check and the count). */
  pool: number;
  killed: number;
  changes: number;
  unconfirmed: number;
  runAllMs: number;
  tallies: Record<Column, Tally>;
  /** Recorded checks in which every spec's coverage mapped to functions, of how many. */
  mappedChecks: [number, number];
  /** Median wall and CPU ms of `weave affected` and of `weave --version` (the CLI's start-up) there. */
  affected?: { wallMs: number; cpuMs: number; startWallMs: number; startCpuMs: number };
}

async function runStudy(study: Study, meter: CpuMeter | undefined): Promise<Outcome> {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'weave-selection-')));
  try {
    study.write(dir);
    gitIn(dir, 'init', '-q', '-b', 'main');
    gitIn(dir, 'add', '-A');
    gitIn(dir, 'commit', '-q', '-m', 'fixture');
    const concurrency = os.availableParallelism();
    // The full check that records coverage is also the unmutated baseline.
    let recorded = await checkWorkspace({ workspaceDir: dir, concurrency });
    const mappedChecks: [number, number] = [(await everySpecMapped(dir)) ? 1 : 0, 1];
    for (let i = 1; i < (study.recordedChecks ?? 1); i++) {
      recorded = await checkWorkspace({ workspaceDir: dir, concurrency, freshCoverage: true });
      mappedChecks[1]++;
      if (await everySpecMapped(dir)) mappedChecks[0]++;
    }
    const specFile = recorded.specFile;
    const specCount = specFile.specs.length;
    const baseline = new Map(recorded.run.results.map((r) => [r.id, r.verdict]));
    const notPassing = [...baseline].filter(([, v]) => v !== 'pass');
    if (notPassing.length > 0)
      throw new Error(`${study.name}: specs must pass before mutation: ${JSON.stringify(notPassing)}`);
    if (recorded.coverage?.specs !== specCount)
      throw new Error(
        `${study.name}: coverage recorded for ${recorded.coverage?.specs ?? 0} of ${specCount} specs`,
      );

    const ws = await loadAnchoredWorkspace(dir, { useCache: false });
    const order = await seededOrder(ws, study.sources(dir), SEED);
    const keep = study.tsconfig ? typeChecker(dir, study.tsconfig, study.sources(dir)) : undefined;
    const mutants = firstKept(order, study.count, keep);
    const naive = naiveSelector(ws);
    const store = await readCoverageStore(dir);
    const tallies = Object.fromEntries(COLUMNS.map((c) => [c, emptyTally()])) as Record<Column, Tally>;
    const out: Outcome = {
      name: study.name,
      goal: study.goal,
      specs: specCount,
      mutants: mutants.length,
      pool: order.length,
      killed: 0,
      changes: 0,
      unconfirmed: 0,
      runAllMs: 0,
      tallies,
      mappedChecks,
    };
    const runAll = async (only?: string[]): Promise<Map<string, Verdict>> =>
      new Map(
        (await runSpecs({ workspaceDir: dir, specFile, concurrency, ...(only ? { only } : {}) })).map((r) => [
          r.id,
          r.verdict,
        ]),
      );
    for (const [i, mutant] of mutants.entries()) {
      process.stderr.write(`\r${study.name}: mutant ${i + 1}/${mutants.length}`);
      const file = path.join(dir, mutant.file);
      const original = fs.readFileSync(file, 'utf8');
      fs.writeFileSync(file, applyMutant(original, mutant));
      try {
        const picks = new Map<Column, Set<string>>();
        for (const [column, useCoverage] of [
          ['coverage', true],
          ['static cones', false],
        ] as const) {
          const started = performance.now();
          const selection = await selectAffected({ workspaceDir: dir, since: 'HEAD', useCoverage });
          tallies[column].ms += performance.now() - started;
          if (selection.all) tallies[column].all++;
          picks.set(column, new Set(selection.affected.map((s) => s.id)));
        }
        const ranFile = Object.entries(store.specs)
          .filter(([, entry]) => entry.files[mutant.file] !== undefined)
          .map(([id]) => id);
        picks.set('per file', withDependents(specFile, new Set(ranFile)));
        picks.set('naive', naive(mutant.file));
        for (const column of ['per file', 'naive'] as const)
          if (picks.get(column)!.size === specCount) tallies[column].all++;

        const started = performance.now();
        const verdicts = await runAll();
        out.runAllMs += performance.now() - started;
        let changed = [...verdicts].filter(([id, v]) => baseline.get(id) !== v).map(([id]) => id);
        if (changed.length > 0) {
          const again = await runAll(changed);
          const still = changed.filter((id) => again.has(id) && again.get(id) !== baseline.get(id));
          out.unconfirmed += changed.length - still.length;
          changed = still;
        }
        out.changes += changed.length;
        if (changed.length > 0) out.killed++;
        for (const column of COLUMNS) {
          const t = tallies[column];
          const selected = picks.get(column)!;
          const missed = changed.filter((id) => !selected.has(id));
          t.selected += selected.size;
          t.max = Math.max(t.max, selected.size / specCount);
          t.missed += missed.length;
          if (missed.length > 0)
            t.missedRows.push(
              `${mutant.file}:${mutant.line} (${mutant.operator} ${mutant.original} → ${mutant.replacement}) missed ${missed.join(', ')}`,
            );
        }
      } finally {
        fs.writeFileSync(file, original);
      }
    }
    process.stderr.write('\n');
    if (study.timeAffected && meter) out.affected = timeAffected(dir, study.sources(dir)[0]!, meter);
    return out;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;

/**
 * `weave affected` as a user runs it (the CLI, a warm index and coverage store, a one-line edit left uncommitted),
 * against `weave --version` (the CLI's own start-up) measured in the same rounds: medians of wall and CPU ms.
 */
function timeAffected(dir: string, edited: string, meter: CpuMeter): NonNullable<Outcome['affected']> {
  const file = path.join(dir, edited);
  const original = fs.readFileSync(file, 'utf8');
  fs.appendFileSync(file, '\nexport const benchEdit = 1;\n');
  const run = (args: string[]): [number, number] => {
    const cpu0 = meter.readMs();
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [cli, ...args], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    if (r.status !== 0) throw new Error(`weave ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return [Number(process.hrtime.bigint() - t0) / 1e6, meter.readMs() - cpu0];
  };
  try {
    run(['affected']); // warm-up: the index refreshes the edited file
    const affected: Array<[number, number]> = [];
    const start: Array<[number, number]> = [];
    for (let round = 0; round < AFFECTED_ROUNDS; round++) {
      start.push(run(['--version']));
      affected.push(run(['affected']));
    }
    return {
      wallMs: median(affected.map((a) => a[0])),
      cpuMs: median(affected.map((a) => a[1])),
      startWallMs: median(start.map((a) => a[0])),
      startCpuMs: median(start.map((a) => a[1])),
    };
  } finally {
    fs.writeFileSync(file, original);
  }
}

/** Every spec's coverage maps to functions: no file of its entry is kept whole (its data files aside). */
async function everySpecMapped(dir: string): Promise<boolean> {
  const store = await readCoverageStore(dir);
  const entries = Object.values(store.specs);
  return (
    entries.length > 0 &&
    entries.every((entry) =>
      Object.entries(entry.files).every(([file, c]) => c.wholeFile !== true || !/\.[cm]?[jt]sx?$/.test(file)),
    )
  );
}

function recall(o: Outcome, t: Tally): string {
  return percent(o.changes === 0 ? 1 : (o.changes - t.missed) / o.changes);
}

function mean(o: Outcome, t: Tally): string {
  return percent(o.mutants === 0 ? 0 : t.selected / (o.mutants * o.specs));
}

function printTable(outcomes: Outcome[]): void {
  const header = [
    'workspace',
    'specs',
    'mutants (pool)',
    'killed',
    'verdict Δ',
    'unconfirmed',
    ...COLUMNS.map((c) => `${c}: recall / mean`),
    'coverage max',
    'goal',
    'checks mapped',
    'select ms cov / cones',
    'every spec ms',
    'affected wall/CPU ms (start-up)',
  ];
  const rows = outcomes.map((o) => [
    o.name,
    String(o.specs),
    `${o.mutants} (${o.pool})`,
    String(o.killed),
    String(o.changes),
    String(o.unconfirmed),
    ...COLUMNS.map((c) => `${recall(o, o.tallies[c])} / ${mean(o, o.tallies[c])}`),
    percent(o.tallies.coverage.max),
    o.goal === undefined ? '—' : `≤ ${o.goal}%`,
    `${o.mappedChecks[0]}/${o.mappedChecks[1]}`,
    `${(o.tallies.coverage.ms / Math.max(1, o.mutants)).toFixed(0)} / ${(o.tallies['static cones'].ms / Math.max(1, o.mutants)).toFixed(0)}`,
    (o.runAllMs / Math.max(1, o.mutants)).toFixed(0),
    o.affected === undefined
      ? '—'
      : `${o.affected.wallMs.toFixed(0)}/${o.affected.cpuMs.toFixed(0)} (${o.affected.startWallMs.toFixed(0)}/${o.affected.startCpuMs.toFixed(0)})`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  console.log(
    `\nSafe selection: weave affected from coverage, coverage per file, static cones and the naive per-package ` +
      `cones vs running every spec (${os.availableParallelism()} cores, seed ${SEED}; mean = fraction of specs selected)\n`,
  );
  console.log(header.map((h, i) => h.padEnd(widths[i]!)).join('  '));
  for (const row of rows) console.log(row.map((c, i) => c.padEnd(widths[i]!)).join('  '));
}

async function main(): Promise<number> {
  const outcomes: Outcome[] = [];
  const studies = STUDIES.filter((s) => s.name.includes(process.env.WEAVE_BENCH_STUDY ?? ''));
  const meter = studies.some((s) => s.timeAffected) ? startCpuMeter('weave-bench-selection') : undefined;
  try {
    for (const study of studies) outcomes.push(await runStudy(study, meter));
  } finally {
    meter?.dispose();
  }
  printTable(outcomes);
  if (meter !== undefined)
    console.log(
      `\naffected: \`weave affected\` (CLI, warm index and coverage, one line appended to the first source) and ` +
        `\`weave --version\`, median of ${AFFECTED_ROUNDS}; CPU by ${meter.method}; load ${os.loadavg()[0]?.toFixed(1)}`,
    );
  let ok = true;
  for (const o of outcomes) {
    for (const column of COLUMNS) {
      const t = o.tallies[column];
      if (t.missedRows.length === 0) continue;
      // Coverage and the static cones are Weave's selections: a miss there fails the bench.
      if (column === 'coverage' || column === 'static cones') ok = false;
      console.log(`\nMISSED BREAKAGES (${o.name}, ${column}):`);
      for (const row of t.missedRows.slice(0, 10)) console.log(`  ${row}`);
      if (t.missedRows.length > 10) console.log(`  … and ${t.missedRows.length - 10} more mutants`);
    }
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
