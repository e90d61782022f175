// `weave eval`: scores predictions on exported tasks, many at once with a bounded pool. Every instance runs
// in its own scratch clone of the task's base.bundle through the task's own eval.sh (taskRunner), so what is
// scored here is exactly what a harness would score. Bad input never stops the run: it becomes a problem
// (with its line number) or an instance entry with an error.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Verdict } from '../check/types';
import { mapWithConcurrency } from '../process/boundedPool';
import { SPEC_KINDS, type SpecKind } from '../spec/schema';
import type { PatchMethod } from './evalLog';
import { filesTouchedBy, parsePredictions, type InputProblem, type Prediction } from './predictions';
import { runTaskPatch, TaskRunError } from './taskRunner';
import { TASK_FILES, taskSchema, type Task } from './taskFormat';
import { InputError } from '../errors';

export interface LoadedTask {
  dir: string;
  task: Task;
  /** Task files that are not there (the instance becomes an error entry). */
  missingFiles: string[];
}

export interface TestsStatusGroup {
  success: string[];
  failure: string[];
}

export interface TestsStatus {
  FAIL_TO_PASS: TestsStatusGroup;
  PASS_TO_PASS: TestsStatusGroup;
  FAIL_TO_FAIL: TestsStatusGroup;
  PASS_TO_FAIL: TestsStatusGroup;
}

export interface InstanceReport {
  instance_id: string;
  model_name_or_path: string;
  patch_is_None: boolean;
  patch_exists: boolean;
  patch_successfully_applied: boolean;
  /** Which of git apply / git apply --3way / patch --fuzz=3 worked ('none' for an empty patch). */
  patch_applied_with: PatchMethod | null;
  resolved: boolean;
  /** Spec test files the prediction's code rewrote while the specs ran (the instance is then unresolved). */
  tampered_files?: string[];
  /** Spec test files (or .weave/) the patch edits: flagged, and reset before the specs run. */
  edits_spec_tests: string[];
  tests_status: TestsStatus;
  /** Strict compliance: every spec passes. Partial: the share that does. */
  compliance: { passed: number; total: number; strict: boolean; partial: number };
  spec_results: Record<
    string,
    { kind: SpecKind; verdict: Verdict; exit_code: number | null; reason?: string }
  >;
  /** Why the instance could not be scored properly (missing task file, empty patch, timeout…). */
  error?: string;
  /**
   * The environment, not the patch, failed (set-up, test.patch, the base clone): nothing about the prediction was
   * observed. As with SWE-bench's newer grader, such an instance and one whose patch does not apply list no spec
   * transition at all (never every PASS_TO_PASS spec as PASS_TO_FAIL).
   */
  infra_failure?: string;
  duration_ms: number;
}

export interface KindSummary {
  specs: number;
  passed: number;
  pass_rate: number;
  /** Passed on base + test.patch, failed with the prediction. */
  broken: number;
}

export interface EvalReport {
  schema_version: 'weave-eval-report/1';
  total_instances: number;
  submitted_instances: number;
  completed_instances: number;
  resolved_instances: number;
  unresolved_instances: number;
  empty_patch_instances: number;
  error_instances: number;
  /** Patches that did not apply (git apply, --3way and patch --fuzz all failed). */
  patch_failed_instances: number;
  infra_failure_instances: number;
  resolved_rate: number;
  strict_compliance_rate: number;
  mean_partial_compliance: number;
  by_kind: Partial<Record<SpecKind, KindSummary>>;
  resolved_ids: string[];
  unresolved_ids: string[];
  empty_patch_ids: string[];
  error_ids: string[];
  patch_failed_ids: string[];
  infra_failure_ids: string[];
  unknown_instance_ids: string[];
  problems: InputProblem[];
  instances: Record<string, InstanceReport>;
  wall_time_ms: number;
  workers: number;
}

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
  const { tasks, problems } = await loadTasks(options.taskDirs);
  if (tasks.length === 0) {
    throw new EvalInputError(
      `no task folder found in ${options.taskDirs.join(', ')}${formatProblems(problems)}`,
    );
  }
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

  let predictions: Prediction[];
  if (options.gold) {
    predictions = [];
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
  } else {
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
    predictions = parsed.predictions;
  }

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
        message: `${options.predictionsFile ?? 'predictions'}:${prediction.line}: unknown instance_id ${prediction.instance_id} (no such task)`,
      });
    }
  }

  const workers = Math.max(1, options.workers ?? defaultWorkers());
  if (options.logsDir !== undefined) await fs.mkdir(options.logsDir, { recursive: true });
  const instances: Record<string, InstanceReport> = {};
  let done = 0;
  await mapWithConcurrency(jobs, workers, async ({ prediction, task }) => {
    const report = await evaluateInstance(prediction, task, options);
    instances[prediction.instance_id] = report;
    done++;
    options.onInstanceDone?.(report, done, jobs.length);
  });

  return summarize(instances, byId.size, unknown, problems, performance.now() - started, workers, jobs);
}

async function evaluateInstance(
  prediction: Prediction,
  loaded: LoadedTask,
  options: EvalOptions,
): Promise<InstanceReport> {
  const started = performance.now();
  const { task } = loaded;
  const patch = prediction.model_patch ?? '';
  const protectedFiles = task.spec_test_files;
  const editsSpecTests = filesTouchedBy(patch).filter(
    (f) => f.startsWith('.weave/') || protectedFiles.some((t) => f === t || f.startsWith(`${t}/`)),
  );
  const base: InstanceReport = {
    instance_id: task.instance_id,
    model_name_or_path: prediction.model_name_or_path,
    patch_is_None: prediction.model_patch === null,
    patch_exists: patch.trim() !== '',
    patch_successfully_applied: false,
    patch_applied_with: null,
    resolved: false,
    edits_spec_tests: editsSpecTests,
    tests_status: emptyStatus(),
    compliance: { passed: 0, total: task.specs.length, strict: false, partial: 0 },
    spec_results: {},
    duration_ms: 0,
  };
  const finish = (report: InstanceReport): InstanceReport => ({
    ...report,
    duration_ms: Math.round(performance.now() - started),
  });
  if (options.signal?.aborted) return finish({ ...base, error: 'cancelled before it started' });
  if (loaded.missingFiles.length > 0) {
    return finish({
      ...base,
      error: `task folder ${loaded.dir} is missing ${loaded.missingFiles.join(', ')}`,
    });
  }
  const setupAllowance = task.environment_setup.length > 0 ? 300 : 30;
  const timeoutSeconds =
    options.timeoutSeconds ?? task.specs.reduce((sum, s) => sum + s.test.timeoutSeconds, 0) + setupAllowance;
  let run;
  try {
    run = await runTaskPatch({
      taskDir: loaded.dir,
      baseCommit: task.base_commit,
      specs: task.specs,
      patch,
      timeoutMs: timeoutSeconds * 1000,
      runSetup: true,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (error instanceof TaskRunError)
      return finish({ ...base, error: error.message, infra_failure: error.message });
    throw error;
  }
  if (options.logsDir !== undefined) {
    await fs.writeFile(path.join(options.logsDir, `${safeFileName(task.instance_id)}.log`), run.log);
  }
  const { parsed } = run;
  const infraFailure = parsed.setupFailed
    ? `environment set-up failed:\n${setupOutputTail(run.log)}`
    : parsed.testPatchFailed
      ? 'the task’s test.patch did not apply'
      : undefined;
  if (parsed.patchFailed || infraFailure !== undefined) {
    // Nothing ran, so nothing about the constraints was observed: no transition is reported.
    return finish({
      ...base,
      patch_successfully_applied: parsed.patchMethod !== null && parsed.patchMethod !== 'none',
      patch_applied_with: parsed.patchMethod,
      error: parsed.patchFailed ? PATCH_FAILED_ERROR : (infraFailure as string),
      ...(infraFailure === undefined ? {} : { infra_failure: infraFailure }),
    });
  }
  const spec_results: InstanceReport['spec_results'] = {};
  for (const spec of task.specs) {
    const r = parsed.specs[spec.id];
    if (!r) continue;
    spec_results[spec.id] = {
      kind: spec.kind,
      verdict: r.verdict,
      exit_code: r.exitCode,
      ...(r.reason === undefined ? {} : { reason: r.reason }),
    };
  }
  const passes = (id: string): boolean => spec_results[id]?.verdict === 'pass';
  const passedBefore = (id: string): boolean => task.verification.base_results[id]?.verdict === 'pass';
  const split = (ids: string[]): TestsStatusGroup => ({
    success: ids.filter(passes),
    failure: ids.filter((id) => !passes(id)),
  });
  const allIds = task.specs.map((s) => s.id);
  const tests_status: TestsStatus = {
    FAIL_TO_PASS: split(task.FAIL_TO_PASS),
    PASS_TO_PASS: split(task.PASS_TO_PASS),
    // Observed transitions into failure against base + test.patch: PASS_TO_FAIL is "this patch broke a constraint".
    FAIL_TO_FAIL: split(allIds.filter((id) => !passedBefore(id) && !passes(id))),
    PASS_TO_FAIL: split(allIds.filter((id) => passedBefore(id) && !passes(id))),
  };
  const applied = parsed.patchMethod !== null && parsed.patchMethod !== 'none';
  const passed = allIds.filter(passes).length;
  const errors: string[] = [];
  if (!base.patch_exists) errors.push('empty patch');
  if (run.timedOut) errors.push(`timed out after ${timeoutSeconds} s (every process of the run was killed)`);
  if (run.cancelled) errors.push('cancelled');
  // Code under evaluation that rewrote a spec test while the specs ran: nothing it passed can be trusted.
  if (run.tamperedFiles.length > 0)
    errors.push(`spec test files changed at run time: ${run.tamperedFiles.join(', ')}`);
  const resolved =
    run.tamperedFiles.length === 0 &&
    applied &&
    task.FAIL_TO_PASS.length > 0 &&
    tests_status.FAIL_TO_PASS.failure.length === 0 &&
    tests_status.PASS_TO_PASS.failure.length === 0;
  return finish({
    ...base,
    patch_successfully_applied: applied,
    patch_applied_with: parsed.patchMethod,
    resolved,
    tests_status,
    compliance: {
      passed,
      total: allIds.length,
      strict: passed === allIds.length,
      partial: allIds.length === 0 ? 0 : passed / allIds.length,
    },
    spec_results,
    ...(run.tamperedFiles.length > 0 ? { tampered_files: run.tamperedFiles } : {}),
    ...(errors.length > 0 ? { error: errors.join('; ') } : {}),
  });
}

function summarize(
  instances: Record<string, InstanceReport>,
  totalInstances: number,
  unknown: string[],
  problems: InputProblem[],
  wallMs: number,
  workers: number,
  jobs: Array<{ prediction: Prediction }>,
): EvalReport {
  const ordered: Record<string, InstanceReport> = {};
  for (const { prediction } of jobs) {
    const r = instances[prediction.instance_id];
    if (r) ordered[prediction.instance_id] = r;
  }
  const list = Object.values(ordered);
  const isEmpty = (r: InstanceReport): boolean => !r.patch_exists;
  // An error entry is one that could not be scored: missing files, a patch that does not apply, a timeout.
  const isError = (r: InstanceReport): boolean => r.error !== undefined && !isEmpty(r);
  const patchFailed = (r: InstanceReport): boolean => r.error === PATCH_FAILED_ERROR;
  const completed = list.filter((r) => !isError(r) && !isEmpty(r));
  const resolved = list.filter((r) => r.resolved);
  const byKind: Partial<Record<SpecKind, KindSummary>> = {};
  for (const kind of SPEC_KINDS) {
    let specs = 0;
    let passed = 0;
    let broken = 0;
    for (const r of list) {
      for (const [id, s] of Object.entries(r.spec_results)) {
        if (s.kind !== kind) continue;
        specs++;
        if (s.verdict === 'pass') passed++;
        if (r.tests_status.PASS_TO_FAIL.failure.includes(id)) broken++;
      }
    }
    if (specs > 0) byKind[kind] = { specs, passed, pass_rate: passed / specs, broken };
  }
  const scored = list.filter((r) => Object.keys(r.spec_results).length > 0);
  return {
    schema_version: 'weave-eval-report/1',
    total_instances: totalInstances,
    submitted_instances: list.length,
    completed_instances: completed.length,
    resolved_instances: resolved.length,
    unresolved_instances: list.length - resolved.length,
    empty_patch_instances: list.filter(isEmpty).length,
    error_instances: list.filter(isError).length,
    patch_failed_instances: list.filter(patchFailed).length,
    infra_failure_instances: list.filter((r) => r.infra_failure !== undefined).length,
    resolved_rate: list.length === 0 ? 0 : resolved.length / list.length,
    strict_compliance_rate:
      scored.length === 0 ? 0 : scored.filter((r) => r.compliance.strict).length / scored.length,
    mean_partial_compliance:
      scored.length === 0 ? 0 : scored.reduce((sum, r) => sum + r.compliance.partial, 0) / scored.length,
    by_kind: byKind,
    resolved_ids: resolved.map((r) => r.instance_id),
    unresolved_ids: list.filter((r) => !r.resolved).map((r) => r.instance_id),
    empty_patch_ids: list.filter(isEmpty).map((r) => r.instance_id),
    error_ids: list.filter(isError).map((r) => r.instance_id),
    patch_failed_ids: list.filter(patchFailed).map((r) => r.instance_id),
    infra_failure_ids: list.filter((r) => r.infra_failure !== undefined).map((r) => r.instance_id),
    unknown_instance_ids: unknown,
    problems,
    instances: ordered,
    wall_time_ms: Math.round(wallMs),
    workers,
  };
}

/** A DIR is a task folder (it has task.json or other task files) or a folder of task folders. */
export async function loadTasks(dirs: string[]): Promise<{ tasks: LoadedTask[]; problems: InputProblem[] }> {
  const tasks: LoadedTask[] = [];
  const problems: InputProblem[] = [];
  for (const dir of dirs) {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => undefined);
    if (!entries) {
      problems.push({ task_dir: dir, message: `${dir}: no such folder` });
      continue;
    }
    if (looksLikeTask(entries.map((e) => e.name))) {
      await loadTask(dir, tasks, problems);
      continue;
    }
    let found = false;
    for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
      const sub = path.join(dir, entry.name);
      const names = await fs.readdir(sub).catch(() => [] as string[]);
      if (!looksLikeTask(names)) continue;
      found = true;
      await loadTask(sub, tasks, problems);
    }
    if (!found)
      problems.push({
        task_dir: dir,
        message: `${dir}: not a task folder (no ${TASK_FILES.task}) and holds none`,
      });
  }
  return { tasks, problems };
}

function looksLikeTask(names: string[]): boolean {
  const files = new Set<string>(Object.values(TASK_FILES));
  return names.some((n) => files.has(n));
}

async function loadTask(dir: string, tasks: LoadedTask[], problems: InputProblem[]): Promise<void> {
  let text: string;
  try {
    text = await fs.readFile(path.join(dir, TASK_FILES.task), 'utf8');
  } catch {
    problems.push({
      task_dir: dir,
      message: `${dir}: missing ${TASK_FILES.task}, so its instance cannot be scored`,
    });
    return;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    problems.push({
      task_dir: dir,
      message: `${path.join(dir, TASK_FILES.task)}: not valid JSON (${(error as Error).message})`,
    });
    return;
  }
  const parsed = taskSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    problems.push({
      task_dir: dir,
      message: `${path.join(dir, TASK_FILES.task)}: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`,
    });
    return;
  }
  const required = [TASK_FILES.baseBundle, TASK_FILES.evalScript];
  const missingFiles: string[] = [];
  for (const file of required) {
    try {
      await fs.access(path.join(dir, file));
    } catch {
      missingFiles.push(file);
    }
  }
  tasks.push({ dir: path.resolve(dir), task: parsed.data, missingFiles });
}

const PATCH_FAILED_ERROR =
  'the patch does not apply (git apply, git apply --3way and patch --fuzz=3 all failed)';

/** The set-up command's output, from its marker to the failure marker. */
function setupOutputTail(log: string): string {
  const lines = log.split('\n');
  const failed = lines.findIndex((l) => / SETUP FAILED$/.test(l));
  const started = lines.slice(0, failed).findLastIndex((l) => / SETUP /.test(l));
  return lines
    .slice(Math.max(started, failed - 20), failed)
    .map((l) => `    ${l}`)
    .join('\n');
}

function emptyStatus(): TestsStatus {
  const group = (): TestsStatusGroup => ({ success: [], failure: [] });
  return { FAIL_TO_PASS: group(), PASS_TO_PASS: group(), FAIL_TO_FAIL: group(), PASS_TO_FAIL: group() };
}

function safeFileName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_');
}

function formatProblems(problems: InputProblem[]): string {
  return problems.length === 0 ? '' : `:\n${problems.map((p) => `  ${p.message}`).join('\n')}`;
}
