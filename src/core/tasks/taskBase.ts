// The one way a task's base is recreated from its folder: `git clone` of base.bundle (no checkout), then
// base_commit checked out detached — as a harness does, with no access to the original repository. eval (the
// scratch checkout a prediction is scored in), the diff policy's classification for Docker scoring, and bench (the
// checkout an agent works in) all start here. Git runs isolated from the user's configuration.
import path from 'node:path';
import { git } from '../git/git';
import { TASK_FILES } from './taskFormat';

/** Clones `taskDir`'s base.bundle into `checkout` (a path that must not exist yet) at `baseCommit`. */
export async function cloneTaskBase(taskDir: string, baseCommit: string, checkout: string): Promise<void> {
  await git(
    ['clone', '-q', '--no-checkout', path.join(taskDir, TASK_FILES.baseBundle), checkout],
    path.dirname(checkout),
    { isolated: true },
  );
  await git(['checkout', '-q', '--detach', baseCommit], checkout, { isolated: true });
}
