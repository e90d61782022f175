// Blame: which edit broke a spec. The diff between the baseline (a git ref, or the commit of the latest clean
// recorded run) and the working tree — uncommitted and untracked files included — is cut into hunks; delta
// debugging applies subsets of them to the baseline in a scratch worktree and runs the ONE spec's test, until the
// smallest set that still breaks it is found. The hunks are then mapped to their enclosing symbols and to the
// specs anchored there. The user's working tree, index and refs are never written: the working tree is
// snapshotted through a private index file, and every probe runs in a throw-away `git worktree`.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { latestCleanRun, type Verdict } from '../check';
import { git, gitRoot, resolveCommit } from '../git/git';
import { withCopiedWorkspace } from '../workspace';
import { loadSpecFile, SpecLoadError } from '../spec';
import type { Spec, SpecFile } from '../../shared/specSchema';
import type { IndexView } from '../anchors/resolve';
import { normalizeWorkspacePath } from '../workspacePath';
import { parseDiff, type DiffHunk, type ParsedDiff } from '../git/hunks';
import { BlameError } from './blameError';
import { attributeHunks, explain, type BlamedHunk } from './explain';
import { workingTreeObject } from '../git/workingTree';
import { findBreakingHunks, type BlameProgress } from './probes';

export { BlameError, type BlameErrorCode } from './blameError';
export type { BlamedHunk } from './explain';
export type { BlameProgress } from './probes';

export const DEFAULT_BLAME_MAX_RUNS = 32;

export interface BlameOptions {
  workspaceDir: string;
  specId: string;
  /** Git ref of the baseline; default: the commit of the latest clean recorded run. */
  baselineRef?: string;
  signal?: AbortSignal;
  /** Most spec runs in all, the two checks (broken now, passes on the baseline) included. Default 32. */
  maxRuns?: number;
  onProgress?: (event: BlameProgress) => void;
  /** The workspace index (for symbols and anchors); blame builds one when absent. */
  index?: IndexView;
  /** Builds the index when `index` is absent. */
  loadIndex?: (workspaceDir: string, signal?: AbortSignal) => Promise<IndexView>;
}

export interface BlameResult {
  specId: string;
  baseline: { commit: string; ref?: string; runId?: string };
  /** Hunks in the diff (excluding the spec file and the spec's own test files, which every probe keeps). */
  totalHunks: number;
  hunks: BlamedHunk[];
  /** False when the run budget ran out before the set was 1-minimal. */
  minimal: boolean;
  runs: number;
  /** Verdict of the spec with every change applied ('fail' or 'error'). */
  brokenVerdict: Verdict;
  /** One line per blamed hunk: "the edit to `LruCache.get` (src/cache.js:42-43), made for `cache-hit`, breaks `no-stale-read`". */
  explanation: string[];
}

/** The phases of blame: the spec, the change since the baseline, the probes, the attribution. */
export async function blameSpec(options: BlameOptions): Promise<BlameResult> {
  const workspaceDir = await fs
    .realpath(path.resolve(options.workspaceDir))
    .catch(() => path.resolve(options.workspaceDir));
  const { spec, specFile } = await loadBlamedSpec(workspaceDir, options.specId);
  const root = await gitRoot(workspaceDir);
  if (root === null)
    throw new BlameError('not-git', `${workspaceDir} is not in a git repository: blame needs a git baseline`);
  const prefix = toPosix(path.relative(root, workspaceDir));
  const baseline = await findBaseline(workspaceDir, options.baselineRef, spec.id);
  const diff = await changeSinceBaseline(root, workspaceDir, prefix, baseline.commit);
  const toWorkspace = (repoPath: string): string =>
    prefix === '' ? repoPath : repoPath.slice(prefix.length + 1);
  const { pinned, candidates } = partitionHunks(diff, spec, toWorkspace, prefix, baseline.commit);

  // The probes' patch files go in the copy's temp folder, beside the worktree (never inside it: `git clean`).
  return withCopiedWorkspace(
    workspaceDir,
    { kind: 'worktree', ref: baseline.commit },
    async ({ dir: workspaceInCheckout, root: checkoutRoot, scratch }) => {
      const found = await findBreakingHunks({
        checkoutRoot,
        workspaceInCheckout,
        scratch,
        diff,
        pinned,
        candidates,
        spec,
        specFile,
        maxRuns: options.maxRuns ?? DEFAULT_BLAME_MAX_RUNS,
        baselineCommit: baseline.commit,
        signal: options.signal,
        onProgress: options.onProgress,
      });
      const index = options.index ?? (await requireIndexLoader(options)(workspaceDir, options.signal));
      const hunks = await attributeHunks({
        workspaceDir,
        specFile,
        index,
        blamedId: spec.id,
        hunks: found.hunks.map((hunk) => ({ hunk, file: toWorkspace(hunk.file) })),
      });
      return {
        specId: spec.id,
        baseline,
        totalHunks: candidates.length,
        hunks,
        minimal: found.minimal,
        runs: found.runs,
        brokenVerdict: found.brokenVerdict,
        explanation: hunks.map((h) => explain(h, spec.id)),
      };
    },
  );
}

async function loadBlamedSpec(
  workspaceDir: string,
  specId: string,
): Promise<{ spec: Spec; specFile: SpecFile }> {
  const loaded = await loadSpecFile(workspaceDir);
  if (!loaded.ok) throw new SpecLoadError(loaded.file, loaded.problems);
  const { specFile } = loaded;
  const spec = specFile.specs.find((s) => s.id === specId);
  if (!spec) {
    const known = specFile.specs.map((s) => s.id).join(', ');
    throw new BlameError('unknown-spec', `unknown spec id '${specId}' (specs: ${known})`);
  }
  return { spec, specFile };
}

/** The diff from the baseline to the working tree (untracked files included) of the workspace folder. */
async function changeSinceBaseline(
  root: string,
  workspaceDir: string,
  prefix: string,
  baselineCommit: string,
): Promise<ParsedDiff> {
  const workingTree = await workingTreeObject(root, workspaceDir);
  const rawDiff = await git(
    [
      'diff',
      '--no-renames',
      '--binary',
      '--full-index',
      '-U0',
      '--no-color',
      '--no-ext-diff',
      baselineCommit,
      workingTree,
      '--',
      prefix === '' ? '.' : prefix,
    ],
    root,
  );
  return parseDiff(rawDiff);
}

/**
 * The spec file and the blamed spec's own tests are held at their current version in every probe (as
 * `weave check --baseline-ref` does): the question is which CODE change breaks today's test. Weave's own local
 * state (run history, index cache) is never part of the change being blamed.
 */
function partitionHunks(
  diff: ParsedDiff,
  spec: Spec,
  toWorkspace: (repoPath: string) => string,
  prefix: string,
  baselineCommit: string,
): { pinned: DiffHunk[]; candidates: DiffHunk[] } {
  const pinnedFiles = new Set([
    normalizeWorkspacePath('.weave/specs.json'),
    ...spec.test.files.map(normalizeWorkspacePath),
  ]);
  const relevant = diff.hunks.filter((h) => {
    const file = toWorkspace(h.file);
    return !file.startsWith('.weave/') || file === '.weave/specs.json';
  });
  const pinned = relevant.filter((h) => pinnedFiles.has(toWorkspace(h.file)));
  const candidates = relevant.filter((h) => !pinnedFiles.has(toWorkspace(h.file)));
  if (candidates.length === 0) {
    const where = prefix === '' ? 'the working tree' : `the working tree's ${prefix}/`;
    throw new BlameError(
      'empty-diff',
      pinned.length === 0
        ? `nothing changed between the baseline ${short(baselineCommit)} and ${where}: there is no edit to blame`
        : `only the spec file and ${spec.id}'s own test files changed since the baseline ${short(baselineCommit)}: there is no code edit to blame`,
    );
  }
  return { pinned, candidates };
}

function requireIndexLoader(
  options: BlameOptions,
): (dir: string, signal?: AbortSignal) => Promise<IndexView> {
  if (!options.loadIndex) throw new Error('blameSpec needs `index` or `loadIndex`');
  return options.loadIndex;
}

async function findBaseline(
  workspaceDir: string,
  ref: string | undefined,
  specId: string,
): Promise<BlameResult['baseline']> {
  if (ref !== undefined) {
    try {
      return { commit: await resolveCommit(workspaceDir, ref), ref };
    } catch {
      throw new BlameError(
        'baseline-missing',
        `baseline ${ref} does not exist: it is not a commit in this repository`,
      );
    }
  }
  const run = await latestCleanRun(workspaceDir, [specId]);
  if (run === null || run.commit === null) {
    throw new BlameError(
      'no-baseline',
      'no baseline: no run was recorded on a clean tree; pass --baseline-ref REF (e.g. HEAD) or run `weave check` on a clean tree first',
    );
  }
  try {
    return { commit: await resolveCommit(workspaceDir, run.commit), runId: run.id };
  } catch {
    throw new BlameError(
      'baseline-missing',
      `the baseline run ${run.id} was recorded at commit ${short(run.commit)}, which no longer exists; pass --baseline-ref REF`,
    );
  }
}

function short(commit: string): string {
  return commit.slice(0, 12);
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
