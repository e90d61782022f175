// Which specs' recorded coverage still describes what their tests execute, so that a full check can run them
// without instrumentation and keep what they recorded: the cost of coverage then follows the change, not the
// spec count. Each recorded entry keeps the snapshot tree of the run that recorded it (the workspace's files
// before that run, untracked ones included); before a full check runs anything, the workspace is snapshotted
// again and affected-spec selection (the same safe policy as `check --affected`) is asked which specs the
// changes between the two trees can reach. A spec it leaves out executes exactly what it did then — nothing it
// ran changed, and nothing it could newly load did — so its coverage holds; every spec it selects, for whatever
// reason, records again, as does every spec without an entry, without a snapshot, or whose snapshot git no
// longer has (gc prunes unreferenced trees after two weeks), and every spec that ran a file git does not
// snapshot (an ignored build output: its changes would go unseen). A kept entry whose files are all today's
// content moves to the new snapshot; one whose file changed where the spec did not run stays on its own, where
// the content it was recorded on is the base, so that hunks still map to the functions it ran.
import { gitRoot, git } from '../git/git';
import { workingTreeObject } from '../git/workingTree';
import { selectAffectedBetween } from '../selection/selectAffected';
import { blobHashesAt } from '../coverage/blobHash';
import { readCoverageStore } from '../coverage/store';
import type { CoveragePlan, CoverageStore } from '../coverage/types';

/** How many recording snapshots are compared at most (each adds two git diffs); older entries record again. */
const MAX_SNAPSHOTS = 8;

export interface PlanCoverageOptions {
  workspaceDir: string;
  /** The specs this run will run. */
  specIds: readonly string[];
  /** Record every spec again (`--fresh-coverage`). */
  fresh?: boolean;
  /**
   * Keep a spec's coverage only when it was recorded on the files exactly as they are now, not merely on files
   * changed only where the spec did not run: VS Code's Coverage profile shows its lines in today's files.
   */
  sameContent?: boolean;
  signal?: AbortSignal;
}

/** Never throws: whatever cannot be planned records again, with why (a stopped check records nothing anyway). */
export async function planCoverage(options: PlanCoverageOptions): Promise<CoveragePlan> {
  const { workspaceDir, signal } = options;
  const none = (recordAgainBecause: string, snapshot?: string): CoveragePlan => ({
    ...(snapshot !== undefined ? { snapshot } : {}),
    reuse: new Set(),
    current: new Set(),
    recordAgainBecause,
  });
  const root = await gitRoot(workspaceDir);
  if (root === null) return none('the workspace is not in a git repository');
  let snapshot: string;
  let store: CoverageStore;
  try {
    [snapshot, store] = await Promise.all([
      workingTreeObject(root, workspaceDir, { include: 'all', ...(signal ? { signal } : {}) }),
      readCoverageStore(workspaceDir),
    ]);
  } catch (error) {
    return none(`git could not snapshot the workspace (${firstLine(error)})`);
  }
  if (options.fresh) return none('--fresh-coverage', snapshot);

  const because: string[] = [];
  const compared = await snapshotsToCompare(root, store, options.specIds, because);
  // A stopped check runs nothing: what is planned no longer matters.
  const reuse =
    compared.length > 0 && signal?.aborted !== true
      ? await unaffectedSince(workspaceDir, compared, snapshot, because, signal)
      : new Set<string>();
  const current = await keepOnlyWhatGitSnapshots(workspaceDir, snapshot, store, reuse, options.sameContent);
  return { snapshot, reuse, current, ...(because.length > 0 ? { recordAgainBecause: because[0]! } : {}) };
}

/**
 * The specs with recorded coverage, grouped by the snapshot they were recorded at: the newest MAX_SNAPSHOTS
 * snapshots git still has (the others' specs record again, and `because` says why).
 */
async function snapshotsToCompare(
  root: string,
  store: CoverageStore,
  specIds: readonly string[],
  because: string[],
): Promise<Array<[string, string[]]>> {
  const groups = new Map<string, { ids: string[]; newest: string }>();
  for (const id of specIds) {
    const entry = store.specs[id];
    if (entry?.snapshot === undefined) continue;
    const group = groups.get(entry.snapshot) ?? { ids: [], newest: '' };
    group.ids.push(id);
    if (entry.recordedAt > group.newest) group.newest = entry.recordedAt;
    groups.set(entry.snapshot, group);
  }
  const newestFirst = [...groups].sort(([, a], [, b]) => (a.newest < b.newest ? 1 : -1));
  if (newestFirst.length > MAX_SNAPSHOTS)
    because.push(`coverage recorded more than ${MAX_SNAPSHOTS} runs ago`);
  const candidates = newestFirst.slice(0, MAX_SNAPSHOTS);
  const present = await Promise.all(
    candidates.map(([from]) =>
      git(['cat-file', '-e', `${from}^{tree}`], root).then(
        () => true,
        () => false,
      ),
    ),
  );
  const compared: Array<[string, string[]]> = [];
  candidates.forEach(([from, group], i) => {
    if (present[i]) compared.push([from, group.ids]);
    else because.push(`git no longer has the snapshot ${from.slice(0, 12)} their coverage was recorded at`);
  });
  return compared;
}

/** Of each snapshot's specs, those selection leaves out for the changes from that snapshot to today's. */
async function unaffectedSince(
  workspaceDir: string,
  compared: Array<[string, string[]]>,
  snapshot: string,
  because: string[],
  signal: AbortSignal | undefined,
): Promise<Set<string>> {
  const reuse = new Set<string>();
  try {
    const selections = await selectAffectedBetween(
      workspaceDir,
      compared.map(([from]) => from),
      snapshot,
      signal,
    );
    selections.forEach((selection, i) => {
      const unaffected = new Set(selection.unaffected);
      for (const id of compared[i]![1]) if (unaffected.has(id)) reuse.add(id);
      if (selection.all) because.push(selection.allReasons[0] ?? 'a change has unknown impact');
    });
  } catch (error) {
    because.push(`selection failed (${firstLine(error)})`);
  }
  return reuse;
}

/**
 * Drops from `reuse` the specs that ran a file git does not snapshot (ignored files, such as build output a test
 * runs, change unseen) and, with `sameContent`, those whose files changed; returns the specs whose every file is
 * today's content.
 */
async function keepOnlyWhatGitSnapshots(
  workspaceDir: string,
  snapshot: string,
  store: CoverageStore,
  reuse: Set<string>,
  sameContent: boolean | undefined,
): Promise<Set<string>> {
  const current = new Set<string>();
  if (reuse.size === 0) return current;
  const blobs = await blobHashesAt(workspaceDir, snapshot).catch(() => new Map<string, string>());
  for (const id of [...reuse]) {
    const files = Object.entries(store.specs[id]?.files ?? {});
    if (files.some(([file]) => !blobs.has(file))) reuse.delete(id);
    else if (files.every(([file, covered]) => blobs.get(file) === covered.hash)) current.add(id);
    else if (sameContent) reuse.delete(id);
  }
  return current;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
