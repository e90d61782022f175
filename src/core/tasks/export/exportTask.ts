// `weave export`: turns a workspace (a git repository or a folder inside one) into a verified benchmark task.
//
// The task does not point back at the user's repository: its base is a synthetic commit holding only the
// workspace folder at the base ref (secrets removed, absolute paths scrubbed), shipped as base.bundle, so a
// harness recreates it with `git clone base.bundle` and no access to the original repository or its history.
// gold.patch and test.patch are the differences between that base and the working tree (uncommitted and
// untracked non-ignored files included). All of this happens in a scratch folder; the user's repository is
// only read. Verification runs the written eval.sh against the written bundle, exactly as a harness would.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  environmentSetupCommands,
  IGNORE_SCRIPTS,
  installScriptPackages,
  makesSetupVenv,
} from '../environmentSetup';
import { renderEvalScript } from '../run/evalScript';
import {
  ExportInputError,
  HARBOR_ENTRIES,
  HARBOR_SUBDIR,
  readExportInputs,
  type ExportInputs,
  type ExportOptions,
} from './exportInputs';
import { commitBase, snapshotChange, type BaseState, type Change } from './exportStates';
import { harborContractReasons, verifyPatches } from './exportVerification';
import { DEFAULT_AGENT_TIMEOUT_SECONDS, writeHarborTask } from '../harbor/harborTask';
import type { ExcludedFile } from './hygiene';
import { detectRuntime } from '../projectFacts';
import { TASK_FILES, toDatasetLine, type Task, type TaskSpec } from '../taskFormat';
import { describeTask, instanceIdFor, taskSpecsOf } from './taskRecord';
import { taskTimeoutSeconds, type RunEnvironment } from '../run/taskRunner';
import type { SharedEnvironments } from '../run/sharedEnvironment';

export {
  EXPORT_FORMATS,
  ExportInputError,
  HARBOR_SUBDIR,
  type ExportFormat,
  type ExportOptions,
} from './exportInputs';

export interface ExportResult {
  written: boolean;
  verified: boolean;
  outDir: string;
  instanceId: string;
  baseRef: string;
  /** Per-spec reasons the task did not verify. */
  reasons: Array<{ spec: string; reason: string }>;
  failToPass: string[];
  passToPass: string[];
  excluded: ExcludedFile[];
  /** The task as written (or as it would have been). */
  task: Task;
  /** The Harbor task folder when one was written. */
  harborDir?: string;
  /** Where verification ran the specs (the sandbox, or unsandboxed because the user allowed it). */
  verifiedIn: RunEnvironment;
}

/** The phases of an export: read and check the inputs, snapshot the two states, stage, verify, write. */
export async function exportTask(options: ExportOptions): Promise<ExportResult> {
  const progress = options.onProgress ?? (() => undefined);
  const inputs = await readExportInputs(options);
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-export-'));
  try {
    const taskRepo = path.join(scratch, 'repo');
    const stage = path.join(scratch, 'task');
    await fs.mkdir(taskRepo);
    await fs.mkdir(stage);
    const { base, change } = await snapshotStates(inputs, options, taskRepo, stage);

    const specs = inputs.scrubber.scrubValue(taskSpecsOf(inputs.specFile));
    const repoName = inputs.repo.remoteName ?? path.basename(inputs.workspaceDir);
    const instanceId = instanceIdFor(options.instanceId, repoName, { baseCommit: base.commit, ...change });
    const setupCommands = await environmentSetupCommands(taskRepo, {
      specCommands: specs.map((s) => s.test.command),
      // The flag, or the project's own setting in .weave/specs.json (setup.allowInstallScripts).
      allowInstallScripts:
        options.allowInstallScripts === true || inputs.specFile.setup?.allowInstallScripts === true,
    });
    await stageEvalScript(stage, { instanceId, base, change, setupCommands, specs });

    progress('Verifying: running every spec on base + test.patch and with the gold patch…');
    const timeoutMs = taskTimeoutSeconds(specs, setupCommands) * 1000;
    const verification = await verifyPatches({
      stage,
      baseCommit: base.commit,
      specs,
      protectedFiles: change.protectedPaths,
      setupVenv: makesSetupVenv(setupCommands),
      goldPatch: change.goldPatch,
      timeoutMs,
      excludeStillFailing: options.excludeStillFailing ?? false,
      onProgress: progress,
      ...(options.progressIntervalMs === undefined ? {} : { progressIntervalMs: options.progressIntervalMs }),
      ...(options.signal ? { signal: options.signal } : {}),
      ...sharedWith(options, setupCommands),
    });
    if (options.signal?.aborted) throw new ExportInputError('export cancelled');
    const skipped = await skippedInstallScripts(taskRepo, setupCommands);
    if (skipped !== undefined && verification.reasons.some((r) => r.spec !== '*'))
      verification.reasons.push({ spec: '*', reason: skipped });

    const task = await describeTask({
      inputs,
      taskRepo,
      repoName,
      instanceId,
      baseCommit: base.commit,
      goldPatch: change.goldPatch,
      testPatch: change.testPatch,
      specs,
      specTestFiles: change.specTestFiles,
      protectedFiles: change.protectedPaths,
      setupCommands,
      verification,
      excluded: change.excluded,
      weaveVersion: options.weaveVersion,
      createdAt: options.createdAt,
      progress,
    });
    const harborStage =
      inputs.format === 'swe'
        ? undefined
        : await verifiedHarborStage(inputs, options, {
            task,
            taskRepo,
            change,
            scratch,
            timeoutMs,
            setupCommands,
          });
    const result = resultOf(inputs, task, change.excluded, verification.environment);
    if (!task.verified && !options.allowUnverified) return result;

    progress(`Writing ${inputs.outDir}…`);
    // The first folder this export makes (undefined: --out was there already). A write that fails takes it away
    // again, so a failed export leaves no half-written new folder; a folder the user had is never removed.
    const created = await fs.mkdir(inputs.outDir, { recursive: true });
    try {
      const harborDir = await writeExport(inputs, options, task, stage, harborStage);
      return { ...result, written: true, ...(harborDir === undefined ? {} : { harborDir }) };
    } catch (error) {
      if (created !== undefined) await fs.rm(created, { recursive: true, force: true });
      throw error;
    }
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** The shared environments an export was given, with the task's set-up commands. */
function sharedWith(
  options: ExportOptions,
  setupCommands: readonly string[],
): { sharedEnvironments?: { environments: SharedEnvironments; setupCommands: readonly string[] } } {
  return options.sharedEnvironments === undefined
    ? {}
    : { sharedEnvironments: { environments: options.sharedEnvironments, setupCommands } };
}

/** The two states: the base committed in the task's repository (its files staged as base.bundle), the change. */
async function snapshotStates(
  inputs: ExportInputs,
  options: ExportOptions,
  taskRepo: string,
  stage: string,
): Promise<{ base: BaseState; change: Change }> {
  const progress = options.onProgress ?? (() => undefined);
  const snapshotOptions = {
    workspaceDir: inputs.workspaceDir,
    prefix: inputs.repo.prefix,
    scrubber: inputs.scrubber,
    skip: inputs.skip,
    destination: taskRepo,
  };
  progress(`Snapshotting the base (${inputs.baseRef})…`);
  const base = await commitBase(inputs, snapshotOptions, stage);
  progress('Snapshotting the working tree…');
  const change = await snapshotChange(inputs, snapshotOptions, options.targetCommit, base.excluded);
  return { base, change };
}

/** The Harbor task staged and, when the task verified, its contract run: a broken contract unverifies it. */
async function verifiedHarborStage(
  inputs: ExportInputs,
  options: ExportOptions,
  at: {
    task: Task;
    taskRepo: string;
    change: Change;
    scratch: string;
    timeoutMs: number;
    setupCommands: string[];
  },
): Promise<string> {
  const { task, change } = at;
  const harborStage = path.join(at.scratch, 'harbor');
  (options.onProgress ?? (() => undefined))(
    'Writing the Harbor task and running its contract (oracle, then no agent)…',
  );
  await stageHarborTask(task, at.taskRepo, change.protectedPaths, options, harborStage);
  if (task.verified) {
    const reasons = await harborContractReasons(
      harborStage,
      at.timeoutMs,
      options.signal,
      sharedWith(options, at.setupCommands).sharedEnvironments,
    );
    if (reasons.length > 0) {
      task.verified = false;
      task.verification.reasons.push(...inputs.scrubber.scrubValue(reasons));
    }
  }
  return harborStage;
}

/** eval.sh, gold.patch and test.patch into the stage, where verification runs them as a harness would. */
async function stageEvalScript(
  stage: string,
  task: { instanceId: string; base: BaseState; change: Change; setupCommands: string[]; specs: TaskSpec[] },
): Promise<void> {
  const { base, change } = task;
  const inBase = (p: string): boolean =>
    base.files.has(p) || [...base.files].some((f) => f.startsWith(`${p}/`));
  await fs.writeFile(
    path.join(stage, TASK_FILES.evalScript),
    renderEvalScript({
      instanceId: task.instanceId,
      baseCommit: base.commit,
      testPatch: change.testPatch,
      protectedInBase: change.protectedPaths.filter(inBase),
      protectedNotInBase: change.protectedPaths.filter((p) => !inBase(p)),
      setupCommands: task.setupCommands,
      specs: task.specs,
    }),
    { mode: 0o755 },
  );
  await fs.writeFile(path.join(stage, TASK_FILES.goldPatch), change.goldPatch);
  await fs.writeFile(path.join(stage, TASK_FILES.testPatch), change.testPatch);
}

async function stageHarborTask(
  task: Task,
  taskRepo: string,
  protectedPaths: string[],
  options: ExportOptions,
  harborStage: string,
): Promise<void> {
  await writeHarborTask(
    {
      task,
      baseRepo: taskRepo,
      targetTree: taskRepo,
      protectedPaths,
      runtime: await detectRuntime(taskRepo),
      agentTimeoutSeconds: options.agentTimeoutSeconds ?? DEFAULT_AGENT_TIMEOUT_SECONDS,
      allowInternet: options.harborAllowInternet ?? true,
    },
    harborStage,
  );
}

function resultOf(
  inputs: ExportInputs,
  task: Task,
  excluded: ExcludedFile[],
  verifiedIn: RunEnvironment,
): ExportResult {
  return {
    verifiedIn,
    written: false,
    verified: task.verified,
    outDir: inputs.outDir,
    instanceId: task.instance_id,
    baseRef: inputs.baseRef,
    reasons: task.verification.reasons,
    failToPass: task.FAIL_TO_PASS,
    passToPass: task.PASS_TO_PASS,
    excluded,
    task,
  };
}

/** The staged task into --out (and the Harbor task where it goes), plus its --dataset line. Returns the Harbor folder. */
async function writeExport(
  inputs: ExportInputs,
  options: ExportOptions,
  task: Task,
  stage: string,
  harborStage: string | undefined,
): Promise<string | undefined> {
  const { outDir, format } = inputs;
  await fs.mkdir(outDir, { recursive: true });
  if (format !== 'harbor') {
    await fs.writeFile(path.join(stage, TASK_FILES.task), `${JSON.stringify(task, null, 2)}\n`);
    await fs.writeFile(path.join(stage, TASK_FILES.problemStatement), task.problem_statement);
    for (const file of Object.values(TASK_FILES))
      await fs.copyFile(path.join(stage, file), path.join(outDir, file));
    await fs.chmod(path.join(outDir, TASK_FILES.evalScript), 0o755);
  }
  let harborDir: string | undefined;
  if (harborStage !== undefined) {
    harborDir = path.resolve(
      options.harborDir ?? (format === 'harbor' ? outDir : path.join(outDir, HARBOR_SUBDIR)),
    );
    for (const entry of HARBOR_ENTRIES)
      await fs.rm(path.join(harborDir, entry), { recursive: true, force: true });
    await fs.cp(harborStage, harborDir, { recursive: true });
  }
  if (options.datasetFile !== undefined) {
    const datasetDir = path.dirname(path.resolve(options.datasetFile));
    await fs.mkdir(datasetDir, { recursive: true });
    const taskDirFromDataset = path.relative(datasetDir, outDir).split(path.sep).join('/') || '.';
    await fs.appendFile(options.datasetFile, `${toDatasetLine(task, taskDirFromDataset)}\n`);
  }
  return harborDir;
}

/**
 * When the set-up skipped dependencies' install scripts and a spec then did not verify: which packages' scripts
 * did not run (from the lockfile, when it says), and how to allow them. A spec that fails to load for want of a
 * downloaded binary or a native build then says why.
 */
async function skippedInstallScripts(
  treeDir: string,
  setupCommands: readonly string[],
): Promise<string | undefined> {
  if (!setupCommands.some((c) => c.endsWith(` ${IGNORE_SCRIPTS}`))) return undefined;
  const packages = await installScriptPackages(treeDir);
  const which =
    packages === undefined
      ? 'which packages have them is not recorded without a package-lock.json'
      : packages.length === 0
        ? 'the lockfile lists none'
        : `not run: ${packages.join(', ')}`;
  return (
    `the set-up skipped dependencies' install scripts (${IGNORE_SCRIPTS}; ${which}); if a spec fails because a ` +
    'dependency was not built or downloaded, export with --allow-install-scripts (or set "setup": ' +
    '{ "allowInstallScripts": true } in .weave/specs.json)'
  );
}
