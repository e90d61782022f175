// Where mutants and draft verifications run: standalone sandboxed checkouts of the working tree (uncommitted
// changes included, no link back to the user's repository), one per worker and reused across mutants, and the
// one call that runs spec tests in them — contained like the agent's runs (src/core/sandbox): the code under
// audit may be an agent's, and a draft's test is a model's.
import { runSpecs, type SpecResult } from '../check';
import type { Containment, ContainmentRequest } from '../sandbox/containment';
import { WORKING_TREE, withCopiedWorkspace } from '../workspace';
import { specFileSchema, type SpecFile } from '../../shared/specSchema';

/** A spec file with no specs: what a draft session's first checkout guards (the runner configs alone). */
const NO_SPECS: SpecFile = specFileSchema.parse({ version: 1, goal: '', specs: [] });

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
      : withCopiedWorkspace(
          workspaceDir,
          // Without a spec file (a draft session's first checkout) the protected set is the runner configs alone.
          { kind: 'standalone', ref: WORKING_TREE, contain: { specFile: specFile ?? NO_SPECS, ...request } },
          ({ dir, containment }) => open([...opened, { dir, containment }]),
        );
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
