// `weave mine review DIR`: several models over a mined dataset, N candidates per task, R repeats — `weave bench`
// (runBench with `candidates`) over DIR/swe, then every candidate scored on its own by `weave eval`. Per model:
// Pass@1 (the first candidate resolves), Best@N (the candidate Weave's verified ranking puts first resolves),
// Pass@N (any candidate resolves) and choice accuracy = Best@N ÷ Pass@N; per task the flags hard (no model solves
// it; the gold passes, as every task in the dataset was verified when mined), easy (every model solves it) and
// flaky (a model's outcome differs across repeats). Everything lands beside the dataset, never in it: the work in
// DIR/review/, the figures in DIR/review.json and DIR/review.md, so the dataset's files stay byte-identical.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { runBench, type BenchOptions } from './benchRun';
import { safeName, type InstanceRun } from './benchInstance';
import { evaluate, loadTasks, type EvalReport } from '../eval/evalTasks';
import { overStrictSpec, type OverStrictEvidence, type OverStrictTask } from './overStrict';
import { InputError } from '../../errors';

export interface ReviewOptions extends Pick<
  BenchOptions,
  'models' | 'baseUrl' | 'apiKey' | 'workers' | 'budgets' | 'env' | 'signal'
> {
  /** The dataset folder `weave mine` wrote. */
  datasetDir: string;
  /** Candidates per (model, task). */
  candidates: number;
  /** Times the whole review runs (each in its own folder), to tell flaky outcomes. */
  repeats: number;
  onProgress?: (message: string) => void;
}

export interface ModelFigures {
  model: string;
  /** (task, repeat) pairs scored. */
  attempts: number;
  pass_at_1: number;
  best_at_n: number;
  pass_at_n: number;
  /** Best@N ÷ Pass@N: how often the verified ranking picks a resolving candidate when there is one; null: none. */
  choice_accuracy: number | null;
}

export interface TaskFlags {
  instance_id: string;
  /** Per model, per repeat: which candidates resolved (candidate order). */
  resolved: Record<string, boolean[][]>;
  /** No candidate of any model resolved it in any repeat. */
  hard: boolean;
  /** Every model resolved it (some candidate, in some repeat). */
  easy: boolean;
  /** Models whose Pass@1 or Pass@N differs between repeats. */
  flaky: string[];
  /** Constraint specs that rejected a correct alternative (overStrict.ts says exactly when), sorted. */
  over_strict: string[];
  /** The first candidate that shows each over-strict spec. */
  over_strict_evidence: OverStrictEvidence[];
}

export interface DatasetReview {
  schema_version: 'weave-mine-review/1';
  candidates: number;
  repeats: number;
  models: ModelFigures[];
  tasks: TaskFlags[];
}

/** A review that cannot start: no dataset at DIR, a count below 1. Exit code 2. */
export class ReviewInputError extends InputError {}

export async function reviewDataset(options: ReviewOptions): Promise<DatasetReview> {
  const sweDir = path.join(options.datasetDir, 'swe');
  const present = await fs.stat(sweDir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!present)
    throw new ReviewInputError(`${options.datasetDir}: no swe/ folder — not a dataset written by weave mine`);
  if (options.candidates < 1 || options.repeats < 1)
    throw new ReviewInputError('--candidates and --repeats must be at least 1');
  const workDir = path.join(options.datasetDir, 'review');
  // outcome[model][instance][repeat] = resolved per candidate, and the ranking's pick.
  const outcomes = new Map<string, Map<string, Array<{ resolved: boolean[]; best: number | null }>>>();
  const overStrict = new Map<string, OverStrictEvidence[]>();
  const taskFacts = new Map<string, OverStrictTask>(
    (await loadTasks([sweDir])).tasks.map((t): [string, OverStrictTask] => [t.task.instance_id, t.task]),
  );
  for (let repeat = 1; repeat <= options.repeats; repeat++) {
    const outDir = path.join(workDir, `repeat-${repeat}`);
    options.onProgress?.(`repeat ${repeat}/${options.repeats}: ${options.models.length} models × tasks`);
    const bench = await runBench({
      taskDirs: [sweDir],
      models: options.models,
      baseUrl: options.baseUrl,
      ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
      workers: options.workers,
      outDir,
      candidates: options.candidates,
      ...(options.budgets ? { budgets: options.budgets } : {}),
      ...(options.env ? { env: options.env } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      onProgress: (p) =>
        options.onProgress?.(
          `repeat ${repeat}: [${p.done}/${p.total}] ${p.model} ${p.instanceId}: ${p.resumed ? 'done before (kept)' : p.run.stop_reason}`,
        ),
    });
    for (const model of options.models) {
      const modelDir = path.join(outDir, safeName(model));
      const runs = await readRuns(modelDir);
      const perCandidate = await scoreCandidates(options, sweDir, modelDir, runs, bench.reports[model]);
      const byTask = outcomes.get(model) ?? new Map();
      outcomes.set(model, byTask);
      for (const run of runs) {
        const resolved = perCandidate.map((report) => report.instances[run.instance_id]?.resolved === true);
        const best = run.candidates?.verified_best ?? null;
        byTask.set(run.instance_id, [...(byTask.get(run.instance_id) ?? []), { resolved, best }]);
        const facts = taskFacts.get(run.instance_id);
        if (facts === undefined) continue;
        perCandidate.forEach((report, index) => {
          const patch = index === 0 ? run.patch : (run.candidates?.patches[index] ?? '');
          const spec = overStrictSpec(facts, report.instances[run.instance_id], patch);
          const known = overStrict.get(run.instance_id) ?? [];
          if (spec !== undefined && !known.some((e) => e.spec === spec))
            overStrict.set(run.instance_id, [...known, { spec, model, repeat, candidate: index + 1 }]);
        });
      }
    }
  }
  const review = summarize(options, outcomes, overStrict);
  await fs.writeFile(path.join(options.datasetDir, 'review.json'), `${JSON.stringify(review, null, 2)}\n`);
  await fs.writeFile(path.join(options.datasetDir, 'review.md'), renderReview(review));
  return review;
}

/** The cells' run records, in instance order. */
async function readRuns(modelDir: string): Promise<InstanceRun[]> {
  const runsDir = path.join(modelDir, 'runs');
  const names = (await fs.readdir(runsDir)).filter((n) => n.endsWith('.json')).sort();
  return Promise.all(
    names.map(async (n) => JSON.parse(await fs.readFile(path.join(runsDir, n), 'utf8')) as InstanceRun),
  );
}

/**
 * One eval report per candidate index: cand-1's is the bench's own (its prediction), each later candidate's
 * patches are written as predictions of their own and scored exactly as `weave eval` scores any prediction.
 */
async function scoreCandidates(
  options: ReviewOptions,
  sweDir: string,
  modelDir: string,
  runs: readonly InstanceRun[],
  first: EvalReport | undefined,
): Promise<EvalReport[]> {
  if (first === undefined) throw new Error(`no eval report in ${modelDir}`);
  const reports = [first];
  for (let k = 2; k <= options.candidates; k++) {
    const dir = path.join(modelDir, 'candidates', `cand-${k}`);
    await fs.mkdir(dir, { recursive: true });
    const predictions = path.join(dir, 'predictions.jsonl');
    await fs.writeFile(
      predictions,
      runs
        .map((r) =>
          JSON.stringify({
            instance_id: r.instance_id,
            model_name_or_path: r.model,
            model_patch: r.candidates?.patches[k - 1] ?? '',
          }),
        )
        .join('\n') + '\n',
    );
    const report = await evaluate({
      taskDirs: [sweDir],
      predictionsFile: predictions,
      workers: options.workers,
      logsDir: path.join(dir, 'eval-logs'),
      ...(options.env ? { env: options.env } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    await fs.writeFile(path.join(dir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
    reports.push(report);
  }
  return reports;
}

type Outcomes = Map<string, Map<string, Array<{ resolved: boolean[]; best: number | null }>>>;

function summarize(
  options: ReviewOptions,
  outcomes: Outcomes,
  overStrict: ReadonlyMap<string, OverStrictEvidence[]>,
): DatasetReview {
  const ratio = (n: number, d: number): number => (d === 0 ? 0 : n / d);
  const models = options.models.map((model): ModelFigures => {
    const attempts = [...(outcomes.get(model)?.values() ?? [])].flat();
    const first = attempts.filter((a) => a.resolved[0] === true).length;
    const best = attempts.filter((a) => a.best !== null && a.resolved[a.best - 1] === true).length;
    const any = attempts.filter((a) => a.resolved.includes(true)).length;
    return {
      model,
      attempts: attempts.length,
      pass_at_1: ratio(first, attempts.length),
      best_at_n: ratio(best, attempts.length),
      pass_at_n: ratio(any, attempts.length),
      choice_accuracy: any === 0 ? null : best / any,
    };
  });
  const ids = [...new Set([...outcomes.values()].flatMap((byTask) => [...byTask.keys()]))].sort();
  const tasks = ids.map((id): TaskFlags => {
    const resolved: Record<string, boolean[][]> = {};
    const solvedBy: string[] = [];
    const flaky: string[] = [];
    for (const model of options.models) {
      const repeats = outcomes.get(model)?.get(id) ?? [];
      resolved[model] = repeats.map((r) => r.resolved);
      if (repeats.some((r) => r.resolved.includes(true))) solvedBy.push(model);
      const differs = (f: (r: boolean[]) => boolean): boolean =>
        new Set(repeats.map((r) => f(r.resolved))).size > 1;
      if (differs((r) => r[0] === true) || differs((r) => r.includes(true))) flaky.push(model);
    }
    return {
      instance_id: id,
      resolved,
      hard: solvedBy.length === 0,
      easy: solvedBy.length === options.models.length,
      flaky,
      over_strict: [...new Set((overStrict.get(id) ?? []).map((e) => e.spec))].sort(),
      over_strict_evidence: overStrict.get(id) ?? [],
    };
  });
  return {
    schema_version: 'weave-mine-review/1',
    candidates: options.candidates,
    repeats: options.repeats,
    models,
    tasks,
  };
}

export function renderReview(review: DatasetReview): string {
  const pct = (x: number | null): string => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);
  const flagged = (pick: (t: TaskFlags) => boolean): string => {
    const ids = review.tasks.filter(pick).map((t) => `\`${t.instance_id}\``);
    return ids.length === 0 ? 'none' : ids.join(', ');
  };
  return [
    '# Review across models',
    '',
    `${review.models.length} models × ${review.tasks.length} tasks, ${review.candidates} candidates each, ` +
      `${review.repeats} repeat${review.repeats === 1 ? '' : 's'}. Pass@1 takes the first candidate, Best@N ` +
      "the one Weave's verified ranking puts first, Pass@N any candidate; choice accuracy is Best@N ÷ Pass@N.",
    '',
    '| Model | Attempts | Pass@1 | Best@N | Pass@N | Choice accuracy |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...review.models.map(
      (m) =>
        `| ${m.model.replace(/[|\\`]/g, '\\$&')} | ${m.attempts} | ${pct(m.pass_at_1)} | ${pct(m.best_at_n)} | ` +
        `${pct(m.pass_at_n)} | ${pct(m.choice_accuracy)} |`,
    ),
    '',
    '## Flags',
    '',
    `- Hard (no model solves it; the gold passes, as every task here was verified): ${flagged((t) => t.hard)}`,
    `- Easy (every model solves it): ${flagged((t) => t.easy)}`,
    `- Flaky (a model's outcome differs across repeats): ${flagged((t) => t.flaky.length > 0)}`,
    `- Over-strict (a constraint spec that alone rejected a candidate passing every other spec, whose code under ` +
      `the spec's anchors is the gold's): ${overStrictList(review)}`,
    '',
  ].join('\n');
}

function overStrictList(review: DatasetReview): string {
  const items = review.tasks.flatMap((t) =>
    t.over_strict_evidence.map(
      (e) =>
        `\`${e.spec}\` in \`${t.instance_id}\` (${e.model.replace(/[|\\`]/g, '\\$&')}, repeat ${e.repeat}, candidate ${e.candidate})`,
    ),
  );
  return items.length === 0 ? 'none' : items.join('; ');
}
