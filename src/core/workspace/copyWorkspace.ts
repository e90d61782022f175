// The one way Weave copies a workspace to run things away from the user's files. Three kinds:
// - 'worktree': a git worktree of a ref (or the working state) for the user's own commands: baselines, blame;
// - 'standalone': a copy with a repository of its own and no link home, for an agent's or a prediction's runs,
//   optionally contained (the sandbox, the tamper guard) — see standaloneCopy.ts;
// - 'bundle': a task's base cloned from its base.bundle, as a harness does.
// Every copy lives in a temp folder of its own that dispose() removes (error and abort included with
// withCopiedWorkspace); the user's working tree is never written.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { removeTree } from '../deepTrees';
import type { Containment } from '../sandbox/containment';
import { bundleCopy } from './bundleCopy';
import type { ContainRequest, CopyScratch, MadeCopy } from './copyTypes';
import { standaloneCopy } from './standaloneCopy';
import { worktreeCopy } from './worktreeCopy';

export type CopyKind = 'worktree' | 'standalone' | 'bundle';

interface CopyRequestBase {
  /**
   * What to copy: a commit (any ref git resolves) or WORKING_TREE for 'worktree' and 'standalone' (outside git
   * only WORKING_TREE); the base commit for 'bundle'.
   */
  ref: string;
  /** The temp folder's name prefix (default weave-<kind>-…); tests and the clean-up checks find leftovers by it. */
  tempPrefix?: string;
}
export interface WorktreeRequest extends CopyRequestBase {
  kind: 'worktree';
}
export interface StandaloneRequest extends CopyRequestBase {
  kind: 'standalone';
  /** Contain runs in the copy (containmentFor); without it the dependency folders are linked instead. */
  contain?: ContainRequest;
}
export interface BundleRequest extends CopyRequestBase {
  kind: 'bundle';
}
export type CopyRequest = WorktreeRequest | StandaloneRequest | BundleRequest;

export interface CopiedWorkspace {
  /** The workspace folder's counterpart inside the copy (the same subfolder when the workspace is one). */
  dir: string;
  /** The copy's top folder: the worktree, or the copy's own repository root. */
  root: string;
  /** The temp folder holding the copy, removed with it: a caller's own scratch files may go beside `root`. */
  scratch: string;
  /** How runs in a standalone copy asked to be contained are contained. */
  containment?: Containment;
  /** Removes the copy (a worktree is forgotten by git first); a second call does nothing. */
  dispose(): Promise<void>;
}
export type ContainedCopy = CopiedWorkspace & { containment: Containment };

const DEFAULT_PREFIX: Record<CopyKind, string> = {
  worktree: 'weave-checkout-',
  standalone: 'weave-sandbox-',
  bundle: 'weave-bundle-',
};

/**
 * Copies `source` (a workspace folder; for 'bundle' the bundle file) as `request` says. The caller must
 * dispose() it; withCopiedWorkspace does that for a function's duration. A failed copy leaves nothing behind.
 */
export function copyWorkspace(
  source: string,
  request: StandaloneRequest & { contain: ContainRequest },
): Promise<ContainedCopy>;
export function copyWorkspace(source: string, request: CopyRequest): Promise<CopiedWorkspace>;
export async function copyWorkspace(source: string, request: CopyRequest): Promise<CopiedWorkspace> {
  const scratch: CopyScratch = {
    dir: await fs.mkdtemp(path.join(os.tmpdir(), request.tempPrefix ?? DEFAULT_PREFIX[request.kind])),
    beforeRemoval: [],
    afterRemoval: [],
  };
  let removal: Promise<void> | undefined;
  const dispose = (): Promise<void> => (removal ??= removeScratch(scratch));
  let made: MadeCopy;
  try {
    made = await makeCopy(source, request, scratch);
  } catch (error) {
    await dispose();
    throw error;
  }
  return { ...made, scratch: scratch.dir, dispose };
}

/** Runs `fn` with a copy of `source` (copyWorkspace) and removes the copy afterwards, whatever `fn` does. */
export function withCopiedWorkspace<T>(
  source: string,
  request: StandaloneRequest & { contain: ContainRequest },
  fn: (copy: ContainedCopy) => Promise<T>,
): Promise<T>;
export function withCopiedWorkspace<T>(
  source: string,
  request: CopyRequest,
  fn: (copy: CopiedWorkspace) => Promise<T>,
): Promise<T>;
export async function withCopiedWorkspace<T>(
  source: string,
  request: CopyRequest,
  fn: (copy: ContainedCopy) => Promise<T>,
): Promise<T> {
  const copy = await copyWorkspace(source, request);
  try {
    // Only the contained overload's callers read containment as present.
    return await fn(copy as ContainedCopy);
  } finally {
    await copy.dispose();
  }
}

function makeCopy(source: string, request: CopyRequest, scratch: CopyScratch): Promise<MadeCopy> {
  switch (request.kind) {
    case 'worktree':
      return worktreeCopy(source, request.ref, scratch);
    case 'standalone':
      return standaloneCopy(source, request.ref, scratch, request.contain);
    case 'bundle':
      return bundleCopy(source, request.ref, scratch);
  }
}

async function removeScratch(scratch: CopyScratch): Promise<void> {
  for (const step of scratch.beforeRemoval) await step();
  await removeTree(scratch.dir);
  for (const step of scratch.afterRemoval) await step();
}
