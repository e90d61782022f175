// core/workspace: the one way to copy a workspace (a worktree, a standalone contained copy, a task's bundle).
export {
  copyWorkspace,
  withCopiedWorkspace,
  type BundleRequest,
  type ContainedCopy,
  type CopiedWorkspace,
  type CopyKind,
  type CopyRequest,
  type StandaloneRequest,
  type WorktreeRequest,
} from './copyWorkspace';
export type { ContainRequest } from './copyTypes';
export { WORKING_TREE } from './copySource';
