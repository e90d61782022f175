// The report `weave eval` writes (SWE-bench's report shape plus Weave's spec-level fields) and its summary over
// every instance.
import type { Attempt } from '../../../shared/attempts';
import type { Verdict } from '../../check';
import { SPEC_KINDS, type SpecKind } from '../../../shared/specSchema';
import type { PatchMethod } from '../run/evalLog';
import type { InputProblem, Prediction } from '../predictions';

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
  /** Protected files the prediction's code rewrote while the specs ran (the instance is then unresolved). */
  tampered_files?: string[];
  /**
   * What the prediction's code tried while the specs ran that the sandbox refused or contained (a protected write,
   * a process left behind: shared/attempts.ts); any leaves the instance unresolved.
   */
  attempts?: Attempt[];
  /**
   * What the patch changes in test infrastructure (a runner's configuration, a plugin entry point, a module that
   * shadows the runner), each with its file and key: the instance is then never resolved and every spec is
   * `tampered`.
   */
  test_infrastructure?: Array<{ path: string; key?: string; why: string }>;
  /** Spec test files (or .weave/) the patch edits: flagged, and reset before the specs run. */
  edits_spec_tests: string[];
  /**
   * Other protected files the patch edits (test-support files, helpers in the test folders): reset before the
   * specs run when the task ships them (protected_files); one the patch creates cannot be, and the instance is
   * then unresolved.
   */
  edits_test_support: string[];
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

export const PATCH_FAILED_ERROR =
  'the patch does not apply (git apply, git apply --3way and patch --fuzz=3 all failed)';

export function emptyStatus(): TestsStatus {
  const group = (): TestsStatusGroup => ({ success: [], failure: [] });
  return { FAIL_TO_PASS: group(), PASS_TO_PASS: group(), FAIL_TO_FAIL: group(), PASS_TO_FAIL: group() };
}

export function summarize(
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
  const byKind = summaryByKind(list);
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

/** Per spec kind over every instance: specs scored, passed, the pass rate, and how many a patch broke. */
function summaryByKind(list: readonly InstanceReport[]): Partial<Record<SpecKind, KindSummary>> {
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
  return byKind;
}
