// The shapes shared by the kinds of copy (worktreeCopy, standaloneCopy, bundleCopy) and copyWorkspace, which
// dispatches to them.
import type { Containment, ContainmentRequest } from '../sandbox/containment';
import type { SpecFile } from '../../shared/specSchema';

/** The temp folder a copy lives in, and what its removal must do around deleting it. */
export interface CopyScratch {
  readonly dir: string;
  /** Run before the folder is deleted (git forgets a worktree), in order. */
  readonly beforeRemoval: Array<() => Promise<void>>;
  /** Run after it is deleted (git prunes worktree bookkeeping), in order. */
  readonly afterRemoval: Array<() => Promise<void>>;
}

/** What a kind made inside its scratch folder. */
export interface MadeCopy {
  dir: string;
  root: string;
  containment?: Containment;
}

/** Contain the runs in a standalone copy: the spec file whose protected set the tamper guard holds, and how. */
export interface ContainRequest extends ContainmentRequest {
  specFile: SpecFile;
}
