// Safe-selection study on three workspaces: the generated one (10 modules × 3 specs, real
// node:test tests, shared and cross-imported modules), tinylib (a single-module npm library whose tests load it
// by `require('..')`, `require('..')` and its own name) and pyslim (a src-layout Python package whose
// __init__.py re-exports part of it, with `from . import X` plugins). Seeded one-line mutants are applied to
// their source; for each, `weave affected --since HEAD` picks specs. The yardstick, in the same run, is running
// EVERY spec and seeing which verdicts actually changed. Next to Weave's static selection, the naive per-file
// baseline: every spec whose cone contains the changed file when importing a package (a folder with
// __init__.py or package.json) counts as loading every file of that package. Recall must be 100% for Weave
// (no missed breakage). Exits 1 if any breakage was missed.
// Environment: WEAVE_BENCH_MUTANTS (default 100, generated workspace; tinylib takes up to 40, pyslim up to 20),
// WEAVE_BENCH_SEED (default 20261130).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSpecs } from '../src/core/check/runSpecs';
import type { Verdict } from '../src/core/check/types';
import { selectAffected } from '../src/core/selection/selectAffected';
import { specCones } from '../src/core/selection/cones';
import { loadAnchoredWorkspace } from '../src/core/anchors/anchoredWorkspace';
import type { SpecFile } from '../src/shared/specSchema';
import { seededMutants, seededMutantsIn, type Mutant } from './seededMutants';
import { gitIn, percent, writeSelectionFixture } from './selectionFixture';

const MUTANTS = Number(process.env.WEAVE_BENCH_MUTANTS ?? 100);
const SMALL_MUTANTS = Math.min(40, MUTANTS);
/** pytest starts slowly: every mutant runs all five specs once more as the yardstick. */
const PYTHON_MUTANTS = Math.min(20, MUTANTS);
const SEED = Number(process.env.WEAVE_BENCH_SEED ?? 20261130);
const repoRoot = path.resolve(__dirname, '../..');

interface Study {
  name: string;
  /** Writes the workspace into dir; returns the mutants. */
  setUp(dir: string): Mutant[];
}

const studies: Study[] = [
  {
    name: 'generated (30 specs)',
    setUp: (dir) => {
      writeSelectionFixture(dir);
      return seededMutants(dir, MUTANTS, SEED);
    },
  },
  {
    name: 'tinylib (npm, require(..))',
    setUp: (dir) => {
      copyFixture('tinylib', dir);
      return seededMutantsIn(
        dir,
        ['index.js', 'index.mjs', 'lib/pad.js', 'lib/words.js'],
        SMALL_MUTANTS,
        SEED,
      );
    },
  },
  {
    name: 'pyslim (src layout, pytest)',
    setUp: (dir) => {
      copyFixture('pyslim', dir);
      const pkg = 'src/pyslim';
      const files = [
        '__init__.py',
        'core.py',
        'func.py',
        'plugins/alpha.py',
        'plugins/beta.py',
        'plugins/registry.py',
      ];
      return seededMutantsIn(
        dir,
        files.map((f) => `${pkg}/${f}`),
        PYTHON_MUTANTS,
        SEED,
      );
    },
  },
];

function copyFixture(name: string, dir: string): void {
  fs.cpSync(path.join(repoRoot, 'test/fixtures/intel', name), dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, '.gitignore'),
    '.weave/runs/\n.weave/cache/\n__pycache__/\n.pytest_cache/\n',
  );
}

/**
 * The naive per-file selection: a spec is selected when the changed file is in its cone, where a cone that
 * enters a package (its __init__.py, or the main of a package.json folder) holds every source file of that
 * package (`import pkg` = every module of pkg); dependents of selected specs too; an uncertain cone always.
 */
async function naiveSelector(dir: string): Promise<(file: string) => Set<string>> {
  const ws = await loadAnchoredWorkspace(dir, { useCache: false });
  const cones = specCones(ws.specFile, ws.index, { workspaceDir: dir, resolved: ws.resolved });
  const sources = [...ws.index.files.keys()].filter((f) => !f.startsWith('test/') && !f.startsWith('tests/'));
  // Package folder → the file that enters it: __init__.py, or package.json's main (default index.js).
  const entries = new Map<string, string>();
  for (const f of ws.index.files.keys()) {
    if (f.endsWith('__init__.py')) entries.set(path.posix.dirname(f), f);
  }
  for (const f of ws.index.skipped.map((s) => s.path)) {
    if (f !== 'package.json' && !f.endsWith('/package.json')) continue;
    const pkgDir = path.posix.dirname(f);
    const main =
      (JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { main?: string }).main ?? 'index.js';
    entries.set(pkgDir, path.posix.normalize(path.posix.join(pkgDir, main)));
  }
  const naiveCones = new Map<string, Set<string>>();
  for (const [id, cone] of cones) {
    const files = new Set(cone.parent.keys());
    for (const [pkg, entry] of entries) {
      if (!files.has(entry)) continue;
      const prefix = pkg === '.' ? '' : `${pkg}/`;
      for (const s of sources) if (s.startsWith(prefix)) files.add(s);
    }
    naiveCones.set(id, files);
  }
  return (file) => {
    const selected = new Set<string>();
    for (const spec of ws.specFile.specs) {
      if (naiveCones.get(spec.id)!.has(file) || cones.get(spec.id)!.uncertain.length > 0)
        selected.add(spec.id);
    }
    return withDependents(ws.specFile, selected);
  };
}

function withDependents(specFile: SpecFile, selected: Set<string>): Set<string> {
  let grew = true;
  while (grew) {
    grew = false;
    for (const spec of specFile.specs) {
      if (!selected.has(spec.id) && spec.dependsOn.some((d) => selected.has(d))) {
        selected.add(spec.id);
        grew = true;
      }
    }
  }
  return selected;
}

interface Tally {
  mutants: number;
  killed: number;
  changes: number;
  missed: number;
  naiveMissed: number;
  fraction: number;
  naiveFraction: number;
  allSelected: number;
  selectMs: number;
  runAllMs: number;
  specCount: number;
  missedRows: string[];
}

async function runStudy(study: Study): Promise<Tally> {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'weave-selection-')));
  try {
    const mutants = study.setUp(dir);
    gitIn(dir, 'init', '-q', '-b', 'main');
    gitIn(dir, 'add', '-A');
    gitIn(dir, 'commit', '-q', '-m', 'fixture');
    const ws = await loadAnchoredWorkspace(dir, { useCache: false });
    const specFile = ws.specFile;
    const specCount = specFile.specs.length;
    const concurrency = os.availableParallelism();
    const runAll = async (): Promise<Map<string, Verdict>> =>
      new Map((await runSpecs({ workspaceDir: dir, specFile, concurrency })).map((r) => [r.id, r.verdict]));
    const baseline = await runAll();
    const notPassing = [...baseline].filter(([, v]) => v !== 'pass');
    if (notPassing.length > 0)
      throw new Error(`${study.name}: specs must pass first: ${JSON.stringify(notPassing)}`);
    const naive = await naiveSelector(dir);
    const t: Tally = {
      mutants: mutants.length,
      killed: 0,
      changes: 0,
      missed: 0,
      naiveMissed: 0,
      fraction: 0,
      naiveFraction: 0,
      allSelected: 0,
      selectMs: 0,
      runAllMs: 0,
      specCount,
      missedRows: [],
    };
    for (const [i, mutant] of mutants.entries()) {
      process.stderr.write(`\r${study.name}: mutant ${i + 1}/${mutants.length}`);
      const file = path.join(dir, mutant.file);
      const original = fs.readFileSync(file, 'utf8');
      const lines = original.split('\n');
      lines[mutant.line] = mutant.after;
      fs.writeFileSync(file, lines.join('\n'));
      try {
        let started = performance.now();
        const selection = await selectAffected({ workspaceDir: dir, since: 'HEAD' });
        t.selectMs += performance.now() - started;
        const selected = new Set(selection.affected.map((s) => s.id));
        const naiveSelected = naive(mutant.file);
        started = performance.now();
        const verdicts = await runAll();
        t.runAllMs += performance.now() - started;
        const changed = [...verdicts].filter(([id, v]) => baseline.get(id) !== v).map(([id]) => id);
        const missed = changed.filter((id) => !selected.has(id));
        t.fraction += selected.size / specCount;
        t.naiveFraction += naiveSelected.size / specCount;
        t.changes += changed.length;
        if (changed.length > 0) t.killed++;
        if (selection.all) t.allSelected++;
        t.missed += missed.length;
        t.naiveMissed += changed.filter((id) => !naiveSelected.has(id)).length;
        if (missed.length > 0) {
          t.missedRows.push(
            `${study.name} ${mutant.file}:${mutant.line + 1} (${mutant.operator}) missed ${missed.join(', ')}`,
          );
        }
      } finally {
        fs.writeFileSync(file, original);
      }
    }
    process.stderr.write('\n');
    return t;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const tallies: Array<[string, Tally]> = [];
  for (const study of studies) tallies.push([study.name, await runStudy(study)]);
  const recall = (changes: number, missed: number) => (changes === 0 ? 1 : (changes - missed) / changes);
  const header = [
    'workspace',
    'specs',
    'mutants',
    'killed',
    'verdict Δ',
    'recall weave',
    'recall naive',
    'mean run: weave',
    'naive',
    'every spec',
    'all-selected',
    'select ms',
    'run-all ms',
  ];
  const rows = tallies.map(([name, t]) => [
    name,
    String(t.specCount),
    String(t.mutants),
    String(t.killed),
    String(t.changes),
    percent(recall(t.changes, t.missed)),
    percent(recall(t.changes, t.naiveMissed)),
    percent(t.fraction / t.mutants),
    percent(t.naiveFraction / t.mutants),
    '100.0%',
    String(t.allSelected),
    (t.selectMs / t.mutants).toFixed(0),
    (t.runAllMs / t.mutants).toFixed(0),
  ]);
  const total = tallies.reduce(
    (a, [, t]) => ({
      mutants: a.mutants + t.mutants,
      changes: a.changes + t.changes,
      missed: a.missed + t.missed,
      naiveMissed: a.naiveMissed + t.naiveMissed,
    }),
    { mutants: 0, changes: 0, missed: 0, naiveMissed: 0 },
  );
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  console.log(
    `Safe selection: weave affected (static cones) vs the naive per-package baseline vs running every spec (${os.availableParallelism()} cores, seed ${SEED})\n`,
  );
  console.log(header.map((h, i) => h.padEnd(widths[i]!)).join('  '));
  for (const row of rows) console.log(row.map((c, i) => c.padEnd(widths[i]!)).join('  '));
  console.log(
    `\nall: ${total.mutants} mutants, ${total.changes} verdict changes; recall weave ${percent(recall(total.changes, total.missed))}, naive ${percent(recall(total.changes, total.naiveMissed))}`,
  );
  const missedRows = tallies.flatMap(([, t]) => t.missedRows);
  if (missedRows.length > 0) {
    console.log('\nMISSED BREAKAGES:');
    for (const row of missedRows) console.log(`  ${row}`);
    return 1;
  }
  return 0;
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
