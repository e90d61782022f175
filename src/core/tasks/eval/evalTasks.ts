// `weave eval`: scores predictions on exported tasks, many at once with a bounded pool. Every instance runs
// in its own scratch clone of the task's base.bundle through the task's own eval.sh (taskRunner), so what is
// scored here is exactly what a harness would score. Bad input never stops the run: it becomes a problem
// (with its line number) or an instance entry with an error. With --env docker each prediction is scored in
// its task's Harbor image instead (dockerScoring.ts).
import { promises as fs } from 'node:fs';
import { InputError } from '../../errors';
import os from 'node:os';
import path from 'node:path';
import { mapWithConcurrency } from '../../process/boundedPool';
import { TaskImages, type ScoringEnvironment } from './dockerScoring';
import { evaluateInstance } from './evalInstance';
import { DockerUnavailableError, requireDockerEngine } from '../harbor/harborDocker';
import { summarize, type EvalReport, type InstanceReport } from './evalReport';
import { parsePredictions, type InputProblem, type Prediction } from '../predictions';
import { loadTasks, type LoadedTask } from './taskFolders';
import { TASK_FILES } from '../taskFormat';

export type { EvalReport, InstanceReport, KindSummary, TestsStatus, TestsStatusGroup } from './evalReport';
export { loadTasks, type LoadedTask } from './taskFolders';

export interface EvalOptions {
  taskDirs: string[];
  /** A predictions file (JSONL or a JSON array); or `gold: true` to score every task's gold.patch. */
  predictionsFile?: string;
  gold?: boolean;
  workers?: number;
  /** Per instance; default: the sum of the task's spec timeouts plus set-up allowance. */
  timeoutSeconds?: number;
  /** Where to keep each instance's eval.sh log (<instance_id>.log). */
  logsDir?: string;
  signal?: AbortSignal;
  /** A line every few seconds while an instance's environment set-up runs (what runs, for how long). */
  onSetupProgress?: (message: string) => void;
  /** Where predictions are scored (default 'sandbox'); 'docker' needs an engine that answers. */
  env?: ScoringEnvironment;
  onInstanceDone?: (report: InstanceReport, done: number, total: number) => void;
}

/** Bad flags or unusable input as a whole (no task found, unreadable predictions file). Exit code 2. */
export class EvalInputError extends InputError {}

export function defaultWorkers(): number {
  // Each instance runs its specs one after another, so one instance per core keeps the machine busy.
  return Math.max(1, Math.min(4, os.availableParallelism()));
}

export async function evaluate(options: EvalOptions): Promise<EvalReport> {
  const started = performance.now();
  const docker = options.env === 'docker' ? await dockerImages() : undefined;
  const { tasks, problems } = await loadTasks(options.taskDirs);
  if (tasks.length === 0) {
    throw new EvalInputError(
      `no task folder found in ${options.taskDirs.join(', ')}${formatProblems(problems)}`,
    );
  }
  const byId = tasksById(tasks, problems);
  const predictions = await readPredictions(options, byId, problems);
  const { jobs, unknown } = matchPredictions(predictions, byId, problems, options.predictionsFile);

  const workers = Math.max(1, options.workers ?? defaultWorkers());
  if (options.logsDir !== undefined) await fs.mkdir(options.logsDir, { recursive: true });
  const instances: Record<string, InstanceReport> = {};
  let done = 0;
  await mapWithConcurrency(jobs, workers, async ({ prediction, task }) => {
    const report = await evaluateInstance(prediction, task, { ...options, ...(docker ? { docker } : {}) });
    instances[prediction.instance_id] = report;
    done++;
    options.onInstanceDone?.(report, done, jobs.length);
  });

  return summarize(instances, byId.size, unknown, problems, performance.now() - started, workers, jobs);
}

/** The tasks by instance id; a second task with an id already taken is a problem, and left out. */
function tasksById(tasks: LoadedTask[], problems: InputProblem[]): Map<string, LoadedTask> {
  const byId = new Map<string, LoadedTask>();
  for (const t of tasks) {
    const other = byId.get(t.task.instance_id);
    if (other) {
      problems.push({
        task_dir: t.dir,
        instance_id: t.task.instance_id,
        message: `${t.dir}: instance_id ${t.task.instance_id} is also the id of ${other.dir}; only the first is used`,
      });
    } else byId.set(t.task.instance_id, t);
  }
  return byId;
}

/** --gold: each task's own gold patch; otherwise the predictions file (its bad lines added to `problems`). */
async function readPredictions(
  options: EvalOptions,
  byId: Map<string, LoadedTask>,
  problems: InputProblem[],
): Promise<Prediction[]> {
  if (options.gold) {
    const predictions: Prediction[] = [];
    for (const t of byId.values()) {
      const patch = await fs
        .readFile(path.join(t.dir, TASK_FILES.goldPatch), 'utf8')
        .catch(() => t.task.patch);
      predictions.push({
        instance_id: t.task.instance_id,
        model_name_or_path: 'gold',
        model_patch: patch,
        line: 0,
      });
    }
    return predictions;
  }
  if (options.predictionsFile === undefined) throw new EvalInputError('give --predictions FILE or --gold');
  let text: string;
  try {
    text = await fs.readFile(options.predictionsFile, 'utf8');
  } catch (error) {
    throw new EvalInputError(
      `cannot read predictions ${options.predictionsFile}: ${(error as Error).message}`,
    );
  }
  const parsed = parsePredictions(text, options.predictionsFile);
  problems.push(...parsed.problems);
  return parsed.predictions;
}

/** Each prediction with its task; those naming no task are unknown (and a problem). */
function matchPredictions(
  predictions: Prediction[],
  byId: Map<string, LoadedTask>,
  problems: InputProblem[],
  predictionsFile: string | undefined,
): { jobs: Array<{ prediction: Prediction; task: LoadedTask }>; unknown: string[] } {
  const unknown: string[] = [];
  const jobs: Array<{ prediction: Prediction; task: LoadedTask }> = [];
  for (const prediction of predictions) {
    const task = byId.get(prediction.instance_id);
    if (task) jobs.push({ prediction, task });
    else {
      unknown.push(prediction.instance_id);
      problems.push({
        line: prediction.line,
        instance_id: prediction.instance_id,
        message: `${predictionsFile ?? 'predictions'}:${prediction.line}: unknown instance_id ${prediction.instance_id} (no such task)`,
      });
    }
  }
  return { jobs, unknown };
}

/** The image cache of a Docker-scored run, once an engine has answered (otherwise: bad input, exit 2). */
async function dockerImages(): Promise<TaskImages> {
  try {
    await requireDockerEngine();
  } catch (error) {
    if (error instanceof DockerUnavailableError) throw new EvalInputError(error.message);
    throw error;
  }
  return new TaskImages();
}

function formatProblems(problems: InputProblem[]): string {
  return problems.length === 0 ? '' : `:\n${problems.map((p) => `  ${p.message}`).join('\n')}`;
}
