// The 'bundle' kind: a task's base recreated from its base.bundle — `git clone` of the bundle (no checkout), then
// the base commit checked out detached — as a harness does, with no access to the original repository. eval's
// scoring checkout, the diff policy's classification for Docker scoring and bench's agent checkout start here.
// Git runs isolated from the user's configuration.
import path from 'node:path';
import { git } from '../git/git';
import type { CopyScratch, MadeCopy } from './copyTypes';

export async function bundleCopy(
  bundleFile: string,
  commit: string,
  scratch: CopyScratch,
): Promise<MadeCopy> {
  const checkout = path.join(scratch.dir, 'repo');
  await git(['clone', '-q', '--no-checkout', bundleFile, checkout], scratch.dir, { isolated: true });
  await git(['checkout', '-q', '--detach', commit], checkout, { isolated: true });
  return { dir: checkout, root: checkout };
}
