// Where mutants run: scratch checkouts of the working tree (uncommitted changes included), one per worker and
// reused across mutants, and the one call that runs spec tests in them. Containment (a standalone sandboxed
// checkout, sandboxed runs) is swapped in here and nowhere else.
import type { SpecResult } from '../check/types';
import { runSpecs } from '../check/runSpecs';
import { WORKING_TREE, withWorktree } from '../git/worktree';
import type { SpecFile } from '../spec/schema';

/** Opens `count` scratch checkouts of `workspaceDir`'s working state, runs `fn`, removes them all. */
export async function withScratchCheckouts<T>(
  workspaceDir: string,
  count: number,
  fn: (dirs: string[]) => Promise<T>,
): Promise<T> {
  const open = (dirs: string[]): Promise<T> =>
    dirs.length >= count ? fn(dirs) : withWorktree(workspaceDir, WORKING_TREE, (dir) => open([...dirs, dir]));
  return open([]);
}

/** Runs the specs `ids` (one after the other: the worker is the unit of parallelism) in a scratch checkout. */
export function runSpecsInCheckout(
  dir: string,
  specFile: SpecFile,
  ids: readonly string[],
  options: { signal?: AbortSignal; repeat?: number; concurrency?: number } = {},
): Promise<SpecResult[]> {
  return runSpecs({
    workspaceDir: dir,
    specFile,
    only: ids,
    concurrency: options.concurrency ?? 1,
    ...(options.repeat !== undefined ? { repeat: options.repeat } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}
