// `weave bench`: every model (Weave's agent, or an external agent command standing for it) on every task, in one
// bounded pool over all (model, task) cells; per model predictions.jsonl, trajectories/, runs/ and the eval
// report; then leaderboard.json and leaderboard.html over all models. Resumable: a cell whose runs/<id>.json
// exists is not rerun (delete it to rerun that cell); evaluation is repeated, which is cheap next to agent runs.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { DEFAULT_BUDGETS, type AgentBudgets } from '../../agent/runAgent';
import { mapWithConcurrency } from '../../process/boundedPool';
import { modelFromSettings } from '../../model';
import { NO_BENCH_MODEL, runInstance, safeName, type InstanceRun } from './benchInstance';
import { evaluate, loadTasks, type EvalReport, type LoadedTask } from '../eval/evalTasks';
import { buildLeaderboard, renderLeaderboardHtml, type Leaderboard, type Price } from './leaderboard';
import { InputError } from '../../errors';
import type { ScoringEnvironment } from '../eval/dockerScoring';
import { DockerUnavailableError, requireDockerEngine } from '../harbor/harborDocker';

export interface BenchOptions {
  taskDirs: string[];
  models: string[];
  /** OpenAI-compatible endpoint for Weave's agent ('' with --agent-command and no URL). */
  baseUrl: string;
  apiKey?: string;
  agentCommand?: string;
  /** (model, task) cells at once. */
  workers: number;
  outDir: string;
  matrix?: boolean;
  /** Run the blind model review in every cell and score it (leaderboard: review precision / recall). */
  review?: boolean;
  /** Run N candidates per cell and ask the model to pick (leaderboard: self-pick regret); cand-1 is scored. */
  selfPickCandidates?: number;
  /** Run N candidates per cell without a pick (`weave mine review`): each run record keeps every patch. */
  candidates?: number;
  prices?: Record<string, Price>;
  budgets?: Partial<AgentBudgets>;
  /** Where the agents' patches are scored (default 'sandbox'; 'docker': each task's Harbor image). */
  env?: ScoringEnvironment;
  signal?: AbortSignal;
  onProgress?: (event: BenchProgress) => void;
  /** While evaluation sets up an instance's environment: what runs, every few seconds. */
  onSetupProgress?: (message: string) => void;
}

export interface BenchProgress {
  model: string;
  instanceId: string;
  done: number;
  total: number;
  /** Taken from a previous run's runs/<id>.json. */
  resumed: boolean;
  run: InstanceRun;
}

export interface BenchResult {
  leaderboard: Leaderboard;
  reports: Record<string, EvalReport>;
  leaderboardJson: string;
  leaderboardHtml: string;
  resumed: number;
}

/** Bad input as a whole: no task, no model, an unusable --out. Exit code 2. */
export class BenchInputError extends InputError {}

function asBenchInputError(error: unknown): never {
  if (error instanceof DockerUnavailableError) throw new BenchInputError(error.message);
  throw error;
}

export async function runBench(options: BenchOptions): Promise<BenchResult> {
  const started = performance.now();
  const tasks = await benchTasks(options);
  const budgets: AgentBudgets = { ...DEFAULT_BUDGETS, ...options.budgets };
  const modelDirs = new Map(options.models.map((m) => [m, path.join(options.outDir, safeName(m))]));
  const cells = options.models.flatMap((model) => tasks.map((task) => ({ model, task })));
  let done = 0;
  let resumed = 0;
  const runs = await mapWithConcurrency(cells, options.workers, async ({ model, task }) => {
    const { run, previous } = await runCell(options, {
      model,
      task,
      modelDir: modelDirs.get(model) as string,
      tasks,
      budgets,
    });
    if (previous) resumed++;
    done++;
    options.onProgress?.({
      model,
      instanceId: task.task.instance_id,
      done,
      total: cells.length,
      resumed: previous,
      run,
    });
    return run;
  });

  const reports: Record<string, EvalReport> = {};
  const runsByModel: Record<string, InstanceRun[]> = {};
  for (const model of options.models) {
    const mine = runs.filter((r) => r.model === model);
    runsByModel[model] = mine;
    reports[model] = await evaluateModel(options, model, modelDirs.get(model) as string, mine, tasks);
  }

  const leaderboard = buildLeaderboard({
    reports,
    runs: runsByModel,
    tasks: tasks.length,
    prices: options.prices ?? {},
    workers: options.workers,
    matrix: options.matrix ?? false,
    wallTimeMs: performance.now() - started,
  });
  const leaderboardJson = path.join(options.outDir, 'leaderboard.json');
  const leaderboardHtml = path.join(options.outDir, 'leaderboard.html');
  await fs.writeFile(leaderboardJson, `${JSON.stringify(leaderboard, null, 2)}\n`);
  await fs.writeFile(leaderboardHtml, renderLeaderboardHtml(leaderboard));
  return { leaderboard, reports, leaderboardJson, leaderboardHtml, resumed };
}

/** The bench's input checked before any agent runs, and its tasks loaded. */
async function benchTasks(options: BenchOptions): Promise<LoadedTask[]> {
  if (options.models.length === 0) throw new BenchInputError('give at least one --model');
  // A model that cannot be reached as configured (no key for a remote endpoint, a bad URL) would fail every one
  // of its cells after each cell's checkout and set-up: say so before the first (a ModelError, the user's input).
  if (options.agentCommand === undefined)
    for (const model of options.models)
      modelFromSettings({ baseUrl: options.baseUrl, model, apiKey: options.apiKey, noModel: NO_BENCH_MODEL });
  // Before any agent runs: patches that cannot be scored are not worth making.
  if (options.env === 'docker') await requireDockerEngine().catch(asBenchInputError);
  const { tasks, problems } = await loadTasks(options.taskDirs);
  if (tasks.length === 0) {
    throw new BenchInputError(
      `no task found in ${options.taskDirs.join(', ')}${problems.map((p) => `\n  ${p.message}`).join('')}`,
    );
  }
  return tasks;
}

/** One (model, task) cell: its previous record when there is one, else a fresh run, recorded. */
async function runCell(
  options: BenchOptions,
  cell: { model: string; task: LoadedTask; modelDir: string; tasks: LoadedTask[]; budgets: AgentBudgets },
): Promise<{ run: InstanceRun; previous: boolean }> {
  const { model, task, modelDir, tasks, budgets } = cell;
  const runFile = path.join(modelDir, 'runs', `${safeName(task.task.instance_id)}.json`);
  const previous = await readRun(runFile);
  if (previous !== undefined) return { run: previous, previous: true };
  const run = await runInstance({
    task,
    model,
    modelDir,
    baseUrl: options.baseUrl,
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(options.agentCommand === undefined ? {} : { agentCommand: options.agentCommand }),
    budgets,
    // Every task folder (gold patches) and the bench's output (other models' predictions).
    hiddenFromAgent: [...tasks.map((t) => t.dir), path.resolve(options.outDir)],
    matrix: options.matrix ?? false,
    ...(options.review ? { review: true } : {}),
    ...(options.selfPickCandidates === undefined ? {} : { selfPickCandidates: options.selfPickCandidates }),
    ...(options.candidates === undefined ? {} : { candidates: options.candidates }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  // Written last, so an interrupted cell has no record and reruns.
  await fs.mkdir(path.dirname(runFile), { recursive: true });
  await fs.writeFile(runFile, `${JSON.stringify(run, null, 2)}\n`);
  return { run, previous: false };
}

/** One model's predictions.jsonl written and evaluated; its report.json. */
async function evaluateModel(
  options: BenchOptions,
  model: string,
  modelDir: string,
  mine: InstanceRun[],
  tasks: LoadedTask[],
): Promise<EvalReport> {
  const predictions = path.join(modelDir, 'predictions.jsonl');
  await fs.writeFile(
    predictions,
    mine
      .map((r) =>
        JSON.stringify({ instance_id: r.instance_id, model_name_or_path: model, model_patch: r.patch }),
      )
      .join('\n') + '\n',
  );
  const report = await evaluate({
    taskDirs: tasks.map((t: LoadedTask) => t.dir),
    predictionsFile: predictions,
    workers: options.workers,
    logsDir: path.join(modelDir, 'eval-logs'),
    ...(options.onSetupProgress ? { onSetupProgress: options.onSetupProgress } : {}),
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  await fs.writeFile(path.join(modelDir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  return report;
}

async function readRun(file: string): Promise<InstanceRun | undefined> {
  try {
    const value = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<InstanceRun>;
    return typeof value.instance_id === 'string' && typeof value.patch === 'string'
      ? (value as InstanceRun)
      : undefined;
  } catch {
    return undefined; // no record (or a torn one): the cell runs
  }
}
