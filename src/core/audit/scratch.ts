// Where mutants and draft verifications run: standalone sandboxed checkouts of the working tree (uncommitted
// changes included, no link back to the user's repository), one per worker and reused across mutants, and the
// one call that runs spec tests in them — contained like the agent's runs (src/core/sandbox): the code under
// audit may be an agent's, and a draft's test is a model's.
import { runSpecs, type SpecResult } from '../check';
import { WORKING_TREE } from '../git/worktree';
import { withStandaloneCheckout } from '../sandbox/checkout';
import { containmentFor, type Containment, type ContainmentRequest } from '../sandbox/containment';
import type { SpecFile } from '../../shared/specSchema';

/** The containment of each open scratch checkout, by its workspace folder. */
const containments = new Map<string, Containment>();

/** Opens `count` scratch checkouts of `workspaceDir`'s working state, runs `fn`, removes them all. */
export async function withScratchCheckouts<T>(
  workspaceDir: string,
  count: number,
  fn: (dirs: string[]) => Promise<T>,
  specFile?: SpecFile,
  request: ContainmentRequest = {},
): Promise<T> {
  const open = (dirs: string[]): Promise<T> =>
    dirs.length >= count
      ? fn(dirs)
      : withStandaloneCheckout(workspaceDir, WORKING_TREE, async (checkout) => {
          const guarded = specFile ?? { version: 1 as const, goal: '', defaults: DEFAULTS, specs: [] };
          containments.set(checkout.workspaceDir, await containmentFor(checkout, guarded, request));
          try {
            return await open([...dirs, checkout.workspaceDir]);
          } finally {
            containments.delete(checkout.workspaceDir);
          }
        });
  return open([]);
}

const DEFAULTS = { cwd: '.', env: {}, timeoutSeconds: 120 };

/** Runs the specs `ids` (one after the other: the worker is the unit of parallelism) in a scratch checkout. */
export function runSpecsInCheckout(
  dir: string,
  specFile: SpecFile,
  ids: readonly string[],
  options: { signal?: AbortSignal; repeat?: number; concurrency?: number } = {},
): Promise<SpecResult[]> {
  const containment = containments.get(dir);
  return runSpecs({
    workspaceDir: dir,
    specFile,
    only: ids,
    concurrency: options.concurrency ?? 1,
    ...(containment ? { containment } : {}),
    ...(options.repeat !== undefined ? { repeat: options.repeat } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}
