// The clone `weave mine` works in, one per repository line, in the cache folder: made once and reused by later runs
// (a rerun mines the same commits; a new clone needs a new cache folder or the old one removed). Shallow where the range allows it is not worth its cost here: the
// walk needs each candidate's parent, so URLs are cloned blobless (`--filter=blob:none`: history, no old file
// contents until a candidate needs them) and local paths plainly (git hard-links their objects). The clone's
// origin is removed afterwards, so nothing Weave writes names the source's location.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { git, GitError } from '../../git/git';
import type { RepositoryEntry } from './repoList';

export interface RepositoryClone {
  /** The clone's root. */
  root: string;
  /** The project folder mined (root or a subfolder). */
  workspaceDir: string;
}

/** Clones (or reuses) `entry` under `cacheDir`; throws a located reason when it cannot be had. */
export async function cloneRepository(entry: RepositoryEntry, cacheDir: string): Promise<RepositoryClone> {
  // The clone folder is named by the key, so the task's repository name (its folder's) is the same everywhere.
  const root = path.join(cacheDir, entry.key, entry.key);
  const workspaceDir = entry.subdir === '' ? root : path.join(root, entry.subdir);
  if (!(await isRepository(root))) {
    const partial = `${root}.partial-${process.pid}`;
    await fs.rm(partial, { recursive: true, force: true });
    await fs.mkdir(path.dirname(root), { recursive: true });
    const isUrl = !path.isAbsolute(entry.source);
    try {
      await git(
        ['clone', '-q', ...(isUrl ? ['--filter=blob:none'] : []), '--', entry.source, partial],
        cacheDir,
        { isolated: true },
      );
      await git(['remote', 'remove', 'origin'], partial, { isolated: true });
    } catch (error) {
      await fs.rm(partial, { recursive: true, force: true });
      if (error instanceof GitError)
        throw new CloneError(`cannot clone ${entry.line}: ${error.stderr.trim()}`);
      throw error;
    }
    // Two shards never share a repository, but a rerun may find a clone another run is still making: the rename
    // is the commit point, and a lost race keeps the other's clone.
    await fs.rename(partial, root).catch(async () => fs.rm(partial, { recursive: true, force: true }));
  }
  return { root, workspaceDir };
}

export class CloneError extends Error {}

async function isRepository(dir: string): Promise<boolean> {
  try {
    await fs.access(path.join(dir, '.git'));
    return true;
  } catch {
    return false;
  }
}
