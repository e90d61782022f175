// What task.json says about an exported task: its specs (defaults applied, paths normalised), its instance id,
// and the record itself — SWE-bench's fields beside Weave's own, everything scrubbed of this machine's paths
// and secrets.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { effectiveTestSettings } from '../../check';
import { withTest } from '../../spec';
import type { SpecFile } from '../../../shared/specSchema';
import { ExportInputError, type ExportInputs } from './exportInputs';
import type { Verification } from './exportVerification';
import { redactSecrets, type ExcludedFile } from './hygiene';
import { potentialInteractions } from './interactions';
import { renderHints, renderProblemStatement } from '../problemStatement';
import { projectVersion } from '../projectFacts';
import { TASK_FILES, TASK_FORMAT, type Task, type TaskSpec } from '../taskFormat';

/** The spec file's specs as a task carries them: the file's defaults applied, paths workspace-relative. */
export function taskSpecsOf(specFile: SpecFile): TaskSpec[] {
  return specFile.specs.map((s) => {
    const settings = effectiveTestSettings(s, specFile.defaults);
    return withTest(s, {
      command: s.test.command,
      files: s.test.files.map(normalizeRelative),
      cwd: normalizeRelative(settings.cwd),
      env: settings.env,
      timeoutSeconds: settings.timeoutSeconds,
    });
  });
}

/** The task's specs as a spec file (defaults applied already), which the agent runs and protects. */
export function specFileOf(task: Task): SpecFile {
  return {
    version: 1,
    goal: task.goal,
    defaults: { cwd: task.run_defaults.cwd, env: {}, timeoutSeconds: task.run_defaults.timeoutSeconds },
    specs: task.specs.map((s) =>
      withTest(s, {
        command: s.test.command,
        files: s.test.files,
        cwd: s.test.cwd,
        env: s.test.env,
        timeoutSeconds: s.test.timeoutSeconds,
      }),
    ),
  };
}

/** Every spec test file (and the spec file), workspace-relative and sorted. */
export function specTestFilesOf(specFile: SpecFile): string[] {
  return [
    ...new Set(
      specFile.specs.flatMap((s) => s.test.files.map(normalizeRelative)).concat('.weave/specs.json'),
    ),
  ].sort();
}

/** --instance-id, or one derived from the repository's name and the task's content; checked either way. */
export function instanceIdFor(
  requested: string | undefined,
  repoName: string,
  content: { baseCommit: string; goldPatch: string; testPatch: string },
): string {
  const instanceId =
    requested ?? defaultInstanceId(repoName, content.baseCommit, content.goldPatch, content.testPatch);
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(instanceId)) {
    throw new ExportInputError(`--instance-id '${instanceId}': use letters, digits, '.', '_' and '-'`);
  }
  return instanceId;
}

export interface TaskRecordInput {
  inputs: ExportInputs;
  /** The task repository at the target state (coupling and the project version are read from it). */
  taskRepo: string;
  repoName: string;
  instanceId: string;
  baseCommit: string;
  goldPatch: string;
  testPatch: string;
  specs: TaskSpec[];
  specTestFiles: string[];
  /** The protected set (exportStates' Change.protectedPaths). */
  protectedFiles: string[];
  setupCommands: string[];
  verification: Verification;
  excluded: ExcludedFile[];
  weaveVersion: string | undefined;
  /** SWE-bench's created_at; default now. A mined commit's own date keeps the same inputs' task identical. */
  createdAt: string | undefined;
  progress: (message: string) => void;
}

/** task.json's content. */
export async function describeTask(input: TaskRecordInput): Promise<Task> {
  const { inputs, verification, specs } = input;
  const { scrubber, specFile } = inputs;
  const goal = scrubber.scrubValue(specFile.goal);
  const declared = declaredInteractions(specs);
  input.progress('Computing potential interactions (static coupling)…');
  const coupling = await potentialInteractions(input.taskRepo, specFile);
  if (coupling.problem !== undefined) input.progress(coupling.problem);
  const potential = scrubber.scrubValue(coupling.interactions);
  return {
    repo: input.repoName,
    instance_id: input.instanceId,
    base_commit: input.baseCommit,
    patch: input.goldPatch,
    test_patch: input.testPatch,
    problem_statement: redactSecrets(renderProblemStatement(goal, specs, input.specTestFiles)),
    hints_text: redactSecrets(
      renderHints(
        specs,
        declared,
        potential.filter((p) => !p.declared),
      ),
    ),
    created_at: input.createdAt ?? new Date().toISOString(),
    version: await projectVersion(input.taskRepo),
    FAIL_TO_PASS: verification.failToPass,
    PASS_TO_PASS: verification.passToPass,
    environment_setup_commit: input.baseCommit,
    ...(verification.stillFailing.length > 0 ? { still_failing: verification.stillFailing } : {}),
    weave_format: TASK_FORMAT,
    weave_version: input.weaveVersion ?? 'unknown',
    goal,
    specs,
    run_defaults: {
      cwd: normalizeRelative(specFile.defaults.cwd),
      timeoutSeconds: specFile.defaults.timeoutSeconds,
    },
    declared_interactions: declared,
    potential_interactions: potential,
    environment_setup: input.setupCommands,
    spec_test_files: input.specTestFiles,
    protected_files: input.protectedFiles,
    base_bundle: TASK_FILES.baseBundle,
    source: { commit: inputs.sourceCommit, workspace_subdir: inputs.repo.prefix.replace(/\/$/, '') || '.' },
    verified: verification.reasons.length === 0,
    verification: scrubber.scrubValue({
      reasons: verification.reasons,
      base_results: verification.baseResults,
      gold_results: verification.goldResults,
    }),
    excluded_files: input.excluded,
  };
}

function declaredInteractions(specs: readonly TaskSpec[]): Array<[string, string]> {
  const pairs = new Map<string, [string, string]>();
  for (const spec of specs) {
    for (const other of spec.interactsWith) {
      const pair = [spec.id, other].sort() as [string, string];
      pairs.set(pair.join('\0'), pair);
    }
  }
  return [...pairs.values()];
}

function defaultInstanceId(repoName: string, baseCommit: string, gold: string, test: string): string {
  const slug =
    repoName
      .replace(/\//g, '__')
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '') || 'task';
  const digest = createHash('sha256')
    .update(baseCommit)
    .update('\0')
    .update(gold)
    .update('\0')
    .update(test)
    .digest('hex');
  return `${slug}-${digest.slice(0, 8)}`;
}

function normalizeRelative(p: string): string {
  const posix = path.posix.normalize(p.replace(/\\/g, '/'));
  return posix === '' ? '.' : posix.replace(/^\.\/(?=.)/, '').replace(/\/$/, '');
}

export function dedupeExcluded(list: ExcludedFile[]): ExcludedFile[] {
  const seen = new Map<string, ExcludedFile>();
  for (const e of list) if (!seen.has(e.path)) seen.set(e.path, e);
  return [...seen.values()].sort((a, b) => a.path.localeCompare(b.path));
}
