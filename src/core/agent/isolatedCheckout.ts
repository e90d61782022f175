// The agent's throw-away checkout: RUN's withWorktree, retried when creating the worktree fails. Concurrent
// `git worktree add`s in one repository (the matrix runs several) can trip over each other's half-written
// admin folders ("failed to read .git/worktrees/tree2/commondir"); the failure happens before any work
// started, so trying again is safe.
import { GitError } from '../git/git';
import { withWorktree, WORKING_TREE } from '../git/worktree';

const ATTEMPTS = 4;

export async function withAgentCheckout<T>(
  workspaceDir: string,
  fn: (dir: string) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let started = false;
    try {
      return await withWorktree(workspaceDir, WORKING_TREE, (dir) => {
        started = true;
        return fn(dir);
      });
    } catch (error) {
      if (started || !(error instanceof GitError) || attempt >= ATTEMPTS) throw error;
      // A short, jittered pause lets the other `git worktree` commands finish.
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 150 * attempt));
    }
  }
}
