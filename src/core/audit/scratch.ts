// Where mutants and draft verifications run: standalone sandboxed checkouts of the working tree (uncommitted
// changes included, no link back to the user's repository), one per worker and reused across mutants, and the
// one call that runs spec tests in them — contained like the agent's runs (src/core/sandbox): the code under
// audit may be an agent's, and a draft's test is a model's.
import { runSpecs, type SpecResult } from '../check';
import { WORKING_TREE } from '../git/worktree';
import { withStandaloneCheckout } from '../sandbox/checkout';
import { containmentFor, type Containment, type ContainmentRequest } from '../sandbox/containment';
import { specFileSchema, type SpecFile } from '../../shared/specSchema';

/** A scratch checkout and the containment its runs get (the sandbox, the tamper guard's protected set). */
export interface ScratchCheckout {
  readonly dir: string;
  readonly containment: Containment;
}

/** Opens `count` scratch checkouts of `workspaceDir`'s working state, runs `fn`, removes them all. */
export async function withScratchCheckouts<T>(
  workspaceDir: string,
  count: number,
  fn: (checkouts: ScratchCheckout[]) => Promise<T>,
  specFile?: SpecFile,
  request: ContainmentRequest = {},
): Promise<T> {
  const open = (opened: ScratchCheckout[]): Promise<T> =>
    opened.length >= count
      ? fn(opened)
      : withStandaloneCheckout(workspaceDir, WORKING_TREE, async (checkout) => {
          // Without a spec file (a draft session's first checkout) the protected set is the runner configs alone.
          const guarded = specFile ?? specFileSchema.parse({ version: 1, goal: '', specs: [] });
          const containment = await containmentFor(checkout, guarded, request);
          return open([...opened, { dir: checkout.workspaceDir, containment }]);
        });
  return open([]);
}

/** Runs the specs `ids` (one after the other: the worker is the unit of parallelism) in a scratch checkout. */
export function runSpecsInCheckout(
  { dir, containment }: ScratchCheckout,
  specFile: SpecFile,
  ids: readonly string[],
  options: { signal?: AbortSignal; repeat?: number; concurrency?: number } = {},
): Promise<SpecResult[]> {
  return runSpecs({
    workspaceDir: dir,
    specFile,
    only: ids,
    concurrency: options.concurrency ?? 1,
    containment,
    ...(options.repeat !== undefined ? { repeat: options.repeat } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}
