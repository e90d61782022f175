// Trees deeper than a path can name. Code under test (an agent's, a prediction's) can build a folder chain
// thousands of levels deep with mkdir + chdir; every full path into it is longer than PATH_MAX, so walks that
// join paths fail with ENAMETOOLONG and Node's recursive fs.rm cannot delete it. Walks stop at MAX_TREE_DEPTH
// and say so; removal falls back to rm(1), which descends with openat and handles any depth.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';

/** Folder levels a walk descends below its start; deeper folders are cut (and the walk says so). */
export const MAX_TREE_DEPTH = 64;

/** Removes `dir` and everything under it, however deep; never follows a symlink; a missing `dir` is fine. */
export async function removeTree(dir: string): Promise<void> {
  try {
    await fs.rm(dir, { recursive: true, force: true });
  } catch (error) {
    if (process.platform === 'win32') throw error;
    await new Promise<void>((resolve, reject) => {
      execFile('rm', ['-rf', '--', dir], (rmError, _stdout, stderr) =>
        rmError ? reject(new Error(`cannot remove ${dir}: ${stderr.trim() || rmError.message}`)) : resolve(),
      );
    });
  }
}
