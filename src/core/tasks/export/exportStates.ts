// The two states a task is made of, in the export's scratch task repository: the base as its one commit
// (bundled into the stage), then the target state over it, and the change between them split into gold.patch
// (the code) and test.patch (the protected set: spec tests, .weave/, test-support files and helpers).
import { observedLoadsOf } from '../../sandbox/observedLoads';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { git, splitNul } from '../../git/git';
import {
  isKeyedManifest,
  isProtectedPath,
  protectedPaths,
  protectionScopeOfSpecFile,
} from '../../sandbox/protectedFiles';
import { ExportInputError, type ExportInputs } from './exportInputs';
import type { ExcludedFile } from './hygiene';
import { snapshotCommit, snapshotWorkingTree, type SnapshotOptions } from './snapshot';
import { BASE_BRANCH, isSpecTestPath, TASK_FILES } from '../taskFormat';
import { dedupeExcluded, specTestFilesOf } from './taskRecord';

// Scratch repositories commit reproducibly and never with the user's configuration.
const IN_TASK_REPO = { isolated: true };

export interface BaseState {
  /** The synthetic base commit in the task repository (base_commit). */
  commit: string;
  /** Its files, to tell protected paths that exist at the base from those test.patch creates. */
  files: Set<string>;
  excluded: ExcludedFile[];
}

/**
 * The base as the task repository's one commit (the workspace folder at the base ref, dated like it), bundled
 * into the stage. Only the base is bundled: the target state's objects are unreachable from it and stay out.
 */
export async function commitBase(
  inputs: ExportInputs,
  snapshot: SnapshotOptions,
  stage: string,
): Promise<BaseState> {
  const taskRepo = snapshot.destination;
  await git(['init', '-q', '-b', BASE_BRANCH], taskRepo, IN_TASK_REPO);
  const { excluded } = await snapshotCommit(inputs.sourceCommit, snapshot);
  await git(['add', '-A', '-f'], taskRepo, IN_TASK_REPO);
  const baseDate = (
    await git(['log', '-1', '--format=%cI', inputs.sourceCommit], inputs.workspaceDir)
  ).trim();
  const workspaceName = path.basename(inputs.workspaceDir);
  await git(
    ['commit', '-q', '--allow-empty', '--no-verify', '-m', `Weave task base: ${workspaceName}`],
    taskRepo,
    {
      ...IN_TASK_REPO,
      env: { GIT_AUTHOR_DATE: baseDate, GIT_COMMITTER_DATE: baseDate },
    },
  );
  const commit = (await git(['rev-parse', 'HEAD'], taskRepo, IN_TASK_REPO)).trim();
  await git(
    ['bundle', 'create', '-q', path.join(stage, TASK_FILES.baseBundle), 'HEAD', BASE_BRANCH],
    taskRepo,
    IN_TASK_REPO,
  );
  const files = new Set(
    splitNul(await git(['ls-tree', '-r', '-z', '--name-only', 'HEAD'], taskRepo, IN_TASK_REPO)),
  );
  return { commit, files, excluded };
}

export interface Change {
  goldPatch: string;
  testPatch: string;
  specTestFiles: string[];
  /**
   * The protected set, sorted: the spec test files, and what the sandbox protects in the target state (.weave/,
   * test-support files, helpers in the test folders) or the change deletes from it. Every verifier restores these
   * before it scores (eval.sh resets them to the base and applies test.patch; Harbor's test.sh lays tests/files
   * over them), so a prediction that edits a helper scores on the task's own helper.
   */
  protectedPaths: string[];
  /** Left out of either state (secrets, the export's own output). */
  excluded: ExcludedFile[];
}

/**
 * The target state (the working tree, or `targetCommit`) over the base in the task repository, and the change
 * between them split in two: gold.patch (the code) and test.patch (spec tests and .weave/).
 */
export async function snapshotChange(
  inputs: ExportInputs,
  snapshot: SnapshotOptions,
  targetCommit: string | undefined,
  baseExcluded: ExcludedFile[],
): Promise<Change> {
  const taskRepo = snapshot.destination;
  for (const entry of await fs.readdir(taskRepo)) {
    if (entry !== '.git') await fs.rm(path.join(taskRepo, entry), { recursive: true, force: true });
  }
  const target =
    targetCommit === undefined
      ? await snapshotWorkingTree(snapshot)
      : await snapshotCommit(targetCommit, snapshot);
  await git(['add', '-A', '-f'], taskRepo, IN_TASK_REPO);
  const changed = splitNul(
    await git(['diff', '--cached', '--name-only', '-z', '--no-renames', 'HEAD'], taskRepo, IN_TASK_REPO),
  );
  const specTestFiles = specTestFilesOf(inputs.specFile);
  // What the user's checks saw the specs' test processes load (observedLoads.ts) ships in protected_files too.
  const observed = await observedLoadsOf(
    inputs.workspaceDir,
    inputs.specFile.specs,
    inputs.specFile.defaults,
  );
  const { loaded } = await protectionScopeOfSpecFile(taskRepo, inputs.specFile, observed);
  const protectedSet = new Set([
    ...specTestFiles,
    // Manifests are guarded key by key (the diff policy judges a prediction's change to their test keys); a task
    // restores whole files, which would undo a prediction's legitimate dependency change, so they are left out.
    ...(await protectedPaths(taskRepo, inputs.specFile, observed)).filter((p) => !isKeyedManifest(p)),
    ...changed.filter((f) => isProtectedPath(f, inputs.specFile, loaded)),
  ]);
  const isTestSide = (file: string): boolean => isSpecTestPath(file, specTestFiles) || protectedSet.has(file);
  const diffOf = async (paths: string[]): Promise<string> =>
    paths.length === 0
      ? ''
      : git(
          ['diff', '--cached', '--binary', '--full-index', '--no-renames', 'HEAD', '--', ...paths],
          taskRepo,
          {
            ...IN_TASK_REPO,
            env: { GIT_LITERAL_PATHSPECS: '1' },
          },
        );
  const goldPatch = await diffOf(changed.filter((f) => !isTestSide(f)));
  const testPatch = await diffOf(changed.filter(isTestSide));
  const excluded = dedupeExcluded([...baseExcluded, ...target.excluded]);
  if (goldPatch === '') {
    throw new ExportInputError(
      `nothing to export: no change outside the spec test files between ${inputs.baseRef} (${inputs.sourceCommit.slice(0, 12)}) and the working tree` +
        (excluded.length > 0 ? ` (left out: ${excluded.map((e) => e.path).join(', ')})` : '') +
        '; make the change the task is about, or pass --base',
    );
  }
  const protectedList = [...new Set([...protectedSet, ...changed.filter(isTestSide)])].sort();
  return { goldPatch, testPatch, specTestFiles, protectedPaths: protectedList, excluded };
}
