// `weave export`: turns a workspace (a git repository or a folder inside one) into a verified benchmark task.
//
// The task does not point back at the user's repository: its base is a synthetic commit holding only the
// workspace folder at the base ref (secrets removed, absolute paths scrubbed), shipped as base.bundle, so a
// harness recreates it with `git clone base.bundle` and no access to the original repository or its history.
// gold.patch and test.patch are the differences between that base and the working tree (uncommitted and
// untracked non-ignored files included). All of this happens in a scratch folder; the user's repository is
// only read. Verification runs the written eval.sh against the written bundle, exactly as a harness would.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSpecFile } from '../spec/load';
import { formatProblem } from '../spec/problems';
import { git, GitError, splitNul } from './gitExec';
import { PathScrubber, redactSecrets, repoNameFromRemote, type ExcludedFile } from './hygiene';
import { snapshotCommit, snapshotWorkingTree } from './snapshot';
import { renderEvalScript } from './evalScript';
import { renderHints, renderProblemStatement } from './problemStatement';
import { runTaskPatch, type TaskRunResult } from './taskRunner';
import {
  BASE_BRANCH,
  TASK_FILES,
  TASK_FORMAT,
  toDatasetLine,
  type SpecOutcome,
  type Task,
  type TaskSpec,
} from './taskFormat';
import { environmentSetupCommands } from './environmentSetup';
import { potentialInteractions } from './interactions';
import { isClean } from '../git/git';
import { detectRuntime, projectVersion } from './projectFacts';
import { DEFAULT_AGENT_TIMEOUT_SECONDS, HARBOR_FILES, writeHarborTask } from './harborTask';
import { runHarborContract } from './harborContract';
import { InputError } from '../errors';

/** Which shapes to write: SWE-bench's task folder, Harbor's, or both (Harbor's then in <out>/harbor). */
export type ExportFormat = 'swe' | 'harbor' | 'both';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['swe', 'harbor', 'both'];
/** Where --format both puts the Harbor task, inside --out. */
export const HARBOR_SUBDIR = 'harbor';

export interface ExportOptions {
  workspaceDir: string;
  outDir: string;
  /** Default: HEAD when the workspace has uncommitted changes, else HEAD~1. */
  base?: string;
  datasetFile?: string;
  allowUnverified?: boolean;
  instanceId?: string;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
  /** Version string recorded in the task. */
  weaveVersion?: string;
  /** Default 'both'. */
  format?: ExportFormat;
  /** Harbor's [agent] timeout_sec. */
  agentTimeoutSeconds?: number;
  /** Harbor's [environment] allow_internet (default true: agents installed in the environment call their API). */
  harborAllowInternet?: boolean;
  /**
   * Export a commit instead of the working tree: the task is the change from `base` (default: its parent) to
   * this commit, judged by the spec file and spec tests as they are in this commit (`--from-history`).
   */
  targetCommit?: string;
  /**
   * A spec that fails before and after the change is left out of FAIL_TO_PASS / PASS_TO_PASS (and listed in
   * still_failing) instead of failing the verification: what mining history needs, where a commit fixes one
   * thing while other specs wait for later commits.
   */
  excludeStillFailing?: boolean;
  /** Where the Harbor task goes (default: <out>/harbor with --format both, <out> with --format harbor). */
  harborDir?: string;
}

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
}

/** Bad input: not a git workspace, no spec file, nothing to export, an unusable --out. Exit code 2. */
export class ExportInputError extends InputError {}

const SETUP_ALLOWANCE_SECONDS = 300;

export async function exportTask(options: ExportOptions): Promise<ExportResult> {
  const progress = options.onProgress ?? (() => undefined);
  const workspaceDir = path.resolve(options.workspaceDir);
  const outDir = path.resolve(options.outDir);
  const repo = await inspectRepository(workspaceDir);

  const loaded = await loadSpecsAt(workspaceDir, repo.prefix, options.targetCommit);
  if (!loaded.ok) {
    throw new ExportInputError(
      `the spec file has problems:\n${loaded.problems.map(formatProblem).join('\n')}`,
    );
  }
  const { specFile } = loaded;
  if (specFile.specs.length === 0)
    throw new ExportInputError(`${loaded.file} declares no spec: nothing to score`);

  // Weave's own state (.weave/.gitignore, .weave/runs/) is no change: right after `weave check` in a committed
  // repository the change to export is the last commit.
  const format = options.format ?? 'both';
  const baseRef =
    options.base ??
    (options.targetCommit !== undefined
      ? `${options.targetCommit}^`
      : (await isClean(workspaceDir))
        ? 'HEAD~1'
        : 'HEAD');
  const sourceCommit = await resolveBase(workspaceDir, baseRef, options.base === undefined);
  await checkOutDir(outDir, format);

  const scrubber = new PathScrubber([
    { dir: workspaceDir, replacement: '.' },
    { dir: repo.root, replacement: '<repo>' },
    { dir: outDir, replacement: '<out>' },
  ]);
  const outInsideWorkspace = path.relative(workspaceDir, outDir);
  const skip =
    outInsideWorkspace !== '' && !outInsideWorkspace.startsWith('..') && !path.isAbsolute(outInsideWorkspace)
      ? [outInsideWorkspace.split(path.sep).join('/')]
      : [];

  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-export-'));
  try {
    const taskRepo = path.join(scratch, 'repo');
    const stage = path.join(scratch, 'task');
    await fs.mkdir(taskRepo);
    await fs.mkdir(stage);
    const inTaskRepo = { cwd: taskRepo, isolated: true };

    progress(`Snapshotting the base (${baseRef})…`);
    await git(['init', '-q', '-b', BASE_BRANCH], inTaskRepo);
    const snapshotOptions = { workspaceDir, prefix: repo.prefix, scrubber, skip };
    const baseSnapshot = await snapshotCommit(sourceCommit, { ...snapshotOptions, destination: taskRepo });
    await git(['add', '-A', '-f'], inTaskRepo);
    const baseDate = (await git(['log', '-1', '--format=%cI', sourceCommit], { cwd: workspaceDir })).trim();
    const workspaceName = path.basename(workspaceDir);
    await git(['commit', '-q', '--allow-empty', '--no-verify', '-m', `Weave task base: ${workspaceName}`], {
      ...inTaskRepo,
      env: { GIT_AUTHOR_DATE: baseDate, GIT_COMMITTER_DATE: baseDate },
    });
    const baseCommit = (await git(['rev-parse', 'HEAD'], inTaskRepo)).trim();
    // Only the base is bundled: the target state's objects are unreachable from it and stay out.
    await git(
      ['bundle', 'create', '-q', path.join(stage, TASK_FILES.baseBundle), 'HEAD', BASE_BRANCH],
      inTaskRepo,
    );
    const baseFiles = new Set(
      splitNul(await git(['ls-tree', '-r', '-z', '--name-only', 'HEAD'], inTaskRepo)),
    );

    progress('Snapshotting the working tree…');
    for (const entry of await fs.readdir(taskRepo)) {
      if (entry !== '.git') await fs.rm(path.join(taskRepo, entry), { recursive: true, force: true });
    }
    const targetSnapshot =
      options.targetCommit === undefined
        ? await snapshotWorkingTree({ ...snapshotOptions, destination: taskRepo })
        : await snapshotCommit(options.targetCommit, { ...snapshotOptions, destination: taskRepo });
    await git(['add', '-A', '-f'], inTaskRepo);
    const changed = splitNul(
      await git(['diff', '--cached', '--name-only', '-z', '--no-renames', 'HEAD'], inTaskRepo),
    );

    const specTestFiles = [
      ...new Set(
        specFile.specs.flatMap((s) => s.test.files.map(normalizeRelative)).concat('.weave/specs.json'),
      ),
    ].sort();
    const isTestSide = (file: string): boolean =>
      file.startsWith('.weave/') || specTestFiles.some((t) => file === t || file.startsWith(`${t}/`));
    const diffOf = async (paths: string[]): Promise<string> =>
      paths.length === 0
        ? ''
        : git(['diff', '--cached', '--binary', '--full-index', '--no-renames', 'HEAD', '--', ...paths], {
            ...inTaskRepo,
            env: { GIT_LITERAL_PATHSPECS: '1' },
          });
    const goldPatch = await diffOf(changed.filter((f) => !isTestSide(f)));
    const testPatch = await diffOf(changed.filter(isTestSide));
    const excluded = dedupeExcluded([...baseSnapshot.excluded, ...targetSnapshot.excluded]);
    if (goldPatch === '') {
      throw new ExportInputError(
        `nothing to export: no change outside the spec test files between ${baseRef} (${sourceCommit.slice(0, 12)}) and the working tree` +
          (excluded.length > 0 ? ` (left out: ${excluded.map((e) => e.path).join(', ')})` : '') +
          '; make the change the task is about, or pass --base',
      );
    }

    const specs: TaskSpec[] = specFile.specs.map((s) => ({
      id: s.id,
      title: s.title,
      kind: s.kind,
      statement: s.statement,
      test: {
        command: s.test.command,
        files: s.test.files.map(normalizeRelative),
        cwd: normalizeRelative(s.test.cwd ?? specFile.defaults.cwd),
        env: { ...specFile.defaults.env, ...s.test.env },
        timeoutSeconds: s.test.timeoutSeconds ?? specFile.defaults.timeoutSeconds,
      },
      anchors: s.anchors,
      dependsOn: s.dependsOn,
      interactsWith: s.interactsWith,
    }));
    const scrubbedSpecs = scrubber.scrubValue(specs);
    const repoName = repo.remoteName ?? workspaceName;
    const instanceId = options.instanceId ?? defaultInstanceId(repoName, baseCommit, goldPatch, testPatch);
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(instanceId)) {
      throw new ExportInputError(`--instance-id '${instanceId}': use letters, digits, '.', '_' and '-'`);
    }
    const setupCommands = await environmentSetupCommands(taskRepo);
    const protectedPaths = [...new Set([...specTestFiles, ...changed.filter(isTestSide)])];
    const inBase = (p: string): boolean =>
      baseFiles.has(p) || [...baseFiles].some((f) => f.startsWith(`${p}/`));
    await fs.writeFile(
      path.join(stage, TASK_FILES.evalScript),
      renderEvalScript({
        instanceId,
        baseCommit,
        testPatch,
        protectedInBase: protectedPaths.filter(inBase),
        protectedNotInBase: protectedPaths.filter((p) => !inBase(p)),
        setupCommands,
        specs: scrubbedSpecs,
      }),
      { mode: 0o755 },
    );
    await fs.writeFile(path.join(stage, TASK_FILES.goldPatch), goldPatch);
    await fs.writeFile(path.join(stage, TASK_FILES.testPatch), testPatch);

    progress('Verifying: running every spec on base + test.patch and with the gold patch…');
    const timeoutMs =
      (specs.reduce((sum, s) => sum + s.test.timeoutSeconds, 0) +
        (setupCommands.length > 0 ? SETUP_ALLOWANCE_SECONDS : 30)) *
      1000;
    const run = (patch: string): Promise<TaskRunResult> =>
      runTaskPatch({
        taskDir: stage,
        baseCommit,
        specs: scrubbedSpecs,
        patch,
        timeoutMs,
        runSetup: true,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    const [baseRun, goldRun] = await Promise.all([run(''), run(goldPatch)]);
    if (options.signal?.aborted) throw new ExportInputError('export cancelled');
    const verification = classify(scrubbedSpecs, baseRun, goldRun, options.excludeStillFailing ?? false);

    const goal = scrubber.scrubValue(specFile.goal);
    const declared = declaredInteractions(scrubbedSpecs);
    progress('Computing potential interactions (static coupling)…');
    const coupling = await potentialInteractions(taskRepo, specFile);
    if (coupling.problem !== undefined) progress(coupling.problem);
    const potential = scrubber.scrubValue(coupling.interactions);
    const problemStatement = redactSecrets(renderProblemStatement(goal, scrubbedSpecs, specTestFiles));
    const task: Task = {
      repo: repoName,
      instance_id: instanceId,
      base_commit: baseCommit,
      patch: goldPatch,
      test_patch: testPatch,
      problem_statement: problemStatement,
      hints_text: redactSecrets(
        renderHints(
          scrubbedSpecs,
          declared,
          potential.filter((p) => !p.declared),
        ),
      ),
      created_at: new Date().toISOString(),
      version: await projectVersion(taskRepo),
      FAIL_TO_PASS: verification.failToPass,
      PASS_TO_PASS: verification.passToPass,
      environment_setup_commit: baseCommit,
      ...(verification.stillFailing.length > 0 ? { still_failing: verification.stillFailing } : {}),
      weave_format: TASK_FORMAT,
      weave_version: options.weaveVersion ?? 'unknown',
      goal,
      specs: scrubbedSpecs,
      run_defaults: {
        cwd: normalizeRelative(specFile.defaults.cwd),
        timeoutSeconds: specFile.defaults.timeoutSeconds,
      },
      declared_interactions: declared,
      potential_interactions: potential,
      environment_setup: setupCommands,
      spec_test_files: specTestFiles,
      base_bundle: TASK_FILES.baseBundle,
      source: { commit: sourceCommit, workspace_subdir: repo.prefix.replace(/\/$/, '') || '.' },
      verified: verification.reasons.length === 0,
      verification: scrubber.scrubValue({
        reasons: verification.reasons,
        base_results: verification.baseResults,
        gold_results: verification.goldResults,
      }),
      excluded_files: excluded,
    };
    const result: ExportResult = {
      written: false,
      verified: task.verified,
      outDir,
      instanceId,
      baseRef,
      reasons: task.verification.reasons,
      failToPass: task.FAIL_TO_PASS,
      passToPass: task.PASS_TO_PASS,
      excluded,
      task,
    };
    let harborStage: string | undefined;
    if (format !== 'swe') {
      harborStage = path.join(scratch, 'harbor');
      progress('Writing the Harbor task and running its contract (oracle, then no agent)…');
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
      if (task.verified) {
        const contract = (oracle: boolean) =>
          runHarborContract({
            harborDir: harborStage as string,
            oracle,
            timeoutMs,
            ...(options.signal ? { signal: options.signal } : {}),
          });
        const [withOracle, withoutAgent] = await Promise.all([contract(true), contract(false)]);
        const harborReasons: Array<{ spec: string; reason: string }> = [];
        if (withOracle.reward !== 1) {
          harborReasons.push({
            spec: '*',
            reason: `Harbor: the oracle (solution/solve.sh) scores ${withOracle.reward ?? 'no reward'}, not 1: ${withOracle.failure ?? describeHarborVerdicts(withOracle.verdicts)}`,
          });
        }
        if (withoutAgent.reward === null || withoutAgent.reward >= 1) {
          harborReasons.push({
            spec: '*',
            reason: `Harbor: without an agent the task scores ${withoutAgent.reward ?? 'no reward'}, not < 1: ${withoutAgent.failure ?? describeHarborVerdicts(withoutAgent.verdicts)}`,
          });
        }
        if (harborReasons.length > 0) {
          const scrubbed = scrubber.scrubValue(harborReasons);
          task.verified = false;
          task.verification.reasons.push(...scrubbed);
          result.verified = false;
        }
      }
    }
    if (!task.verified && !options.allowUnverified) return result;

    progress(`Writing ${outDir}…`);
    await fs.mkdir(outDir, { recursive: true });
    if (format !== 'harbor') {
      await fs.writeFile(path.join(stage, TASK_FILES.task), `${JSON.stringify(task, null, 2)}\n`);
      await fs.writeFile(path.join(stage, TASK_FILES.problemStatement), problemStatement);
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
    return { ...result, written: true, ...(harborDir === undefined ? {} : { harborDir }) };
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** The spec file of the working tree, or as it is in `commit` (read out of git into a scratch folder). */
async function loadSpecsAt(
  workspaceDir: string,
  prefix: string,
  commit: string | undefined,
): ReturnType<typeof loadSpecFile> {
  if (commit === undefined) return loadSpecFile(workspaceDir);
  let text: string;
  try {
    text = await git(['show', `${commit}:${prefix}.weave/specs.json`], { cwd: workspaceDir });
  } catch {
    throw new ExportInputError(
      `commit ${commit.slice(0, 12)} has no .weave/specs.json: no spec to judge it by`,
    );
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'weave-specs-'));
  try {
    await fs.mkdir(path.join(dir, '.weave'));
    await fs.writeFile(path.join(dir, '.weave', 'specs.json'), text);
    return await loadSpecFile(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

interface RepositoryFacts {
  root: string;
  /** Workspace path inside the repository, '' or ending in '/'. */
  prefix: string;
  /** owner/name from the origin remote (credentials never kept), when there is one. */
  remoteName: string | undefined;
}

async function inspectRepository(workspaceDir: string): Promise<RepositoryFacts> {
  try {
    const stat = await fs.stat(workspaceDir);
    if (!stat.isDirectory()) throw new ExportInputError(`${workspaceDir} is not a folder`);
  } catch (error) {
    if (error instanceof ExportInputError) throw error;
    throw new ExportInputError(`workspace folder ${workspaceDir} does not exist`);
  }
  let root: string;
  try {
    root = (await git(['rev-parse', '--show-toplevel'], { cwd: workspaceDir })).trim();
  } catch {
    throw new ExportInputError(
      `${workspaceDir} is not in a git repository: a task's base is a commit, so export needs git history ` +
        '(git init, then commit the starting state)',
    );
  }
  try {
    await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: workspaceDir });
  } catch {
    throw new ExportInputError(
      `the repository at ${root} has no commits yet: commit the starting state first, then export the change`,
    );
  }
  const prefix = (await git(['rev-parse', '--show-prefix'], { cwd: workspaceDir })).trim();
  let remoteName: string | undefined;
  try {
    remoteName = repoNameFromRemote(await git(['remote', 'get-url', 'origin'], { cwd: workspaceDir }));
  } catch {
    remoteName = undefined; // no origin: the folder name stands in
  }
  return { root, prefix, remoteName };
}

async function resolveBase(workspaceDir: string, ref: string, isDefault: boolean): Promise<string> {
  try {
    return (await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: workspaceDir })).trim();
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    if (isDefault) {
      throw new ExportInputError(
        'the working tree is clean and HEAD has no parent, so there is no change to export: ' +
          'make the change (it may stay uncommitted) or pass --base REF',
      );
    }
    throw new ExportInputError(`--base '${ref}' is not a commit in this repository`);
  }
}

// The top-level entries of a Harbor task folder (a previous export's may be replaced).
const HARBOR_ENTRIES = [...new Set(Object.values(HARBOR_FILES).map((f) => f.split('/')[0] as string))];

async function checkOutDir(outDir: string, format: ExportFormat): Promise<void> {
  let entries: string[];
  try {
    const stat = await fs.stat(outDir);
    if (!stat.isDirectory()) throw new ExportInputError(`--out ${outDir} exists and is not a folder`);
    entries = await fs.readdir(outDir);
  } catch (error) {
    if (error instanceof ExportInputError) throw error;
    return; // does not exist yet
  }
  const ours = new Set<string>([
    ...(format === 'harbor' ? [] : Object.values(TASK_FILES)),
    ...(format === 'swe' ? [] : format === 'both' ? [HARBOR_SUBDIR] : HARBOR_ENTRIES),
  ]);
  const foreign = entries.filter((e) => !ours.has(e));
  if (foreign.length > 0) {
    throw new ExportInputError(
      `--out ${outDir} is not empty (${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''}): ` +
        'choose a new folder or one holding a previous export',
    );
  }
}

function classify(
  specs: readonly TaskSpec[],
  baseRun: TaskRunResult,
  goldRun: TaskRunResult,
  excludeStillFailing: boolean,
): {
  failToPass: string[];
  passToPass: string[];
  stillFailing: string[];
  reasons: Array<{ spec: string; reason: string }>;
  baseResults: Record<string, SpecOutcome>;
  goldResults: Record<string, SpecOutcome>;
} {
  const reasons: Array<{ spec: string; reason: string }> = [];
  const failToPass: string[] = [];
  const passToPass: string[] = [];
  const stillFailing: string[] = [];
  if (baseRun.parsed.testPatchFailed)
    reasons.push({ spec: '*', reason: 'test.patch does not apply to the base' });
  if (goldRun.parsed.patchFailed)
    reasons.push({ spec: '*', reason: 'gold.patch does not apply to the base' });
  for (const spec of specs) {
    const before = baseRun.parsed.specs[spec.id];
    const after = goldRun.parsed.specs[spec.id];
    if (after?.verdict !== 'pass' && before?.verdict !== 'pass' && excludeStillFailing) {
      stillFailing.push(spec.id);
    } else if (after?.verdict !== 'pass') {
      const was = before?.verdict === 'pass' ? 'passes on base + test.patch but ' : '';
      reasons.push({ spec: spec.id, reason: `${was}does not pass with the gold patch: ${describe(after)}` });
    } else if (before?.verdict === 'pass') passToPass.push(spec.id);
    else failToPass.push(spec.id);
  }
  if (failToPass.length === 0 && reasons.length === 0) {
    reasons.push({
      spec: '*',
      reason: 'no spec fails on base + test.patch, so the gold patch fixes nothing a test sees',
    });
  }
  return {
    failToPass,
    passToPass,
    stillFailing,
    reasons,
    baseResults: outcomes(specs, baseRun),
    goldResults: outcomes(specs, goldRun),
  };
}

/** The verdict, its reason and — for a failure — the end of the test's output, so the cause shows. */
function describe(run: { verdict: string; reason?: string; outputTail?: string } | undefined): string {
  if (!run) return 'not run';
  const head = run.reason === undefined ? run.verdict : `${run.verdict} (${run.reason})`;
  const tail = (run.outputTail ?? '').trimEnd().split('\n').slice(-VERIFICATION_OUTPUT_LINES);
  return run.verdict === 'pass' || tail.join('').trim() === ''
    ? head
    : `${head}; its output ends:\n${tail.map((l) => `      ${l}`).join('\n')}`;
}

const VERIFICATION_OUTPUT_LINES = 12;

function describeHarborVerdicts(
  verdicts: Record<string, { verdict: string; reason: string | null }>,
): string {
  const failing = Object.entries(verdicts).filter(([, v]) => v.verdict !== 'pass');
  return failing.length === 0
    ? 'every spec passes'
    : failing.map(([id, v]) => `${id} ${v.verdict}${v.reason === null ? '' : ` (${v.reason})`}`).join(', ');
}

function outcomes(specs: readonly TaskSpec[], run: TaskRunResult): Record<string, SpecOutcome> {
  const out: Record<string, SpecOutcome> = {};
  for (const spec of specs) {
    const r = run.parsed.specs[spec.id];
    if (!r) continue;
    out[spec.id] = {
      verdict: r.verdict,
      exit_code: r.exitCode,
      ...(r.reason === undefined ? {} : { reason: r.reason }),
    };
  }
  return out;
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

function dedupeExcluded(list: ExcludedFile[]): ExcludedFile[] {
  const seen = new Map<string, ExcludedFile>();
  for (const e of list) if (!seen.has(e.path)) seen.set(e.path, e);
  return [...seen.values()].sort((a, b) => a.path.localeCompare(b.path));
}
