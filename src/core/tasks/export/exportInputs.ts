// What `weave export` reads before it writes anything: the repository (it must have commits), the spec file
// (of the working tree, or of the commit exported with --from-history), the base commit, and whether --out is
// a folder it may write. Every problem here is bad input (ExportInputError, exit code 2), found before any
// scratch folder exists.
import { promises as fs } from 'node:fs';
import { InputError } from '../../errors';
import os from 'node:os';
import path from 'node:path';
import { assertRevision, git, GitError, isClean } from '../../git/git';
import { formatProblem, loadSpecFile } from '../../spec';
import type { SpecFile } from '../../../shared/specSchema';
import { HARBOR_FILES } from '../harbor/harborTask';
import { PathScrubber, repoNameFromRemote } from './hygiene';
import { TASK_FILES } from '../taskFormat';
import type { SharedEnvironments } from '../run/sharedEnvironment';

/** Which shapes to write: SWE-bench's task folder, Harbor's, or both (Harbor's then in <out>/harbor). */
export type ExportFormat = 'swe' | 'harbor' | 'both';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['swe', 'harbor', 'both'];
/** Where --format both puts the Harbor task, inside --out. */
export const HARBOR_SUBDIR = 'harbor';

/** What `weave export` is asked to do (exportTask.ts does it; the inputs are read from these first). */
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
  /**
   * How often the verification looks for progress (the set-up running, "spec N of M"): default 15 s, a line
   * per look on a terminal; the editor's progress notification asks for about 1 s.
   */
  progressIntervalMs?: number;
  /** Version string recorded in the task. */
  weaveVersion?: string;
  /** task.json's created_at (default: now); `weave mine` passes the commit's date. */
  createdAt?: string;
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
  /**
   * Let the set-up run dependencies' install scripts (`--allow-install-scripts`); by default every JavaScript
   * install runs with --ignore-scripts (environmentSetup.ts says why).
   */
  allowInstallScripts?: boolean;
  /**
   * Set each environment up once and share it between the runs that need the same one (`weave mine`; the task
   * written is the same either way: sharedEnvironment.ts).
   */
  sharedEnvironments?: SharedEnvironments;
}

/** Bad input: not a git workspace, no spec file, nothing to export, an unusable --out. Exit code 2. */
export class ExportInputError extends InputError {}

/** Everything an export is made from, checked. */
export interface ExportInputs {
  workspaceDir: string;
  outDir: string;
  format: ExportFormat;
  repo: RepositoryFacts;
  specFile: SpecFile;
  baseRef: string;
  /** The base commit in the user's repository. */
  sourceCommit: string;
  /** This machine's paths in whatever the task carries. */
  scrubber: PathScrubber;
  /** Workspace-relative paths never snapshotted (the export's own output folder). */
  skip: string[];
}

export async function readExportInputs(options: ExportOptions): Promise<ExportInputs> {
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
  return { workspaceDir, outDir, format, repo, specFile, baseRef, sourceCommit, scrubber, skip };
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
    text = await git(['show', `${commit}:${prefix}.weave/specs.json`], workspaceDir);
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

export interface RepositoryFacts {
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
    root = (await git(['rev-parse', '--show-toplevel'], workspaceDir)).trim();
  } catch {
    throw new ExportInputError(
      `${workspaceDir} is not in a git repository: a task's base is a commit, so export needs git history ` +
        '(git init, then commit the starting state)',
    );
  }
  try {
    await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], workspaceDir);
  } catch {
    throw new ExportInputError(
      `the repository at ${root} has no commits yet: commit the starting state first, then export the change`,
    );
  }
  const prefix = (await git(['rev-parse', '--show-prefix'], workspaceDir)).trim();
  let remoteName: string | undefined;
  try {
    remoteName = repoNameFromRemote(await git(['remote', 'get-url', 'origin'], workspaceDir));
  } catch {
    remoteName = undefined; // no origin: the folder name stands in
  }
  return { root, prefix, remoteName };
}

async function resolveBase(workspaceDir: string, ref: string, isDefault: boolean): Promise<string> {
  assertRevision(ref, '--base', (m) => new ExportInputError(m));
  try {
    return (
      await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], workspaceDir)
    ).trim();
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
export const HARBOR_ENTRIES = [...new Set(Object.values(HARBOR_FILES).map((f) => f.split('/')[0] as string))];

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
