// One repository of `weave mine`: clone, walk the candidate commits, and for each one make its specs, export it
// (export's own verification, in the sandbox) and keep the task or the stage and reason it stopped at. The result
// lands atomically: everything is written into a partial folder that is renamed to OUT/repos/<key> at the end, so
// a killed run leaves no half repository and a rerun skips the finished ones.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { git } from '../../git/git';
import { SETUP_FAILED } from '../run/evalLog';
import { exportTask, ExportInputError, type ExportResult } from '../export/exportTask';
import type { SpecFileInput } from '../../../shared/specSchema';
import { ENVIRONMENT_WRITE, SharedEnvironments } from '../run/sharedEnvironment';
import { cloneRepository, CloneError } from './repoCache';
import { DEFAULT_LIMITS, lookAtCommits, type CandidateLimits, type CommitLook } from './candidateCommits';
import { GOAL_PREFIX, KEEP_PREFIX, specCommits, specsForCommit } from './commitSpecs';
import type { RepositoryEntry } from './repoList';
import { observedInteractions, synthesiseSpecs, withSynthesised, type SynthesisSettings } from './synthesis';
import {
  REPOSITORY_RESULT,
  REPOSITORY_LOG,
  type MinedTask,
  type RepositoryResult,
  type Rejection,
  type RunLog,
  type StageTimes,
} from './mineResult';

export interface MineRepositoryOptions {
  entry: RepositoryEntry;
  /** OUT/repos: the finished repositories. */
  reposDir: string;
  cacheDir: string;
  limits?: CandidateLimits;
  weaveVersion: string;
  /** With a model: synthesised constraint specs and observed interactions per verified task. */
  synthesis?: SynthesisSettings;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
  /**
   * Set each environment version up once in CACHE/environments and share it between the candidates' runs
   * (default); false: every run sets up its own, as `weave export` does (--no-env-reuse).
   */
  envReuse?: boolean;
}

/** Where shared environments are kept in the mining cache. */
export const ENVIRONMENTS_DIR = 'environments';

/** The repository's finished folder, or undefined when it was finished before (a resumed run skips it). */
export async function mineRepository(options: MineRepositoryOptions): Promise<'mined' | 'already mined'> {
  const { entry, reposDir } = options;
  const finalDir = path.join(reposDir, entry.key);
  if (await exists(path.join(finalDir, REPOSITORY_RESULT))) return 'already mined';
  const partial = path.join(reposDir, `.${entry.key}.partial-${process.pid}`);
  await removeStalePartials(reposDir, entry.key);
  await fs.mkdir(partial, { recursive: true });
  try {
    const { result, log } = await mineInto(options, partial);
    await fs.writeFile(path.join(partial, REPOSITORY_RESULT), `${JSON.stringify(result, null, 2)}\n`);
    await fs.writeFile(path.join(partial, REPOSITORY_LOG), `${JSON.stringify(log, null, 2)}\n`);
    await fs.rm(finalDir, { recursive: true, force: true });
    await fs.rename(partial, finalDir);
    return 'mined';
  } finally {
    await fs.rm(partial, { recursive: true, force: true });
  }
}

async function mineInto(
  options: MineRepositoryOptions,
  dir: string,
): Promise<{ result: RepositoryResult; log: RunLog }> {
  const { entry } = options;
  const progress = (message: string): void => options.onProgress?.(`${entry.key}: ${message}`);
  const times: StageTimes = { clone: 0, walk: 0, specs: 0, verify: 0, synthesis: 0, audit: 0 };
  const log: RunLog = { milliseconds: times, reasons: [] };
  const environments =
    options.envReuse === false
      ? undefined
      : new SharedEnvironments(path.join(options.cacheDir, ENVIRONMENTS_DIR));
  const withEnvironments: MineRepositoryOptions & { environments?: SharedEnvironments } = environments
    ? { ...options, environments }
    : options;
  const timed = async <T>(stage: keyof StageTimes, work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await work();
    } finally {
      times[stage] += Math.round(performance.now() - start);
    }
  };
  const result: RepositoryResult = {
    key: entry.key,
    line: entry.line,
    funnel: {
      commits: 0,
      candidates: 0,
      environment_ready: 0,
      specs_verified: 0,
      task_verified: 0,
      // Without a model these stay out, so a model-free dataset keeps its bytes.
      ...(options.synthesis ? { specs_synthesised: 0 } : {}),
    },
    tasks: [],
    rejections: [],
    ...(options.synthesis ? { tokens: { synthesis: 0 } } : {}),
  };
  let clone;
  try {
    progress('cloning');
    clone = await timed('clone', () => cloneRepository(entry, options.cacheDir));
  } catch (error) {
    if (!(error instanceof CloneError)) throw error;
    result.problem = { stage: 'clone', reason: error.message };
    return { result, log };
  }
  let looks: CommitLook[];
  try {
    looks = await timed('walk', () =>
      lookAtCommits(clone.root, entry.range, entry.subdir, options.limits ?? DEFAULT_LIMITS),
    );
  } catch (error) {
    result.problem = { stage: 'walk', reason: error instanceof Error ? error.message : String(error) };
    return { result, log };
  }
  result.funnel.commits = looks.length;
  const candidates = looks.filter((l) => l.rejected === undefined);
  result.funnel.candidates = candidates.length;
  for (const look of looks)
    if (look.rejected !== undefined) result.rejections.push(rejectionOf(look, 'candidate', look.rejected));
  if (candidates.length === 0)
    result.problem = {
      stage: 'candidate',
      reason: 'no usable commit (source and tests changed together, within the limits)',
    };
  progress(`${looks.length} commits, ${candidates.length} candidates`);
  // A set-up that failed fails again for every commit with the same set-up files: judged once per version.
  const failedSetups = new Map<string, string>();
  for (const [index, look] of candidates.entries()) {
    if (options.signal?.aborted) throw new ExportInputError('mining stopped');
    progress(`candidate ${index + 1}/${candidates.length} ${look.commit.slice(0, 12)} ${look.subject}`);
    const setupKey = await setupVersion(clone.root, entry.subdir, look.parent);
    const knownFailure = failedSetups.get(setupKey);
    if (knownFailure !== undefined) {
      result.rejections.push(rejectionOf(look, 'environment', knownFailure));
      continue;
    }
    const made = await timed('specs', () => specsForCommit(clone.root, entry.subdir, look));
    if (made.problem !== undefined) {
      result.rejections.push(rejectionOf(look, 'specs', made.problem));
      continue;
    }
    let outcome = await timed('verify', () =>
      verifyCandidate(withEnvironments, clone.root, clone.workspaceDir, look, made.specFile, dir),
    );
    if (outcome.task !== undefined && options.synthesis !== undefined)
      outcome = await synthesise(withEnvironments, options.synthesis, clone, look, outcome, dir, {
        result,
        timed,
      });
    if (outcome.stage === 'environment')
      failedSetups.set(setupKey, `the same set-up failed for ${look.commit.slice(0, 12)}: ${outcome.reason}`);
    if (outcome.stage !== 'environment') result.funnel.environment_ready++;
    if (outcome.stage === 'task' || outcome.task !== undefined) result.funnel.specs_verified++;
    if (outcome.task !== undefined) {
      result.funnel.task_verified++;
      result.tasks.push(outcome.task);
    } else {
      result.rejections.push(rejectionOf(look, outcome.stage, outcome.reason));
      if (outcome.detail !== undefined) log.reasons.push({ commit: look.commit, reason: outcome.detail });
    }
  }
  result.tasks.sort((a, b) => a.instance_id.localeCompare(b.instance_id));
  if (environments)
    log.environments = { ...environments.counts, fresh_reasons: [...environments.freshReasons].sort() };
  return { result, log };
}

type Outcome =
  | { task: MinedTask; verified: VerifiedSpecs; stage?: undefined; reason?: undefined }
  | { task?: undefined; stage: Rejection['stage']; reason: string; detail?: string };

/** The spec file a task was verified with and the target commit it was verified on. */
interface VerifiedSpecs {
  specFile: SpecFileInput;
  target: string;
}

/**
 * The model's part of a verified task: the synthesis agent's drafts (the accepted ones join the task, which is
 * exported and verified again with them; a failure there rejects them and keeps the task as it was), then the
 * audit's observed interactions over the task's final specs. Rejected drafts go into the funnel.
 */
async function synthesise(
  options: MineRepositoryOptions,
  settings: SynthesisSettings,
  clone: { root: string; workspaceDir: string },
  look: CommitLook,
  outcome: Outcome & { task: MinedTask },
  dir: string,
  {
    result,
    timed,
  }: { result: RepositoryResult; timed: <T>(stage: keyof StageTimes, work: () => Promise<T>) => Promise<T> },
): Promise<Outcome> {
  const { entry } = options;
  const reject = (id: string, reason: string): void => {
    result.rejections.push(rejectionOf(look, 'specs-synthesised', `${id}: ${reason}`));
  };
  options.onProgress?.(`${entry.key}: synthesising constraint specs for ${look.commit.slice(0, 12)}`);
  const drafted = await timed('synthesis', () =>
    synthesiseSpecs(
      clone.root,
      entry.subdir,
      outcome.verified.target,
      look.message,
      settings,
      options.signal,
    ),
  );
  if (result.tokens) result.tokens.synthesis += drafted.tokens;
  for (const r of drafted.rejected) reject(r.id, r.reason);
  let final: Outcome & { task: MinedTask } = outcome;
  let synthesised: string[] = [];
  if (drafted.accepted.length > 0) {
    const extended = withSynthesised(outcome.verified.specFile, drafted.accepted);
    // Exported into a staging folder: the task verified without them stays until this one verifies.
    const staging = path.join(dir, '.synthesis');
    const again = await timed('verify', () =>
      verifyCandidate(options, clone.root, clone.workspaceDir, look, extended.specFile, staging, {
        testFiles: extended.testFiles,
        ids: new Set(extended.ids),
      }),
    );
    if (again.task !== undefined) {
      for (const shape of ['swe', 'harbor']) {
        const from = path.join(staging, shape, again.task.instance_id);
        const to = path.join(dir, shape, again.task.instance_id);
        await fs.rm(to, { recursive: true, force: true });
        await fs.rename(from, to);
      }
      final = again;
      const kept = new Set([...again.task.fail_to_pass, ...again.task.pass_to_pass]);
      const renamedIds = again.verified.specFile.specs.map((s) => s.id);
      synthesised = renamedIds.filter((id) => kept.has(id) && isSynthesised(id, extended.ids));
      for (const id of extended.ids)
        if (!synthesised.some((s) => sameSpec(s, id)))
          reject(id, 'left out by the task verification (it fails before and after the change)');
    } else {
      for (const id of extended.ids) reject(id, `the task does not verify with it: ${again.reason}`);
    }
    await fs.rm(staging, { recursive: true, force: true });
  }
  options.onProgress?.(`${entry.key}: auditing ${look.commit.slice(0, 12)} for observed interactions`);
  const observed = await timed('audit', () =>
    observedInteractions(
      clone.root,
      entry.subdir,
      final.verified.target,
      settings.auditMutants,
      options.signal,
    ),
  );
  if (synthesised.length > 0 && result.funnel.specs_synthesised !== undefined)
    result.funnel.specs_synthesised++;
  return {
    ...final,
    task: { ...final.task, synthesised: synthesised.sort(), observed_interactions: observed },
  };
}

/** A synthesised spec keeps its id after the keep-/goal- rename the verification may make. */
function sameSpec(a: string, b: string): boolean {
  const bare = (id: string): string => id.replace(/^(goal|keep)-/, '');
  return bare(a) === bare(b);
}

function isSynthesised(id: string, ids: readonly string[]): boolean {
  return ids.some((s) => sameSpec(s, id));
}

/**
 * Exports the candidate with its specs. A spec whose verified role differs from its name's (a changed test file
 * that passed before, an old one the change fixes) is renamed and one failing on both sides dropped, then the
 * task is exported again: the names are what metric.py reads the constraints by.
 */
async function verifyCandidate(
  options: MineRepositoryOptions & { environments?: SharedEnvironments },
  repoRoot: string,
  workspaceDir: string,
  look: CommitLook,
  specFile: SpecFileInput,
  dir: string,
  /** Synthesised specs: their test files (added to the target) and ids (their kinds are the model's). */
  synthesised: { testFiles: Array<{ path: string; content: string }>; ids: ReadonlySet<string> } = {
    testFiles: [],
    ids: new Set(),
  },
): Promise<Outcome> {
  const instanceId = `${options.entry.key}-${look.commit.slice(0, 12)}`;
  const createdAt = (await git(['log', '-1', '--format=%cI', look.commit], repoRoot)).trim();
  let current = specFile;
  for (let attempt = 0; attempt < 2; attempt++) {
    const commits = await specCommits(
      repoRoot,
      options.entry.subdir,
      look,
      `${JSON.stringify(current, null, 2)}\n`,
      synthesised.testFiles,
    );
    const outDir = path.join(dir, 'swe', instanceId);
    const harborDir = path.join(dir, 'harbor', instanceId);
    let result: ExportResult;
    try {
      result = await exportTask({
        workspaceDir,
        outDir,
        harborDir,
        format: 'both',
        base: commits.base,
        targetCommit: commits.target,
        excludeStillFailing: true,
        instanceId,
        weaveVersion: options.weaveVersion,
        createdAt,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.environments ? { sharedEnvironments: options.environments } : {}),
      });
    } catch (error) {
      if (!(error instanceof ExportInputError)) throw error;
      return { stage: 'specs', reason: error.message };
    }
    if (!result.written) return failure(result);
    const renamed = withVerifiedRoles(current, result, synthesised.ids);
    if (renamed === undefined)
      return { task: minedTask(result, look), verified: { specFile: current, target: commits.target } };
    await fs.rm(outDir, { recursive: true, force: true });
    await fs.rm(harborDir, { recursive: true, force: true });
    current = renamed;
  }
  return { stage: 'specs', reason: 'the specs changed role between two verifications (flaky tests)' };
}

function failure(result: ExportResult): Outcome {
  // The first line of each reason only: the output tails after it hold durations, temp paths and log names that
  // differ run to run, and the funnel is part of the dataset (the whole reasons go to the run log).
  const reasons = result.reasons.map(
    (r) => `${r.spec === '*' ? '' : `${r.spec}: `}${r.reason.split('\n')[0] ?? ''}`,
  );
  const reason = reasons.join('; ');
  // Code that wrote into the shared environment: the task is rejected for the attempt, named in the funnel.
  if (result.reasons.some((r) => r.reason.includes(ENVIRONMENT_WRITE)))
    return { stage: 'task', reason, detail: full(result) };
  // Export words a failed set-up with the one prefix (after the run's label when only one side failed).
  if (result.reasons.some((r) => r.reason.startsWith(SETUP_FAILED) || r.reason.includes(`: ${SETUP_FAILED}`)))
    return { stage: 'environment', reason, detail: full(result) };
  if (result.reasons.length > 0 && result.reasons.every((r) => r.reason.startsWith('Harbor:')))
    return { stage: 'task', reason, detail: full(result) };
  return { stage: 'specs', reason, detail: full(result) };
}

function full(result: ExportResult): string {
  return result.reasons.map((r) => (r.spec === '*' ? r.reason : `${r.spec}: ${r.reason}`)).join('\n');
}

/** The spec file with names matching the verified roles, or undefined when they match already. */
function withVerifiedRoles(
  specFile: SpecFileInput,
  result: ExportResult,
  synthesised: ReadonlySet<string>,
): SpecFileInput | undefined {
  const f2p = new Set(result.failToPass);
  const p2p = new Set(result.passToPass);
  const rename = new Map<string, string>();
  for (const spec of specFile.specs) {
    if (spec.id.startsWith(GOAL_PREFIX) && p2p.has(spec.id))
      rename.set(spec.id, KEEP_PREFIX + spec.id.slice(GOAL_PREFIX.length));
    if (spec.id.startsWith(KEEP_PREFIX) && f2p.has(spec.id))
      rename.set(spec.id, GOAL_PREFIX + spec.id.slice(KEEP_PREFIX.length));
  }
  const dropped = specFile.specs.filter((s) => !f2p.has(s.id) && !p2p.has(s.id)).map((s) => s.id);
  if (rename.size === 0 && dropped.length === 0) return undefined;
  const to = (id: string): string => rename.get(id) ?? id;
  const kept = specFile.specs.filter((s) => !dropped.includes(s.id));
  return {
    ...specFile,
    specs: kept.map((spec) => ({
      ...spec,
      id: to(spec.id),
      // The mined specs' kind follows their role; a synthesised spec keeps the kind the model gave it.
      kind: isSynthesised(spec.id, [...synthesised])
        ? spec.kind
        : to(spec.id).startsWith(GOAL_PREFIX)
          ? 'functional'
          : 'compatibility',
      ...(spec.interactsWith
        ? { interactsWith: spec.interactsWith.filter((i) => !dropped.includes(i)).map(to) }
        : {}),
      ...(spec.dependsOn ? { dependsOn: spec.dependsOn.filter((i) => !dropped.includes(i)).map(to) } : {}),
    })),
  };
}

function minedTask(result: ExportResult, look: CommitLook): MinedTask {
  const { task } = result;
  return {
    instance_id: task.instance_id,
    commit: look.commit,
    subject: look.subject,
    fail_to_pass: task.FAIL_TO_PASS,
    pass_to_pass: task.PASS_TO_PASS,
    kinds: Object.fromEntries(
      [...new Set(task.specs.map((s) => s.kind))]
        .sort()
        .map((k) => [k, task.specs.filter((s) => s.kind === k).length]),
    ),
    interactions: task.declared_interactions.length,
  };
}

function rejectionOf(look: CommitLook, stage: Rejection['stage'], reason: string): Rejection {
  return { commit: look.commit, subject: look.subject, stage, reason };
}

// The files a set-up is made from (export's environmentSetup.ts reads these): equal contents, equal set-up.
const SETUP_FILES = [
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'requirements.txt',
  'setup.py',
  'pyproject.toml',
  'tox.ini',
  'go.sum',
  'Cargo.lock',
];

async function setupVersion(repoRoot: string, subdir: string, commit: string): Promise<string> {
  const prefix = subdir === '' ? '' : `${subdir}/`;
  const listing = await git(['ls-tree', commit, '--', ...SETUP_FILES.map((f) => prefix + f)], repoRoot);
  return createHash('sha256').update(listing).digest('hex');
}

async function removeStalePartials(reposDir: string, key: string): Promise<void> {
  const entries = await fs.readdir(reposDir).catch(() => [] as string[]);
  for (const name of entries)
    if (name.startsWith(`.${key}.partial-`))
      await fs.rm(path.join(reposDir, name), { recursive: true, force: true });
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
