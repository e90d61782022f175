// One instance of `weave eval`: a prediction run through its task's eval.sh (taskRunner), then read back in
// phases: did the environment fail (set-up, test.patch: nothing about the prediction was observed), did the
// patch apply, which specs pass, which transitions that makes against base + test.patch, and whether that
// resolves the task (never when the patch changes test infrastructure: sandbox/diffPolicy).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describeAttempts } from '../../../shared/attempts';
import { describeInfrastructureChange } from '../../sandbox/diffPolicy/classifyChanges';
import { describeSetupFailure, type ParsedEvalLog } from '../run/evalLog';
import {
  emptyStatus,
  PATCH_FAILED_ERROR,
  type InstanceReport,
  type TestsStatus,
  type TestsStatusGroup,
} from './evalReport';
import { makesSetupVenv } from '../environmentSetup';
import { runTaskInDocker, type TaskImages } from './dockerScoring';
import type { Prediction } from '../predictions';
import { protectedEditsOf } from './protectedEdits';
import type { LoadedTask } from './taskFolders';
import { protectedFilesOf, type Task } from '../taskFormat';
import {
  interruptionOf,
  runTaskPatch,
  TaskRunError,
  taskTimeoutSeconds,
  type TaskRunResult,
} from '../run/taskRunner';

export interface InstanceRunOptions {
  /** Per instance; default: the sum of the task's spec timeouts plus set-up allowance. */
  timeoutSeconds?: number;
  /** Where to keep the instance's eval.sh log (<instance_id>.log). */
  logsDir?: string;
  signal?: AbortSignal;
  onSetupProgress?: (message: string) => void;
  /** Score in each task's Docker image (--env docker) instead of eval.sh in the sandbox. */
  docker?: TaskImages;
}

export async function evaluateInstance(
  prediction: Prediction,
  loaded: LoadedTask,
  options: InstanceRunOptions,
): Promise<InstanceReport> {
  const started = performance.now();
  const finish = (report: InstanceReport): InstanceReport => ({
    ...report,
    duration_ms: Math.round(performance.now() - started),
  });
  const { task } = loaded;
  const base = unscoredReport(prediction, task);
  if (options.signal?.aborted) return finish({ ...base, error: 'cancelled before it started' });
  if (loaded.missingFiles.length > 0) {
    return finish({
      ...base,
      error: `task folder ${loaded.dir} is missing ${loaded.missingFiles.join(', ')}`,
    });
  }
  const timeoutSeconds = options.timeoutSeconds ?? taskTimeoutSeconds(task.specs, task.environment_setup);
  let run: TaskRunResult;
  try {
    const patch = prediction.model_patch ?? '';
    run =
      options.docker === undefined
        ? await runTaskPatch({
            taskDir: loaded.dir,
            baseCommit: task.base_commit,
            specs: task.specs,
            protectedFiles: protectedFilesOf(task),
            setupVenv: makesSetupVenv(task.environment_setup),
            patch,
            timeoutMs: timeoutSeconds * 1000,
            runSetup: true,
            judgeWithEvidence: true,
            label: task.instance_id,
            ...(options.onSetupProgress ? { onProgress: options.onSetupProgress } : {}),
            ...(options.signal ? { signal: options.signal } : {}),
          })
        : await runTaskInDocker(loaded, patch, options.docker, timeoutSeconds * 1000, options.signal);
  } catch (error) {
    if (error instanceof TaskRunError)
      return finish({ ...base, error: error.message, infra_failure: error.message });
    throw error;
  }
  if (options.logsDir !== undefined) {
    await fs.writeFile(path.join(options.logsDir, `${safeFileName(task.instance_id)}.log`), run.log);
  }
  const classified = withInfrastructure(base, run);
  const notScored = unobservedReport(classified, run);
  if (notScored !== undefined) return finish(notScored);
  return finish(scoredReport(classified, task, run, timeoutSeconds));
}

/** The report with the diff policy's findings named, file and key, when the patch touches test infrastructure. */
function withInfrastructure(base: InstanceReport, run: TaskRunResult): InstanceReport {
  if (run.testInfrastructure.length === 0) return base;
  return {
    ...base,
    test_infrastructure: run.testInfrastructure.map((f) => ({
      path: f.path,
      ...(f.key === undefined ? {} : { key: f.key }),
      why: f.why,
    })),
  };
}

/** The report before anything ran: what the prediction is, nothing passed. */
function unscoredReport(prediction: Prediction, task: Task): InstanceReport {
  const patch = prediction.model_patch ?? '';
  const edits = protectedEditsOf(patch, task);
  return {
    instance_id: task.instance_id,
    model_name_or_path: prediction.model_name_or_path,
    patch_is_None: prediction.model_patch === null,
    patch_exists: patch.trim() !== '',
    patch_successfully_applied: false,
    patch_applied_with: null,
    resolved: false,
    edits_spec_tests: edits.specTests,
    edits_test_support: edits.testSupport,
    tests_status: emptyStatus(),
    compliance: { passed: 0, total: task.specs.length, strict: false, partial: 0 },
    spec_results: {},
    duration_ms: 0,
  };
}

/**
 * When the patch did not apply or the environment failed, nothing ran, so nothing about the constraints was
 * observed: the report says why and lists no transition. Undefined when the specs ran.
 */
function unobservedReport(base: InstanceReport, run: TaskRunResult): InstanceReport | undefined {
  const { parsed } = run;
  const infraFailure = parsed.setupFailure
    ? describeSetupFailure(parsed.setupFailure, interruptionOf(run))
    : parsed.testPatchFailed
      ? 'the task’s test.patch did not apply'
      : undefined;
  if (!parsed.patchFailed && infraFailure === undefined) return undefined;
  return {
    ...base,
    patch_successfully_applied: parsed.patchMethod !== null && parsed.patchMethod !== 'none',
    patch_applied_with: parsed.patchMethod,
    error: parsed.patchFailed ? PATCH_FAILED_ERROR : (infraFailure as string),
    ...(infraFailure === undefined ? {} : { infra_failure: infraFailure }),
  };
}

/** The specs' verdicts, their transitions against base + test.patch, compliance, and whether it resolves. */
function scoredReport(
  base: InstanceReport,
  task: Task,
  run: TaskRunResult,
  timeoutSeconds: number,
): InstanceReport {
  const { parsed } = run;
  const spec_results = specResultsOf(
    task,
    parsed,
    run.testInfrastructure.length > 0 ? describeInfrastructureChange(run.testInfrastructure) : undefined,
  );
  const passes = (id: string): boolean => spec_results[id]?.verdict === 'pass';
  const unverifiedIds = new Set(
    task.specs.map((s) => s.id).filter((id) => spec_results[id]?.verdict === 'unverified'),
  );
  const tests_status = transitionsOf(task, passes, unverifiedIds);
  const allIds = task.specs.map((s) => s.id);
  const applied = parsed.patchMethod !== null && parsed.patchMethod !== 'none';
  const passed = allIds.filter(passes).length;
  const errors: string[] = [];
  if (!base.patch_exists) errors.push('empty patch');
  if (run.timedOut) errors.push(`timed out after ${timeoutSeconds} s (every process of the run was killed)`);
  if (run.cancelled) errors.push('cancelled');
  // Code under evaluation that rewrote a protected file while the specs ran: nothing it passed can be trusted.
  if (run.tamperedFiles.length > 0)
    errors.push(`protected files changed at run time: ${run.tamperedFiles.join(', ')}`);
  if (run.testInfrastructure.length > 0) errors.push(describeInfrastructureChange(run.testInfrastructure));
  const attempts = (run.specResults ?? []).flatMap((r) => r.attempts ?? []);
  if (attempts.length > 0) errors.push(`attempts (tampered): ${describeAttempts(attempts)}`);
  if (unverifiedIds.size > 0)
    errors.push(
      `${[...unverifiedIds].join(', ')}: passed without the test runner's signed results (unverified), which never resolves`,
    );
  // A test-support file the patch adds is not one the task restores: the specs ran with it in place.
  const restored = new Set(protectedFilesOf(task));
  const unrestored = base.edits_test_support.filter((f) => !restored.has(f));
  if (unrestored.length > 0)
    errors.push(`the patch adds test-support files the task cannot restore: ${unrestored.join(', ')}`);
  const resolved =
    run.tamperedFiles.length === 0 &&
    run.testInfrastructure.length === 0 &&
    attempts.length === 0 &&
    unrestored.length === 0 &&
    applied &&
    task.FAIL_TO_PASS.length > 0 &&
    tests_status.FAIL_TO_PASS.failure.length === 0 &&
    tests_status.PASS_TO_PASS.failure.length === 0;
  return {
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
    ...(attempts.length > 0 ? { attempts } : {}),
    ...(errors.length > 0 ? { error: errors.join('; ') } : {}),
  };
}

/** Each spec's verdict; all `tampered` (with `tamperedBecause` as the reason) after a test-infrastructure change. */
function specResultsOf(
  task: Task,
  parsed: ParsedEvalLog,
  tamperedBecause: string | undefined,
): InstanceReport['spec_results'] {
  const results: InstanceReport['spec_results'] = {};
  for (const spec of task.specs) {
    const r = parsed.specs[spec.id];
    if (!r) continue;
    const reason = tamperedBecause ?? r.reason;
    results[spec.id] = {
      kind: spec.kind,
      verdict: tamperedBecause === undefined ? r.verdict : 'tampered',
      exit_code: r.exitCode,
      ...(reason === undefined ? {} : { reason }),
    };
  }
  return results;
}

/**
 * The specs' transitions against base + test.patch. An `unverified` run (it passed, but without the runner's signed
 * results) is not passing — FAIL_TO_PASS and PASS_TO_PASS list it as a failure, so nothing resolves on it — but it
 * is no observed failure either: never in FAIL_TO_FAIL or PASS_TO_FAIL ("this patch broke it").
 */
function transitionsOf(
  task: Task,
  passes: (id: string) => boolean,
  unverified: ReadonlySet<string>,
): TestsStatus {
  const passedBefore = (id: string): boolean => task.verification.base_results[id]?.verdict === 'pass';
  const split = (ids: string[]): TestsStatusGroup => ({
    success: ids.filter(passes),
    failure: ids.filter((id) => !passes(id)),
  });
  const observed = task.specs.map((s) => s.id).filter((id) => !unverified.has(id));
  return {
    FAIL_TO_PASS: split(task.FAIL_TO_PASS),
    PASS_TO_PASS: split(task.PASS_TO_PASS),
    // Observed transitions into failure against base + test.patch: PASS_TO_FAIL is "this patch broke a constraint".
    FAIL_TO_FAIL: split(observed.filter((id) => !passedBefore(id) && !passes(id))),
    PASS_TO_FAIL: split(observed.filter((id) => passedBefore(id) && !passes(id))),
  };
}

function safeFileName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_');
}
