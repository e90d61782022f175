// The task folder `weave export` writes and `weave eval` reads. task.json carries SWE-bench's 12 fields
// (FAIL_TO_PASS / PASS_TO_PASS as JSON lists here; as JSON-encoded strings in a --dataset JSONL line, as on
// the SWE-bench dataset card) plus Weave's own fields, all snake_case so they sit beside SWE-bench's.
import { z } from 'zod';
import { SPEC_KINDS } from '../../shared/specSchema';
import { VERDICTS } from '../../shared/verdicts';

export const TASK_FORMAT = 'weave-task/1';

export const TASK_FILES = {
  task: 'task.json',
  problemStatement: 'problem_statement.md',
  goldPatch: 'gold.patch',
  testPatch: 'test.patch',
  evalScript: 'eval.sh',
  baseBundle: 'base.bundle',
} as const;

/** The branch inside base.bundle that points at base_commit. */
export const BASE_BRANCH = 'weave-base';

const verdictSchema = z.enum(VERDICTS);

export const taskSpecSchema = z.object({
  id: z.string(),
  title: z.string(),
  kind: z.enum(SPEC_KINDS),
  statement: z.string(),
  test: z.object({
    command: z.string(),
    files: z.array(z.string()),
    /** Workspace-relative, defaults applied. */
    cwd: z.string(),
    env: z.record(z.string(), z.string()),
    timeoutSeconds: z.number(),
  }),
  anchors: z.array(z.string()),
  dependsOn: z.array(z.string()),
  interactsWith: z.array(z.string()),
});

const specOutcomeSchema = z.object({
  verdict: verdictSchema,
  exit_code: z.number().nullable(),
  reason: z.string().optional(),
});

export const taskSchema = z.object({
  // SWE-bench's fields
  repo: z.string(),
  instance_id: z.string().min(1),
  base_commit: z.string().regex(/^[0-9a-f]{40}$/),
  patch: z.string(),
  test_patch: z.string(),
  problem_statement: z.string(),
  hints_text: z.string(),
  created_at: z.string(),
  version: z.string(),
  FAIL_TO_PASS: z.array(z.string()),
  PASS_TO_PASS: z.array(z.string()),
  environment_setup_commit: z.string(),
  // Weave's fields
  /** Specs failing before and after the change (--from-history): in neither list, not part of "resolved". */
  still_failing: z.array(z.string()).optional(),
  weave_format: z.literal(TASK_FORMAT),
  weave_version: z.string(),
  goal: z.string(),
  specs: z.array(taskSpecSchema),
  run_defaults: z.object({ cwd: z.string(), timeoutSeconds: z.number() }),
  declared_interactions: z.array(z.tuple([z.string(), z.string()])),
  potential_interactions: z.array(
    z.object({ specs: z.tuple([z.string(), z.string()]), reason: z.string(), declared: z.boolean() }),
  ),
  environment_setup: z.array(z.string()),
  spec_test_files: z.array(z.string()),
  /**
   * The protected set, computed once at export: spec test files, .weave/, test-support files and the helpers in
   * the test folders (src/core/sandbox/protectedFiles.ts). eval.sh, Harbor's test.sh, `weave eval` and `weave
   * bench` restore every one before scoring. Absent in tasks exported before it existed (then: spec_test_files).
   */
  protected_files: z.array(z.string()).optional(),
  base_bundle: z.string(),
  source: z.object({ commit: z.string(), workspace_subdir: z.string() }),
  verified: z.boolean(),
  verification: z.object({
    reasons: z.array(z.object({ spec: z.string(), reason: z.string() })),
    base_results: z.record(z.string(), specOutcomeSchema),
    gold_results: z.record(z.string(), specOutcomeSchema),
  }),
  excluded_files: z.array(z.object({ path: z.string(), reason: z.string() })),
});

export type Task = z.infer<typeof taskSchema>;
export type TaskSpec = z.infer<typeof taskSpecSchema>;
export type SpecOutcome = z.infer<typeof specOutcomeSchema>;

/**
 * One line of a SWE-bench-style dataset: the same fields, with FAIL_TO_PASS / PASS_TO_PASS as JSON strings, and
 * `base_bundle` / `task_dir` relative to the dataset file so a harness finds the base and eval.sh from the line.
 */
export function toDatasetLine(task: Task, taskDirFromDataset: string): string {
  return JSON.stringify({
    ...task,
    FAIL_TO_PASS: JSON.stringify(task.FAIL_TO_PASS),
    PASS_TO_PASS: JSON.stringify(task.PASS_TO_PASS),
    task_dir: taskDirFromDataset,
    base_bundle: taskDirFromDataset === '.' ? task.base_bundle : `${taskDirFromDataset}/${task.base_bundle}`,
  });
}

/** The files a task's verifiers restore before scoring (older tasks: the spec test files alone). */
export function protectedFilesOf(task: Pick<Task, 'protected_files' | 'spec_test_files'>): string[] {
  return task.protected_files ?? task.spec_test_files;
}

/**
 * A path on the test side of a task: Weave's own folder or a spec test file (or anything inside a spec test
 * folder). The gold patch leaves these out, and a prediction that edits them is flagged.
 */
export function isSpecTestPath(file: string, specTestFiles: readonly string[]): boolean {
  return file.startsWith('.weave/') || specTestFiles.some((t) => file === t || file.startsWith(`${t}/`));
}
